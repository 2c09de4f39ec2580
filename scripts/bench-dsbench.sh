#!/usr/bin/env bash
# ./rst bench dsbench: our session ingest against OpenDaylight's dsbenchmark in the same Karaf.
# One controller (the distribution of this repo, ./rst cluster up with one member, in namespace
# rstd-m1 at 10.254.201.11) with dsbenchmark 12.0.3 installed at its boot. Three agents in
# namespaces (rstd-a1..3) replay generated captures (N sessions in all, a third each) with
# tcpreplay: from the replay's start to the moment the datastore holds every session in
# rdma-flow-table:rft and every path in rdma-path-table:rpt: sessions/s, and session updates/s
# (the agents' events, their last seq). Right after, in the same Karaf, dsbenchmark's start-test
# (PUT, TX-CHAINING, OPERATIONAL, one outer-list entry per session with as many inner-list
# entries as a session entry has leaves, 1000 entries per transaction, as many entries as rft
# got), BINDING-INDEPENDENT and BINDING-AWARE, R runs each, the best kept: entries/s, and the
# ratio ours/dsbenchmark. Floors: 50,000 session updates/s; ratio >= 0.5.
# Root only, like ./rst bench cluster. Needs the network once: benchmark-api and dsbenchmark
# 12.0.3 are fetched from Maven Central into ~/.m2 (mvn dependency:get) when absent.
#   usage: ./rst bench dsbench [--sessions N] [--warmup W] [--pps P] [--runs R] [--inner K]
#     --sessions N  sessions measured, a third per agent (default 60000)
#     --warmup W    sessions replayed first, not measured, so that the JIT has compiled the
#                   ingest (default N/5; 0: none); they stay in the datastore
#     --pps P       frames/s each agent's replay sends (default 20000: above what the
#                   controller takes, so that the figure is the controller's)
#     --runs R      dsbenchmark runs per mode, the best kept (default 3; the first warms up,
#                   and on a shared machine its runs vary by half)
#     --inner K     dsbenchmark inner-list entries per outer entry (default: the leaves of
#                   grouping rdma-session in yang/, 19)
#   env: RST_CLUSTER_HEAP (controller heap, default 2g), RST_DSBENCH_DIR (work directory,
#        default .local/dsbench), RST_DSBENCH_NET (the /24 of the bridge, default 10.254.201),
#        RST_DSBENCH_JFR (a file: a Flight Recording of the controller over the measured ingest)
#   Exit status 0 when the measurement completed (floors met or not), 1 when it could not.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SESSIONS=60000
WARMUP=""
PPS=20000
RUNS=3
INNER=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sessions) SESSIONS=${2:?}; shift ;;
    --warmup) WARMUP=${2:?}; shift ;;
    --pps) PPS=${2:?}; shift ;;
    --runs) RUNS=${2:?}; shift ;;
    --inner) INNER=${2:?}; shift ;;
    -h|--help)
      # the usage line first, then the comment above as it stands
      sed -n 's/^#   \(usage: .*\)/\1/p' "$0"
      awk 'NR > 1 && /^#   usage:/ {next} NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"
      exit 0 ;;
    *) echo "bench dsbench: unknown option $1 (see: ./rst bench dsbench --help)" >&2; exit 2 ;;
  esac
  shift
