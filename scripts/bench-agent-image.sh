#!/usr/bin/env bash
# The agent in its container image against the plain agent, as root:
#   ./rst bench agent-image [--image FILE]   (scripts/bench-agent-image.sh)
#
# Two network namespaces joined by a veth (rstbi-RANDOM-{snd,sw}). A connection storm made by
# `gen --storm` (SESSIONS connections, 5 frames each, 1,000,000 frames by default) is replayed with
# tcpreplay into the switch side at each rate of RATES, ROUNDS times, each time into a fresh plain
# agent (java -jar, this machine's JDK 21) and a fresh container of the image (podman run
# --network host in the switch namespace, the image's jlinked runtime), in alternating order; both
# capture the same interface with the same options (--buffer-mb 16, the same JVM options) after
# the same warm-up burst. Per run: the rate tcpreplay achieved, frames decoded, kernel and queue
# drops, the agent's CPU time (user + system, from /proc) and RSS. Per rate: the ratio
# container/plain of frames decoded (all rounds together; floor 0.95), and the median over the
# rounds of each one's CPU time per decoded frame, with their ratio plain/container (above 1: the
# container costs less). On a shared machine one run's CPU time may double when others take the
# cores, so the CPU ratio is for information, not a floor.
# Env: SESSIONS (200000), RATES ("200000 top": pps, top = --topspeed), ROUNDS (3).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE_FILE=
while [ $# -gt 0 ]; do
  case "$1" in
    --image) [ $# -ge 2 ] || { echo "bench agent-image: --image needs a file" >&2; exit 2; }; IMAGE_FILE=$2; shift ;;
    -h|--help)
      echo "usage: ./rst bench agent-image [--image FILE]   (scripts/bench-agent-image.sh, as root)"
      echo "  the agent in its container image (FILE, else one built now) against the plain agent: the same"
      echo "  storm replayed at each rate into both on the same veth, ROUNDS times each, alternately;"
      echo "  frames decoded, container/plain (floor 0.95), and CPU time per decoded frame of each"
      echo "  env: SESSIONS (200000 connections, 5 frames each), RATES (\"200000 top\"), ROUNDS (3)"
      exit 0 ;;
    *) echo "bench agent-image: unknown option '$1' (see: ./rst bench agent-image --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "bench agent-image: needs root (network namespaces, podman)" >&2; exit 1; }
eval "$(bash "$ROOT/scripts/setup.sh" --test-deps)"
export CONTAINERS_CONF=$ROOT/packaging/podman/containers.conf
SESSIONS=${SESSIONS:-200000}
RATES=${RATES:-200000 top}
ROUNDS=${ROUNDS:-3}

JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
if [ -z "$IMAGE_FILE" ] || [ -z "$JAR" ]; then
  # builds the jar too when there is none
  IMAGE_FILE=${IMAGE_FILE:-$(mktemp -u "${TMPDIR:-/tmp}/rst-agent-image.XXXXXX.tar")}
  bash "$ROOT/scripts/agent-image.sh" --out "$IMAGE_FILE"
  JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar | head -1)
