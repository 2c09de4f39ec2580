#!/usr/bin/env bash
# ./rst bench lab [lab bench options]: the whole system on the default lab fabric. Starts a
# controller (heap RST_HEAP, default 6g: 100,000 sessions seen by three switches each, and their
# paths), brings the lab up, runs `rst lab bench` (RTU -> path in RESTCONF at each level of live
# sessions, new sessions per second, paths checked against the kernel), and removes it all.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# --retention S and --data-sample N are this script's (the agents' --retention: how long they keep
# a closed session; --data-sample: they keep the data packets whose PSN is a multiple of N); every
# other option is the lab bench's
RETENTION=""
DATA_SAMPLE=1
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --retention ]; then
    [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "bench lab: --retention needs a number of seconds" >&2; exit 2; }
    RETENTION=$2; shift 2; continue
  fi
  if [ "$1" = --data-sample ]; then
    [[ ${2:-} =~ ^(1|2|4|8|16|32|64|128|256|512|1024)$ ]] ||
      { echo "bench lab: --data-sample needs a power of two (1 to 1024)" >&2; exit 2; }
    DATA_SAMPLE=$2; shift 2; continue
  fi
  args+=("$1"); shift
done
set -- ${args[@]+"${args[@]}"}
for a in "$@"; do
  case "$a" in
    -h|--help)
      # the options are the lab bench's (rst lab bench); nothing is started for a usage
      cat <<'EOF_'
usage: ./rst bench lab [--live N,N] [--rate R] [--seconds S] [--sample-every K] [--check N] [--warmup W]
                       [--nccl-rate C] [--data-sample N] [--retention S]
  (root) starts a controller (heap RST_HEAP, default 6g), brings the default lab up, runs
  `rst lab bench` with these options, and removes it all:
  W s (20) of traffic at R to warm the controller up, 10 s at 2R (a small backlog), then on
  in 10 s windows until its JIT compiler threads keep under a tenth of a core busy (at most 300 s more); ramp to each N live sessions (default
  10000,100000); after the warm-up and each ramp, wait until the controller has applied every
  agent's events; then S s (30) at R new sessions/s (1000) with the oldest closing; RTU ->
  complete path in RESTCONF p50/p99 on every K-th session (R/5: five a second); N of them (1000)
  checked against the kernel. Beside them C NCCL-style connections a second (default 2; 0:
  none; no CM, 2-4 QPs each): each QP pair's first packet -> both data paths complete in
  RESTCONF, p50/p99/max, and p99 over the CM sessions' p99 (floor 1.5), a sample checked against
  the kernel. --data-sample N: the agents keep the data packets whose PSN is a multiple of N (a
  power of two; default 1, every one; 64 as a switch's sFlow might). --retention S: the agents
  keep a closed session S s (their default: 3600, so that every session the warm-up and the
  ramps closed is still in the flow tables). Env: RST_HEAP, RST_LAB_DIR (default /run/rst-lab).
EOF_
      exit 0 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "bench lab: needs root (network namespaces)" >&2; exit 1; }
export RST_HEAP=${RST_HEAP:-6g}
export RST_LAB_DIR=${RST_LAB_DIR:-/run/rst-lab}
cleanup() {
  "$ROOT/rst" lab down >/dev/null 2>&1 || true
  "$ROOT/rst" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
mkdir -p -m 700 "$RST_LAB_DIR/tokens"
"$ROOT/rst" controller --background --agent-token-dir "$RST_LAB_DIR/tokens" >/dev/null
# agents of the benchmark hold up to 250,000 sessions each (the default) and 262,144 retained
# events (256 MiB), so that a controller that falls behind for a while resumes from the agents'
# logs rather than from snapshots of their whole tables
RST_LAB_JAVA_OPTS="-Xmx1g -Drst.agent.heap=-Xmx640m -Drst.agent.args=--retain-events,262144,--retain-mb,256${RETENTION:+,--retention,$RETENTION}" \
  "$ROOT/rst" lab up --data-sample "$DATA_SAMPLE"
RST_BENCH_CONTROLLER_PID=$(cat "$ROOT/.local/karaf/karaf.pid" 2>/dev/null || true)
export RST_BENCH_CONTROLLER_PID
echo "bench lab: $(nproc) cores, controller heap $RST_HEAP, agents keep closed sessions ${RETENTION:-3600} s and sample data PSNs that are multiples of $DATA_SAMPLE, $(date -u +%FT%TZ)"
RST_LAB_JAVA_OPTS="-Xmx2g" "$ROOT/rst" lab bench "$@"