done
for v in "$SESSIONS" "$PPS" "$RUNS" ${INNER:+"$INNER"}; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench dsbench: '$v' is not a positive number (see: ./rst bench dsbench --help)" >&2; exit 2; }
done
[ "$SESSIONS" -ge 3 ] || { echo "bench dsbench: --sessions must be at least 3" >&2; exit 2; }
WARMUP=${WARMUP:-$((SESSIONS / 5))}
[[ $WARMUP =~ ^[0-9]+$ ]] && { [ "$WARMUP" = 0 ] || [ "$WARMUP" -ge 3 ]; } ||
  { echo "bench dsbench: --warmup must be 0 or at least 3 (see: ./rst bench dsbench --help)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "bench dsbench: needs root (network namespaces)" >&2; exit 1; }
for c in tcpreplay jq bc curl java mvn; do
  command -v $c >/dev/null || { echo "bench dsbench: $c is missing" >&2; exit 1; }
done

DSB_VERSION=12.0.3
WORK=${RST_DSBENCH_DIR:-$ROOT/.local/dsbench}
PREFIX=rstd
NET=${RST_DSBENCH_NET:-10.254.201}
export RST_CLUSTER_PREFIX=$PREFIX RST_CLUSTER_NET=$NET RST_CLUSTER_DIR=$WORK/cluster RST_CLUSTER_MEMBERS=1
export RST_CLUSTER_HEAP=${RST_CLUSTER_HEAP:-2g}
CLUSTER=(bash "$ROOT/scripts/cluster.sh")
BASE=http://$NET.11:8181
AGENTS=(1 2 3)
JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
TGZ=$(ls "$ROOT"/karaf-distribution/target/rst-karaf-*.tar.gz 2>/dev/null | head -1 || true)
[ -n "$JAR" ] && [ -n "$TGZ" ] || { echo "bench dsbench: no distribution built: ./rst build first" >&2; exit 1; }
M2=${RST_M2_REPO:-$HOME/.m2/repository}

log() { echo "bench dsbench: [$(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg)] $*" >&2; }
die() { log "$*"; exit 1; }
now() { date +%s.%N; }
div() { LC_ALL=C printf "%.${3:-1}f" "$(echo "scale=6; $1 / $2" | bc)"; } # A B [DECIMALS]
agent_url() { echo "http://$NET.$((20 + $1)):4791"; }
agent_get() { curl -s -m 60 -H "Authorization: Bearer $(cat "$WORK/token")" "$(agent_url "$1")$2"; }
rc_get() { curl -s -m "${2:-60}" -u admin:admin -H 'Accept: application/json' "$BASE/rests/$1"; }

# --- clean-up: everything this run made, also on Ctrl-C -------------------------------------
REPLAYS=()
STARTED_CLUSTER=0
SAMPLER=""
cleanup() {
  local a p
  trap - EXIT INT TERM
  [ -z "$SAMPLER" ] || kill "$SAMPLER" 2>/dev/null || true
  for p in "${REPLAYS[@]+"${REPLAYS[@]}"}"; do kill "$p" 2>/dev/null || true; done
  for a in "${AGENTS[@]}"; do
    [ -f "$WORK/a$a.pid" ] && kill "$(cat "$WORK/a$a.pid")" 2>/dev/null || true
  done
  sleep 1
  for a in "${AGENTS[@]}"; do
    [ -f "$WORK/a$a.pid" ] && kill -9 "$(cat "$WORK/a$a.pid")" 2>/dev/null || true
    rm -f "$WORK/a$a.pid"
    ip netns delete "$PREFIX-a$a" 2>/dev/null || true
    ip link delete "$PREFIX-a$a-h" 2>/dev/null || true
  done
  if [ $STARTED_CLUSTER = 1 ]; then
    # the measurement is over: no clean stop needed (OpenDaylight's can take a minute)
    "${CLUSTER[@]}" kill 1 >/dev/null 2>&1 || true
    "${CLUSTER[@]}" down >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT
trap 'log "interrupted: cleaning up"; exit 130' INT TERM

if ip netns list | grep -q "^$PREFIX-"; then
  die "namespaces $PREFIX-* exist: another ./rst bench dsbench runs (or one was killed: ./rst bench dsbench cleans up after itself; remove them with ip netns delete)"
fi
if ip -4 addr show | grep -q "inet $NET\."; then
  die "$NET.0/24 is in use on this host (RST_DSBENCH_NET picks another /24)"
fi

# --- dsbenchmark's artifacts in ~/.m2 (Maven Central, needs the network once) -----------------
for a in benchmark-api dsbenchmark; do
  f=$M2/org/opendaylight/controller/$a/$DSB_VERSION/$a-$DSB_VERSION.jar
  if [ ! -f "$f" ]; then
    log "fetching org.opendaylight.controller:$a:$DSB_VERSION from Maven Central into $M2"
    mvn -B -ntp -q dependency:get -Dartifact="org.opendaylight.controller:$a:$DSB_VERSION" -Dtransitive=false >&2 ||
      die "could not fetch $a $DSB_VERSION (no network?)"
  fi
done

# What our session entry has: the leaves of grouping rdma-session (the messages' own leaves and
# the data containers' not counted): dsbenchmark's outer entries get as many inner entries.
LEAVES=$(awk '/grouping rdma-session \{/ {g = 1; d = 0}
  g { if ($1 == "leaf" && d == 1) n++; d += gsub(/\{/, "{"); d -= gsub(/\}/, "}"); if (d == 0 && n > 0) {print n; exit} }' \
  "$ROOT"/yang/src/main/yang/rdma-flow-table@*.yang)
INNER=${INNER:-$LEAVES}

# The member's boot installs dsbenchmark: installed into a running controller, its YANG model makes a
# new binding runtime generation, on which every DataBroker user restarts (RST's followers, RPT
# and insight too: insight's stop then waits 5 minutes for the DataBroker), and Felix fileinstall's
# refresh of deploy/ hangs the controller. At boot it is one more feature in the same resolution.
dsbench_prepare() { # MEMBER-HOME
  local h=$1
  grep -q 'id=m2.local' "$h/etc/org.ops4j.pax.url.mvn.cfg" ||
    sed -i "s#^\(    file:\${karaf.data}/kar@id=kar.repository@multi\)\$#\1, \\\\\n    file:$M2@id=m2.local#" \
      "$h/etc/org.ops4j.pax.url.mvn.cfg"
  grep -q 'id=m2.local' "$h/etc/org.ops4j.pax.url.mvn.cfg" || { echo "no pax-url-mvn repositories line to extend" >&2; return 1; }
  cat > "$h/etc/rst-dsbench-features.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<features name="rst-dsbench" xmlns="http://karaf.apache.org/xmlns/features/v1.4.0">
  <feature name="rst-dsbench" version="$DSB_VERSION" description="OpenDaylight dsbenchmark, for ./rst bench dsbench">
    <bundle>mvn:org.opendaylight.controller/benchmark-api/$DSB_VERSION</bundle>
    <bundle>mvn:org.opendaylight.controller/dsbenchmark/$DSB_VERSION</bundle>
  </feature>
</features>
XML
  sed -i -e 's#^\(featuresRepositories *=.*\)$#\1, file:${karaf.etc}/rst-dsbench-features.xml#' \
    -e 's#^\(featuresBoot *=.*\)$#\1, rst-dsbench#' "$h/etc/org.apache.karaf.features.cfg"
  grep -q '^featuresBoot.*rst-dsbench' "$h/etc/org.apache.karaf.features.cfg"
}
export -f dsbench_prepare
export M2 DSB_VERSION
export RST_CLUSTER_HOOK=dsbench_prepare

t_all=$SECONDS
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p "$WORK"; chmod 700 "$WORK"
rm -rf "$WORK"/a*.state "$WORK"/*.pcap "$WORK"/*.ids "$WORK"/*.log
head -c 24 /dev/urandom | base64 > "$WORK/token"; chmod 600 "$WORK/token"

# --- captures (before anything is timed) ---------------------------------------------------
# PHASE warm: WARMUP sessions first (their own seeds), so that the measured ingest is a running
# controller's rather than a fresh JVM's compiling (dsbenchmark gets its warm-up run too); they stay
# in the datastore. PHASE load: the measured SESSIONS.
per() { echo $(($1 / 3 + ($2 <= $1 % 3 ? 1 : 0))); } # TOTAL AGENT
gen_phase() { # PHASE TOTAL SEED-OFFSET
  local a
  for a in "${AGENTS[@]}"; do
    java -Xmx1g -jar "$JAR" gen --out "$WORK/$1$a.pcap" --sessions "$(per "$2" "$a")" --seed "$((a * 1000 + $3))" \
      --hosts 256 2>/dev/null
    # rst sessions prints each session after its last packet: the last line is the last one replayed
    java -Xmx1g -jar "$JAR" sessions "$WORK/$1$a.pcap" 2>/dev/null | jq -r .session_id > "$WORK/pcap-$1$a.order"
    tail -1 "$WORK/pcap-$1$a.order" > "$WORK/last-$1$a.id"
    sort "$WORK/pcap-$1$a.order" > "$WORK/pcap-$1$a.ids"
  done
}
log "generating $SESSIONS live sessions (REQ REP RTU) and $WARMUP for the warm-up, a third per agent, and their session ids"
gen_phase load "$SESSIONS" 7
[ "$WARMUP" = 0 ] || gen_phase warm "$WARMUP" 5
sort -mu "$WORK"/pcap-*.ids > "$WORK/pcap-all.ids"
[ "$(wc -l < "$WORK/pcap-all.ids")" = $((SESSIONS + WARMUP)) ] ||
  log "the captures hold $(wc -l < "$WORK/pcap-all.ids") distinct sessions, not $((SESSIONS + WARMUP)): some repeat"

# --- the controller ------------------------------------------------------------------------
log "starting one controller (./rst cluster up, one member, namespace $PREFIX-m1, heap $RST_CLUSTER_HEAP) with dsbenchmark $DSB_VERSION at boot"
STARTED_CLUSTER=1
"${CLUSTER[@]}" up --agent-token-file "$WORK/token" >/dev/null || die "the controller did not come up (see $WORK/cluster/m1/data/log/karaf.log)"
for _ in $(seq 120); do
  [ "$(rc_get 'data/dsbenchmark:test-status' 10 | jq -r '.["dsbenchmark:test-status"].execStatus // empty' 2>/dev/null)" = idle ] && break
  sleep 1
done
[ "$(rc_get 'data/dsbenchmark:test-status' 10 | jq -r '.["dsbenchmark:test-status"].execStatus // empty' 2>/dev/null)" = idle ] ||
  die "dsbenchmark did not come up in the controller (see $WORK/cluster/m1/data/log/karaf.log)"
log "controller up, dsbenchmark idle"

# The controller's CPU time (user + system, all its threads: JIT and GC too), sampled every 50 ms
# into cpu.samples ("TIME TICKS"): the machine may be shared, and CPU per entry holds where rates do not
KPID=$(cat "$WORK/cluster/m1/karaf.pid")
TCK=$(getconf CLK_TCK)
( while kill -0 "$KPID" 2>/dev/null && read -r -a f < "/proc/$KPID/stat"; do
    echo "$EPOCHREALTIME $((f[13] + f[14]))"; sleep 0.05
  done ) > "$WORK/cpu.samples" 2>/dev/null &
SAMPLER=$!
cpu_at() { # TIME -> the controller's CPU seconds at the last sample before TIME
  awk -v t="$1" -v tck="$TCK" '$1 <= t {c = $2} END {printf "%.3f\n", c / tck}' "$WORK/cpu.samples"
}
cpu_between() { echo "$(cpu_at "$2") - $(cpu_at "$1")" | bc; } # FROM TO -> CPU seconds

# --- three agents in namespaces on the member's bridge --------------------------------------
RETAIN=$(( SESSIONS * 3 > 65536 ? SESSIONS * 3 : 65536 ))
for a in "${AGENTS[@]}"; do
  ns=$PREFIX-a$a
  ip netns add "$ns"; ip netns exec "$ns" ip link set lo up
  ip link add "$PREFIX-a$a-h" type veth peer name eth0 netns "$ns"
  ip link set "$PREFIX-a$a-h" master "$PREFIX-br0" up
  ip netns exec "$ns" ip addr add "$NET.$((20 + a))/24" dev eth0
  ip netns exec "$ns" ip link set eth0 up
  ip netns exec "$ns" ip link add swp1 type veth peer name inj1
  ip netns exec "$ns" ip link set swp1 up; ip netns exec "$ns" ip link set inj1 up
  # the agent keeps every event of the run (the controller streams them, no resync from a snapshot)
  ip netns exec "$ns" java -Xmx512m -jar "$JAR" agent --interface swp1 --listen "0.0.0.0:4791" \
    --token-file "$WORK/token" --state-dir "$WORK/a$a.state" --plain-http --agent-id "sw$a" \
    --retain-events "$RETAIN" --retain-mb 512 > "$WORK/a$a.log" 2>&1 &
  echo $! > "$WORK/a$a.pid"
done
for a in "${AGENTS[@]}"; do
  for _ in $(seq 60); do agent_get "$a" /v1/status >/dev/null 2>&1 && break; sleep 1; done
  agent_get "$a" /v1/status | jq -e .last_seq >/dev/null || die "agent sw$a did not answer (see $WORK/a$a.log)"
  curl -s -o /dev/null -u admin:admin -X PUT -H 'Content-Type: application/json' \
    "$BASE/rests/data/rdma-flow-table:rft/switch=sw$a" \
    -d "{\"rdma-flow-table:switch\":[{\"node-id\":\"sw$a\",\"agent-address\":\"$NET.$((20 + a))\",\"agent-transport\":\"plain-http\",\"enabled\":true}]}"
done
capturing() {
  rc_get 'data/rdma-flow-table:rft?content=nonconfig&fields=switch(node-id;agent-status(state))' 10 |
    jq -r '[.["rdma-flow-table:rft"].switch[]? | select(.["agent-status"].state == "CAPTURING")] | length' 2>/dev/null
}
for _ in $(seq 120); do [ "$(capturing)" = 3 ] && break; sleep 1; done
[ "$(capturing)" = 3 ] || die "the controller does not follow the three agents (see $WORK/cluster/m1/data/log/karaf.log)"
sleep 2

# Progress, read cheaply: insight's figures on /metrics, one line "SW1 SW2 SW3 PATHS" (insight
# recomputes them every second, or ten times its last recomputation's time: on a loaded machine
# they can be 20 s old, so they only show the curve; the end is timed by check_all below)
RECOMPUTE=0
counts() {
  curl -s -m 10 -u admin:admin "$BASE/metrics/" > "$WORK/metrics.txt" || true
  RECOMPUTE=$(awk '/^rst_insight_recompute_seconds / {print $2}' "$WORK/metrics.txt")
  awk '/^rst_sessions\{/ { if (match($0, /switch="[^"]*"/)) { s = substr($0, RSTART + 8, RLENGTH - 9); n[s] += $NF } }
    /^rst_paths / { p = $2 }
    END { printf "%d %d %d %d\n", n["sw1"], n["sw2"], n["sw3"], p }' "$WORK/metrics.txt"
}
enc() { sed 's#/#%2F#g'; }
# sentinels_in: every agent's last replayed session has its path in rpt (one small read each)
sentinels_in() {
  local a
  for a in "${AGENTS[@]}"; do
    [ "$(curl -s -m 10 -o /dev/null -w '%{http_code}' -u admin:admin \
      "$BASE/rests/data/rdma-path-table:rpt/path=$(enc < "$WORK/sentinel$a.id")?fields=session-id")" = 200 ] || return 1
  done
}
# check_all: rpt holds exactly the expected paths and each switch's rft exactly its expected
# sessions (expect-rpt.ids, expect-rft-swN.ids). CHECK_AT: when the read of rpt began. A path is
# written only after its session is in rft, so rpt complete at CHECK_AT means rft was too.
CHECK_AT=""
CHECKS=0
check_all() {
  local a
  CHECKS=$((CHECKS + 1))
  CHECK_AT=$(now)
  rc_get 'data/rdma-path-table:rpt?fields=path(session-id)' 120 |
    jq -r '.["rdma-path-table:rpt"].path // [] | .[]["session-id"]' | sort > "$WORK/rpt.ids"
  cmp -s "$WORK/expect-rpt.ids" "$WORK/rpt.ids" || return 1
  for a in "${AGENTS[@]}"; do
    rc_get "data/rdma-flow-table:rft/switch=sw$a?content=nonconfig&fields=session(session-id)" 120 |
      jq -r '.["rdma-flow-table:switch"][0].session // [] | .[]["session-id"]' | sort > "$WORK/rft$a.ids"
    cmp -s "$WORK/expect-rft-sw$a.ids" "$WORK/rft$a.ids" || return 1
  done
}

# --- our ingest ------------------------------------------------------------------------------
declare -A LIVE SEQ
# ingest PHASE: replay PHASE's captures into the three agents; sets T_S (seconds from the replay's
# start to the datastore holding every session the agents hold in rft and a path for each in rpt),
# T_REPLAY, EVENTS (the agents' events of this phase), N_RFT and N_RPT (what the datastore holds)
ingest() {
  local phase=$1 a p t t0 t_replayed="" t_done="" targets="" last="" running drained s backlog live seq paths sentinels=1
  local expect=$((SESSIONS + WARMUP)) seq0=0 pids=() deadline
  [ "$phase" = warm ] && expect=$WARMUP
  for a in "${AGENTS[@]}"; do
    seq0=$((seq0 + $(agent_get "$a" /v1/status | jq -r .last_seq)))
    LIVE[$a]=""; SEQ[$a]=""
  done
  deadline=$((SECONDS + 600 + expect / 100))
  CHECKS=0
  echo "# seconds-since-replay-start sw1 sw2 sw3 paths insight-recompute-seconds" > "$WORK/progress-$phase.txt"
  t0=$(now)
  for a in "${AGENTS[@]}"; do
    ip netns exec "$PREFIX-a$a" tcpreplay -q -i inj1 --pps "$PPS" "$WORK/$phase$a.pcap" > "$WORK/tcpreplay-$phase$a.log" 2>&1 &
    pids+=($!)
  done
  REPLAYS=("${pids[@]}")
  while [ $SECONDS -lt $deadline ]; do
    t=$(now)
    counts > "$WORK/counts.txt" || echo "0 0 0 0" > "$WORK/counts.txt"
    last=$(cat "$WORK/counts.txt")
    echo "$(echo "$t - $t0" | bc) $last $RECOMPUTE" >> "$WORK/progress-$phase.txt"
    if [ -z "$t_replayed" ]; then
      running=0
      for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && running=1; done
      if [ $running = 0 ]; then
        t_replayed=$(now)
        for p in "${pids[@]}"; do wait "$p" || log "tcpreplay ended with status $? (see $WORK/tcpreplay-$phase*.log)"; done
        REPLAYS=()
      fi
    fi
    if [ -n "$t_replayed" ] && [ -z "$targets" ]; then
      # the agents have decoded every frame once their queue is empty and their counts hold still
      drained=1
      for a in "${AGENTS[@]}"; do
        s=$(agent_get "$a" /v1/status)
        read -r backlog live seq < <(echo "$s" | jq -r '"\(.counters.queue_backlog) \(.counters.sessions_live) \(.last_seq)"' 2>/dev/null) ||
          { backlog=x; live=x; seq=x; }
        [ "$backlog" = 0 ] && [ "$live" = "${LIVE[$a]}" ] && [ "$seq" = "${SEQ[$a]}" ] || drained=0
        LIVE[$a]=$live; SEQ[$a]=$seq
      done
      if [ $drained = 1 ]; then
        N_RFT=$((LIVE[1] + LIVE[2] + LIVE[3]))
        sentinels=1
        for a in "${AGENTS[@]}"; do
          if [ "$phase" = warm ]; then cp "$WORK/pcap-warm$a.ids" "$WORK/expect-rft-sw$a.ids"
          elif [ "$WARMUP" = 0 ]; then cp "$WORK/pcap-load$a.ids" "$WORK/expect-rft-sw$a.ids"
          else sort -mu "$WORK/pcap-load$a.ids" "$WORK/pcap-warm$a.ids" > "$WORK/expect-rft-sw$a.ids"; fi
          cp "$WORK/last-$phase$a.id" "$WORK/sentinel$a.id"
        done
        if [ "$N_RFT" != "$expect" ] || [ "$(cat "$WORK"/expect-rft-sw?.ids | wc -l)" != "$expect" ]; then
          # the agents' tables differ from the captures (frames lost): their own tables are expected
          log "the agents hold $N_RFT sessions, not $expect (frames lost? see their drops below): expecting their tables"
          for a in "${AGENTS[@]}"; do
            agent_get "$a" /v1/sessions | jq -r '.sessions[].session_id' | sort > "$WORK/expect-rft-sw$a.ids"
          done
          sentinels=0
        fi
        sort -mu "$WORK"/expect-rft-sw?.ids > "$WORK/expect-rpt.ids"
        paths=$(wc -l < "$WORK/expect-rpt.ids")
        N_RPT=$paths
        targets="${LIVE[1]} ${LIVE[2]} ${LIVE[3]} $paths"
        EVENTS=$((SEQ[1] + SEQ[2] + SEQ[3] - seq0))
        log "$phase: replayed in $(div "$(echo "$t_replayed - $t0" | bc)" 1) s; the agents hold $N_RFT sessions ($paths distinct: the paths), $EVENTS events this phase; the datastore now: $last (sw1 sw2 sw3 paths)"
      fi
    fi
    # the end: once every agent's last session has its path (or, without sentinels, every 2 s),
    # an exact read; the follower writes an agent's events in order, so the rest is in or nearly
    if [ -n "$targets" ] && { [ $sentinels = 0 ] || sentinels_in; }; then
      if check_all; then t_done=$CHECK_AT; break; fi
      [ $sentinels = 1 ] || sleep 1.5
    fi
    sleep 0.3
  done
  [ -n "$t_done" ] || die "$phase: the datastore did not get every session and path in time (last counts $last, target ${targets:-unknown}; sw1 sw2 sw3 paths)"
  T_S=$(echo "scale=3; ($t_done - $t0) / 1" | bc)
  log "$phase: every session and path found by exact read $CHECKS of this phase"
  sleep 0.1
  CPU_S=$(cpu_between "$t0" "$t_done")
  T_REPLAY=$(echo "scale=3; ($t_replayed - $t0) / 1" | bc)
}

WARM_RFT=0; WARM_NOTE="no warm-up"
if [ "$WARMUP" != 0 ]; then
  log "warm-up: $WARMUP sessions at $PPS frames/s per agent"
  ingest warm
  WARM_RFT=$N_RFT
  WARM_NOTE="after a warm-up of $WARM_RFT sessions, taken at $(div "$WARM_RFT" "$T_S" 0) sessions/s"
  log "warm-up: every session and path in the datastore $T_S s after the replay's start ($(div "$WARM_RFT" "$T_S" 0) sessions/s)"
  sleep 3
fi
log "ingest: $SESSIONS sessions, $((SESSIONS * 3)) frames in all, at $PPS frames/s per agent"
[ -z "${RST_DSBENCH_JFR:-}" ] || "${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" "$KPID" JFR.start name=rstdsb settings=profile >/dev/null
ingest load
[ -z "${RST_DSBENCH_JFR:-}" ] || { "${JAVA_HOME:+$JAVA_HOME/bin/}jcmd" "$KPID" JFR.stop name=rstdsb filename="$RST_DSBENCH_JFR" >/dev/null && log "ingest: its Flight Recording is $RST_DSBENCH_JFR"; }
INGEST_S=$T_S
UPDATES=$EVENTS
MEASURED=$((N_RFT - WARM_RFT))
SPS=$(div "$MEASURED" "$INGEST_S" 0)
UPS=$(div "$UPDATES" "$INGEST_S" 0)
CPU_OURS=$CPU_S
US_OURS=$(div "$CPU_OURS * 1000000" "$MEASURED" 0)

LOAD_INGEST=$(cut -d' ' -f1-3 /proc/loadavg)
log "ingest: $MEASURED more sessions in rft ($N_RFT in all) and their paths in rpt ($N_RPT) $INGEST_S s after the replay's start: $SPS sessions/s, $UPS session updates/s"

# exactly what the agents hold, in rft; every path in rpt (read once, after the timing)
verified=yes
for a in "${AGENTS[@]}"; do
  agent_get "$a" /v1/sessions | jq -r '.sessions[].session_id' | sort > "$WORK/agent$a.ids"
  rc_get "data/rdma-flow-table:rft/switch=sw$a?content=nonconfig&fields=session(session-id)" 120 |
    jq -r '.["rdma-flow-table:switch"][0].session // [] | .[]["session-id"]' | sort > "$WORK/rft$a.ids"
  cmp -s "$WORK/agent$a.ids" "$WORK/rft$a.ids" || { verified="no: rft of sw$a differs from its agent's table"; }
done
rc_get 'data/rdma-path-table:rpt?fields=path(session-id)' 120 | jq -r '.["rdma-path-table:rpt"].path // [] | .[]["session-id"]' |
  sort > "$WORK/rpt.ids"
sort -mu "$WORK"/agent?.ids | cmp -s - "$WORK/rpt.ids" || verified="no: rpt's paths differ from the agents' sessions"
DROPS=0
for a in "${AGENTS[@]}"; do
  DROPS=$((DROPS + $(agent_get "$a" /v1/status | jq -r '.counters.kernel_drops + .counters.queue_drops')))
done
first=$(head -1 "$WORK/rft1.ids" | sed 's#/#%2F#g')
ENTRY_LEAVES=$(rc_get "data/rdma-flow-table:rft/switch=sw1/session=$first?content=nonconfig" 30 |
  jq '[.["rdma-flow-table:session"][0] | paths(scalars)] | length' 2>/dev/null || echo "?")
log "checked: rft holds exactly the agents' sessions, rpt a path for each: $verified; agents' capture drops: $DROPS"

# --- dsbenchmark in the same Karaf, right after ------------------------------------------------
declare -A BEST RUNS_OF TXOK CPU_BEST
for mode in BINDING-INDEPENDENT BINDING-AWARE; do
  for r in $(seq "$RUNS"); do
    out=$(curl -s -m 1800 -u admin:admin -X POST -H 'Content-Type: application/json' -H 'Accept: application/json' \
      "$BASE/rests/operations/dsbenchmark:start-test" \
      -d "{\"input\":{\"operation\":\"PUT\",\"data-format\":\"$mode\",\"transaction-type\":\"TX-CHAINING\",\"data-store\":\"OPERATIONAL\",\"outerElements\":$MEASURED,\"innerElements\":$INNER,\"putsPerTx\":1000,\"listeners\":0}}")
    status=$(echo "$out" | jq -r '.["dsbenchmark:output"].status // empty' 2>/dev/null)
    [ "$status" = OK ] || die "dsbenchmark $mode run $r failed: $out"
    t_resp=$(now)
    us=$(echo "$out" | jq -r '.["dsbenchmark:output"].execTime')
    sleep 0.1
    # its execution: the last execTime before the answer (the list was built before it)
    cpu=$(cpu_between "$(echo "$t_resp - $us / 1000000" | bc -l)" "$t_resp")
    cpu_us=$(div "$cpu * 1000000" "$MEASURED" 0)
    tx=$(echo "$out" | jq -r '.["dsbenchmark:output"].txOk')
    txerr=$(echo "$out" | jq -r '.["dsbenchmark:output"].txError')
    [ "$txerr" = 0 ] || die "dsbenchmark $mode run $r: $txerr transactions failed: $out"
    eps=$(echo "scale=0; $MEASURED * 1000000 / $us" | bc)
    log "dsbenchmark $mode run $r: $MEASURED entries ($INNER inner each) in $(div "$us" 1000000 2) s, $tx transactions: $eps entries/s; controller CPU $(div "$cpu" 1 2) s, $cpu_us us per entry"
    RUNS_OF[$mode]="${RUNS_OF[$mode]:-}${RUNS_OF[$mode]:+, }$eps"
    if [ "$eps" -gt "${BEST[$mode]:-0}" ]; then BEST[$mode]=$eps; TXOK[$mode]=$tx; fi
    if [ -z "${CPU_BEST[$mode]:-}" ] || [ "$cpu_us" -lt "${CPU_BEST[$mode]}" ]; then CPU_BEST[$mode]=$cpu_us; fi
  done
done
BI=${BEST[BINDING-INDEPENDENT]}; BA=${BEST[BINDING-AWARE]}
if [ "$BI" -ge "$BA" ]; then REF=$BI; REF_MODE=BINDING-INDEPENDENT; else REF=$BA; REF_MODE=BINDING-AWARE; fi
R_BI=$(div "$SPS" "$BI" 2); R_BA=$(div "$SPS" "$BA" 2); R=$(div "$SPS" "$REF" 2)
floor_ups=$([ "$UPS" -ge 50000 ] && echo met || echo "NOT MET")
floor_ratio=$([ "$(echo "$R >= 0.5" | bc)" = 1 ] && echo met || echo "NOT MET")

cat <<REPORT
bench dsbench ($(nproc) cores; load average $LOAD0 at the start, $LOAD_INGEST after our ingest, $(cut -d' ' -f1-3 /proc/loadavg) at the end)
  ours: $MEASURED sessions from 3 agents into rdma-flow-table:rft and their paths into rdma-path-table:rpt
        in $INGEST_S s from the replay's start ($PPS frames/s per agent; replay $(div "$T_REPLAY" 1) s;
        $WARM_NOTE; rft then held $N_RFT sessions, rpt $N_RPT paths):
        $SPS sessions/s, $UPS session updates/s ($UPDATES agent events)
        (the end: the start of the RESTCONF read that found every path in rpt and then every session
        in rft, read once every agent's last replayed session had its path, polled every 0.3 s)
        checked against the agents' tables: $verified; capture drops: $DROPS
  dsbenchmark $DSB_VERSION, same Karaf: PUT, TX-CHAINING, OPERATIONAL, $MEASURED outer-list entries of $INNER
        inner-list entries each (a session entry: $LEAVES leaves in yang/, $ENTRY_LEAVES leaves written with its
        messages), 1000 per transaction, best of $RUNS:
        BINDING-INDEPENDENT $BI entries/s (runs: ${RUNS_OF[BINDING-INDEPENDENT]})
        BINDING-AWARE       $BA entries/s (runs: ${RUNS_OF[BINDING-AWARE]})
  ratio ours/dsbenchmark (sessions/s / entries/s): $R_BI against BINDING-INDEPENDENT, $R_BA against BINDING-AWARE
  the controller's CPU (all its threads, JIT and GC included; the machine is shared, CPU holds where rates do not):
        ours $US_OURS us per session ($(div "$CPU_OURS" 1 2) s over the ingest: followers, RPT, insight, this bench's /metrics reads)
        dsbenchmark $(echo "${CPU_BEST[BINDING-INDEPENDENT]}") us per entry BINDING-INDEPENDENT, $(echo "${CPU_BEST[BINDING-AWARE]}") us BINDING-AWARE (lowest run, execution only)
        ratio dsbenchmark/ours (CPU per entry): $(div "${CPU_BEST[BINDING-INDEPENDENT]}" "$US_OURS" 2) BINDING-INDEPENDENT, $(div "${CPU_BEST[BINDING-AWARE]}" "$US_OURS" 2) BINDING-AWARE
  floor 50,000 session updates/s: $floor_ups ($UPS)
  floor ours >= 0.5 x dsbenchmark (its faster mode, $REF_MODE): $floor_ratio ($R)
  done in $((SECONDS - t_all)) s
REPORT