fi
P=rstbi-$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')
W=$(mktemp -d "${TMPDIR:-/tmp}/$P.XXXXXX")
AGENT_PID=
IMAGE_ID=
LOADED_NEW=0
cleanup() {
  [ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null || true
  podman rm -f -t 5 "$P-agent" >/dev/null 2>&1 || true
  ip netns del "$P-snd" 2>/dev/null || true
  ip netns del "$P-sw" 2>/dev/null || true
  if [ $LOADED_NEW = 1 ] && [ -n "$IMAGE_ID" ]; then podman rmi -f "$IMAGE_ID" >/dev/null 2>&1 || true; fi
  rm -rf "$W"
}
trap cleanup EXIT

before=$(podman images -q --no-trunc | sort -u)
out=$(podman load -q -i "$IMAGE_FILE" 2>&1) || { echo "bench agent-image: podman load: $out" >&2; exit 1; }
NAME=$(echo "$out" | sed -n 's/^Loaded image[^:]*: *//p' | head -1)
IMAGE_ID=$(podman image inspect --format '{{.Id}}' "$NAME")
echo "$before" | grep -q "$IMAGE_ID" || LOADED_NEW=1

ip netns add "$P-snd"; ip netns add "$P-sw"
ip link add bs0 netns "$P-snd" type veth peer name bc0 netns "$P-sw"
ip -n "$P-snd" addr add 10.89.0.1/24 dev bs0; ip -n "$P-sw" addr add 10.89.0.2/24 dev bc0
ip -n "$P-snd" link set bs0 up; ip -n "$P-sw" link set bc0 up; ip -n "$P-sw" link set lo up
mkdir -p "$W/conf"
(umask 077; echo "bench$P" > "$W/conf/token")  # the agent refuses a token others may read
JAVA_OPTS="-Xms128m -Xmx128m -XX:+AlwaysPreTouch"   # what ./rst agent and the image use
AGENT_ARGS="--buffer-mb 16 --plain-http"

api() { ip netns exec "$P-sw" curl -s -H "Authorization: Bearer bench$P" "http://127.0.0.1:14795$1"; }
num() { echo "$1" | grep -o "\"$2\":[0-9]*" | head -1 | cut -d: -f2; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
start_agent() { # plain|container STATE_DIR
  if [ "$1" = plain ]; then
    # shellcheck disable=SC2086 # the options are split on purpose
    ip netns exec "$P-sw" java $JAVA_OPTS -jar "$JAR" agent --interface bc0 --listen 127.0.0.1:14795 \
      --token-file "$W/conf/token" --state-dir "$2" $AGENT_ARGS > "$W/agent.log" 2>&1 &
    AGENT_PID=$!
  else
    mkdir -p "$2"
    nsenter --net="/run/netns/$P-sw" podman run -d --name "$P-agent" --network host \
      --cap-add NET_RAW --cap-add NET_ADMIN -v "$2:/var/lib/rst-agent" -v "$W/conf:/etc/rst-agent:ro" \
      -e RST_AGENT_INTERFACES=bc0 -e RST_AGENT_LISTEN=127.0.0.1:14795 -e RST_AGENT_TOKEN_FILE=/etc/rst-agent/token \
      -e RST_AGENT_ARGS="$AGENT_ARGS" -e RST_AGENT_JAVA_OPTS="$JAVA_OPTS" "$IMAGE_ID" >/dev/null
    AGENT_PID=$(podman inspect --format '{{.State.Pid}}' "$P-agent")
  fi
  for _ in $(seq 300); do
    api /v1/status 2>/dev/null | grep -q '"capture_running":true' && return 0
    sleep 0.1
  done
  echo "bench agent-image: the $1 agent did not start:" >&2
  if [ "$1" = plain ]; then tail -5 "$W/agent.log" >&2; else podman logs "$P-agent" 2>&1 | tail -5 >&2; fi
  exit 1
}
stop_agent() { # plain|container
  if [ "$1" = plain ]; then
    kill "$AGENT_PID"; wait "$AGENT_PID" || true
  else
    podman rm -f -t 30 "$P-agent" >/dev/null
  fi
  AGENT_PID=
}

java -jar "$JAR" gen --out "$W/storm.pcap" --sessions "$SESSIONS" --seed 7 --storm --start 1767225600 2>&1 | sed 's/^/gen: /'
java -jar "$JAR" gen --out "$W/warm.pcap" --sessions 20000 --seed 8 --storm --start 1767225600 2>/dev/null
FRAMES=$((SESSIONS * 5))
echo "image $NAME ($IMAGE_FILE); plain: $JAR on $JAVA_HOME; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-7s %-9s %-5s %-9s %-9s %-7s %-7s %-8s %-10s %s\n' rate agent round achieved decoded k.drop q.drop cpu_s "us/frame" RSS_MiB
SUMMARY=
for RATE in $RATES; do
  declare -A DEC=() PER=()
  for round in $(seq "$ROUNDS"); do
    order="plain container"; [ $((round % 2)) = 0 ] && order="container plain"
    for kind in $order; do
      start_agent "$kind" "$W/state-$RATE-$round-$kind"
      # warm-up (JIT): a short burst at a low rate, not counted
      ip netns exec "$P-snd" tcpreplay -q -i bs0 --pps=50000 "$W/warm.pcap" > /dev/null 2>&1
      sleep 1
      S0=$(api /v1/status); C0=$(cpu_ticks "$AGENT_PID")
      RARG=--pps="$RATE"; [ "$RATE" = top ] && RARG=--topspeed
      ip netns exec "$P-snd" tcpreplay -q -i bs0 "$RARG" "$W/storm.pcap" > "$W/replay.txt" 2>&1
      for _ in $(seq 100); do
        sleep 0.1; S1=$(api /v1/status)
        [ "$(num "$S1" queue_backlog)" = 0 ] && [ $(( $(num "$S1" frames) - $(num "$S0" frames) )) -ge "$FRAMES" ] && break
      done
      sleep 0.5; S1=$(api /v1/status); C1=$(cpu_ticks "$AGENT_PID")
      dec=$(( $(num "$S1" frames) - $(num "$S0" frames) ))
      kd=$(( $(num "$S1" kernel_drops) - $(num "$S0" kernel_drops) ))
      qd=$(( $(num "$S1" queue_drops) - $(num "$S0" queue_drops) ))
      ticks=$((C1 - C0))
      ach=$(grep -o 'Rated: [0-9.]* Bps, [0-9.]* Mbps, [0-9.]* pps' "$W/replay.txt" | awk '{print $6}' | cut -d. -f1)
      per=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v f="$dec" 'BEGIN { printf "%.3f", (f > 0 ? t / hz * 1e6 / f : 0) }')
      DEC[$kind]=$(( ${DEC[$kind]:-0} + dec )); PER[$kind]="${PER[$kind]:-} $per"
      printf '%-7s %-9s %-5s %-9s %-9s %-7s %-7s %-8s %-10s %s\n' "$RATE" "$kind" "$round" "${ach:-?}" "$dec" "$kd" "$qd" \
        "$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", t / hz }')" "$per" \
        "$(( $(rss_kib "$AGENT_PID") / 1024 ))"
      stop_agent "$kind"
    done
  done
  median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
  mp=$(median <<< "${PER[plain]}"); mc=$(median <<< "${PER[container]}")
  line=$(awk -v dp="${DEC[plain]}" -v dc="${DEC[container]}" -v mp="$mp" -v mc="$mc" -v r="$RATE" 'BEGIN {
    cap = (dp > 0 ? dc / dp : 0); eff = (mc > 0 ? mp / mc : 0)
    printf "%s: frames decoded container/plain %.3f (floor 0.95: %s); CPU per decoded frame, median of the rounds: plain %.2f us, container %.2f us (plain/container %.3f)",
      r, cap, (cap >= 0.95 ? "met" : "NOT met"), mp, mc, eff }')
  SUMMARY="$SUMMARY$line"$'\n'
  unset DEC PER
done
echo "(achieved: tcpreplay's pps; decoded: frames the agent decoded of $FRAMES; k.drop/q.drop: kernel/queue drops;"
echo " cpu_s: the agent's user + system CPU over the storm; us/frame: CPU microseconds per decoded frame)"
printf '%s' "$SUMMARY"
