#!/usr/bin/env bash
# Benchmark of the RFT agent, as root. Usage: bash scripts/bench-agent.sh [rate|data|memory|all]
#
#  rate:   a connection storm made by `gen` (SESSIONS distinct connections, each REQ REP RTU DREQ
#          DREP: 5 frames per connection, 1M frames by default) is replayed with tcpreplay at fixed
#          rates (RATES, ramping up) into one veth. At each rate a fresh agent (after a short warm-up
#          burst, not counted) and `tcpdump -w /dev/null` capture the same stream on the same
#          interface, same direction, same kernel buffer (16 MiB). Printed per rate: the rate
#          tcpreplay achieved, frames sent, frames the agent decoded, frames tcpdump captured, the
#          agent's kernel and queue drops, tcpdump's kernel drops, the ratio agent/tcpdump (floor 0.8)
#          and the agent's RSS. The ramp stops after the first rate at which the agent dropped
#          anything (KEEP_GOING=1 runs every rate); the summary names the highest drop-free rate.
#  data:   the same ramp with RC data traffic without CM (`gen --data-storm`: DATA_PAIRS QP pairs,
#          DATA_FRAMES frames, WRITEs and READs with their ACKs and responses) into agents that sample
#          and learn from every data packet (`--data-sample 1`); also printed per rate: the
#          data-learned sessions, one-way flows and ambiguous answers the agent counted.
#  memory: SESSIONS_1M connections left ESTABLISHED (`gen --storm --established`: REQ REP RTU) replayed
#          into an agent (`--replay`) with -Xmx$XMX_1M; prints sessions_live, heap used after a full
#          GC (jcmd GC.heap_info) and RSS.
#  congestion: the per-packet cost of counting ECN marks, CNPs and PFC frames. A data storm with
#          congestion (`gen --data-storm --congestion`: every data packet ECT(0), one turn in 8 CE-marked
#          and answered by a CNP, a PFC frame every 1000 frames) is replayed at CONG_RATE into agents
#          that sample every data packet, counting on (the default) and off (`--no-congestion`) in
#          turn, ROUNDS times each, with tcpdump on the same veth. Per run: the agent's CPU time
#          (utime + stime, /proc) per frame sent, frames decoded and dropped, agent/tcpdump. Summary:
#          median CPU per frame off / on (floor 0.9) and agent/tcpdump with counting on (floor 0.8).
# Only the namespaces made here (rstb-*) get traffic; they are removed on exit.
# Env: SESSIONS (200000), RATES ("100000 200000 300000 400000 600000 top": pps, top = --topspeed), XMX (128m),
#      SESSIONS_1M (1000000), XMX_1M (320m), DATA_PAIRS (10000), DATA_FRAMES (1000000), KEEP_GOING,
#      CONG_RATE (100000 frames/s; top = tcpreplay's top speed), ROUNDS (3).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-all}
case "$MODE" in
  rate|data|memory|congestion|all) ;;
  -h|--help)
    echo "usage: ./rst bench agent [rate|data|memory|congestion|all]   (scripts/bench-agent.sh, as root)"
    echo "  rate:   the agent's capture rate against tcpdump -w /dev/null on one veth, at rising rates"
    echo "  data:   the same with RC data without CM, every data packet sampled and learnt from"
    echo "  memory: heap and RSS of an agent holding SESSIONS_1M (1,000,000) live sessions"
    echo "  congestion: CPU per frame with ECN, CNP and PFC counting on against off, same storm and veth"
    echo "  env: SESSIONS, RATES, XMX, SESSIONS_1M, XMX_1M, DATA_PAIRS, DATA_FRAMES, KEEP_GOING, CONG_RATE, ROUNDS"
    echo "       (see the script's header)"
    exit 0 ;;
  *) echo "bench agent: unknown mode '$MODE': rate, data, memory, congestion or all (see: ./rst bench agent --help)" >&2; exit 2 ;;
esac
eval "$(bash scripts/setup.sh --test-deps)"
[ "$(id -u)" = 0 ] || { echo "bench-agent: needs root (network namespaces)" >&2; exit 1; }
JAR=$(ls rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
if [ -z "$JAR" ]; then
  mvn -B -q -o -pl rft-agent -am package -DskipTests >&2 || mvn -B -q -pl rft-agent -am package -DskipTests >&2
  JAR=$(ls rft-agent/target/rft-agent-*-agent.jar | head -1)
fi
SESSIONS=${SESSIONS:-200000}
RATES=${RATES:-100000 200000 300000 400000 600000 top}
XMX=${XMX:-128m}
SESSIONS_1M=${SESSIONS_1M:-1000000}
XMX_1M=${XMX_1M:-320m}
DATA_PAIRS=${DATA_PAIRS:-10000}
DATA_FRAMES=${DATA_FRAMES:-1000000}
CONG_RATE=${CONG_RATE:-100000}
ROUNDS=${ROUNDS:-3}
P=rstb-$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')
W=$(mktemp -d)
AGENT_PID=
TD=
cleanup() {
  [ -n "$TD" ] && kill "$TD" 2>/dev/null || true
  [ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null || true
  ip netns del "$P-snd" 2>/dev/null || true
  ip netns del "$P-sw" 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT
ip netns add "$P-snd"; ip netns add "$P-sw"
ip link add bs0 type veth peer name bc0
ip link set bs0 netns "$P-snd"; ip link set bc0 netns "$P-sw"
ip -n "$P-snd" addr add 10.88.0.1/24 dev bs0; ip -n "$P-sw" addr add 10.88.0.2/24 dev bc0
ip -n "$P-snd" link set bs0 up; ip -n "$P-sw" link set bc0 up; ip -n "$P-sw" link set lo up
(umask 077; echo "bench$P" > "$W/token")  # the agent refuses a token others may read

api() { ip netns exec "$P-sw" curl -s -H "Authorization: Bearer bench$P" "http://127.0.0.1:14791$1"; }
num() { echo "$1" | grep -o "\"$2\":[0-9]*" | head -1 | cut -d: -f2; }
rss() { grep VmRSS "/proc/$1/status" 2>/dev/null | awk '{print $2, $3}'; }
start_agent() { # XMX STATE_DIR LOG extra-args...
  local xmx=$1 sd=$2 logf=$3; shift 3
  ip netns exec "$P-sw" java -Xmx"$xmx" -jar "$JAR" agent --listen 127.0.0.1:14791 --token-file "$W/token" \
    --state-dir "$sd" --plain-http "$@" > "$logf" 2>&1 &
  AGENT_PID=$!
  for _ in $(seq 150); do api /v1/health 2>/dev/null | grep -q ok && return 0; sleep 0.2; done
  echo "agent did not start:"; cat "$logf"; exit 1
}
stop_agent() {
  kill "$AGENT_PID"; wait "$AGENT_PID" || true; AGENT_PID=
}

# ramp NAME STORM WARM FRAMES agent-args...: the storm replayed at each rate of RATES into a fresh
# agent and tcpdump on the same interface; one line per rate, then the highest drop-free rate
ramp() {
  local name=$1 storm=$2 warm=$3 frames=$4; shift 4
  local BEST= BEST_LINE= RATE
  echo "== $name"
  printf '%-8s %-9s %-8s %-9s %-9s %-7s %-7s %-8s %-6s %s\n' rate achieved sent agent tcpdump a.kdrop a.qdrop t.kdrop ratio agent-RSS
  for RATE in $RATES; do
    start_agent "$XMX" "$W/state-$name-$RATE" "$W/agent-$name-$RATE.log" --interface bc0 --buffer-mb 16 "$@"
    for _ in $(seq 100); do api /v1/status | grep -q '"capture_running":true' && break; sleep 0.1; done
    # warm-up (JIT): a short burst at a low rate, not counted
    ip netns exec "$P-snd" tcpreplay -q -i bs0 --pps=50000 "$warm" > /dev/null 2>&1
    sleep 1
    S0=$(api /v1/status)
    ip netns exec "$P-sw" tcpdump -q -i bc0 -Q in -B 16384 -w /dev/null 'udp dst port 4791' 2> "$W/tcpdump.txt" &
    TD=$!; sleep 1
    RARG=--pps="$RATE"; [ "$RATE" = top ] && RARG=--topspeed
    ip netns exec "$P-snd" tcpreplay -q -i bs0 "$RARG" "$storm" > "$W/replay.txt" 2>&1
    sleep 2
    kill -INT "$TD"; wait "$TD" || true; TD=
    for _ in $(seq 50); do S1=$(api /v1/status); [ "$(num "$S1" queue_backlog)" = 0 ] && break; sleep 0.1; done
    A_FR=$(( $(num "$S1" frames) - $(num "$S0" frames) ))
    A_KD=$(( $(num "$S1" kernel_drops) - $(num "$S0" kernel_drops) ))
    A_QD=$(( $(num "$S1" queue_drops) - $(num "$S0" queue_drops) ))
    T_PKTS=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$W/tcpdump.txt")
    T_KD=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$W/tcpdump.txt")
    ACH=$(grep -o 'Rated: [0-9.]* Bps, [0-9.]* Mbps, [0-9.]* pps' "$W/replay.txt" | awk '{print $6}' | cut -d. -f1)
    RATIO=$(awk -v a="$A_FR" -v t="$T_PKTS" 'BEGIN { printf "%.3f", (t > 0 ? a / t : 0) }')
    LINE=$(printf '%-8s %-9s %-8s %-9s %-9s %-7s %-7s %-8s %-6s %s' "$RATE" "${ACH:-?}" "$frames" "$A_FR" "$T_PKTS" \
      "$A_KD" "$A_QD" "$T_KD" "$RATIO" "$(rss "$AGENT_PID")")
    echo "$LINE"
    if [ "$name" = data ]; then
      echo "         learnt from the storm: data sessions $(( $(num "$S1" data_sessions) - $(num "$S0" data_sessions) )), one-way" \
        "flows $(( $(num "$S1" data_one_way) - $(num "$S0" data_one_way) )), ambiguous answers" \
        "$(( $(num "$S1" data_pair_ambiguous) - $(num "$S0" data_pair_ambiguous) ))"
    fi
    stop_agent
    if [ $((A_KD + A_QD)) = 0 ] && [ "$A_FR" -ge "$frames" ]; then
      if [ -z "$BEST" ] || [ "${ACH:-0}" -gt "$BEST" ]; then BEST=${ACH:-0}; BEST_LINE=$LINE; fi
    elif [ -z "${KEEP_GOING:-}" ]; then
      break
    fi
  done
  echo "(rate: asked pps; achieved: tcpreplay's; agent: frames decoded; a.kdrop/a.qdrop: agent kernel/queue drops;"
  echo " t.kdrop: tcpdump kernel drops; ratio: agent decoded / tcpdump captured; heap -Xmx$XMX)"
  if [ -n "$BEST" ]; then
    echo "$name: highest achieved rate without agent drops: $BEST pps:"
    echo "$BEST_LINE"
  else
    echo "$name: the agent dropped frames at every rate tried"
  fi
}

if [ "$MODE" = rate ] || [ "$MODE" = all ]; then
  # --start: the time stamps of the figures in docs/benchmarks.md
  java -jar "$JAR" gen --out "$W/storm.pcap" --sessions "$SESSIONS" --seed 7 --storm --start 1767225600 2>&1 | sed 's/^/gen: /'
  java -jar "$JAR" gen --out "$W/warm.pcap" --sessions 20000 --seed 8 --storm --start 1767225600 2>/dev/null
  ramp cm "$W/storm.pcap" "$W/warm.pcap" $((SESSIONS * 5))
fi

if [ "$MODE" = data ] || [ "$MODE" = all ]; then
  # every data packet sampled and learnt from: DATA_PAIRS QP pairs without CM, DATA_FRAMES frames
  java -jar "$JAR" gen --out "$W/data.pcap" --data-storm --sessions "$DATA_PAIRS" --frames "$DATA_FRAMES" --seed 7 \
    --start 1767225600 2>&1 | sed 's/^/gen: /'
  java -jar "$JAR" gen --out "$W/data-warm.pcap" --data-storm --sessions 2000 --frames 100000 --seed 8 \
    --start 1767225600 2>/dev/null
  ramp data "$W/data.pcap" "$W/data-warm.pcap" "$DATA_FRAMES" --data-sample 1
fi

n0() { local v; v=$(num "$1" "$2"); echo "${v:-0}"; }   # a counter the agent may not have: 0
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime, in clock ticks
if [ "$MODE" = congestion ] || [ "$MODE" = all ]; then
  java -jar "$JAR" gen --out "$W/cong.pcap" --data-storm --congestion --sessions "$DATA_PAIRS" --frames "$DATA_FRAMES" \
    --seed 7 --start 1767225600 2>&1 | sed 's/^/gen: /'
  java -jar "$JAR" gen --out "$W/cong-warm.pcap" --data-storm --congestion --sessions 2000 --frames 100000 --seed 8 \
    --start 1767225600 2>/dev/null
  HZ=$(getconf CLK_TCK)
  RARG=--pps="$CONG_RATE"; [ "$CONG_RATE" = top ] && RARG=--topspeed
  echo "== congestion counting on and off, $DATA_FRAMES frames at $CONG_RATE frames/s, $ROUNDS rounds"
  printf '%-6s %-4s %-9s %-9s %-9s %-7s %-7s %-6s %-10s %s\n' round mode achieved agent tcpdump a.kdrop a.qdrop ratio cpu-us/frame "CNPs PFC"
  : > "$W/cong-on.txt"; : > "$W/cong-off.txt"; : > "$W/cong-ratio.txt"
  for R in $(seq "$ROUNDS"); do
    for MODE_C in on off; do
      EXTRA=(); [ $MODE_C = off ] && EXTRA=(--no-congestion)
      start_agent "$XMX" "$W/state-cong-$R-$MODE_C" "$W/agent-cong-$R-$MODE_C.log" --interface bc0 --buffer-mb 16 \
        --data-sample 1 "${EXTRA[@]}"
      for _ in $(seq 100); do api /v1/status | grep -q '"capture_running":true' && break; sleep 0.1; done
      ip netns exec "$P-snd" tcpreplay -q -i bs0 --pps=50000 "$W/cong-warm.pcap" > /dev/null 2>&1
      sleep 1
      S0=$(api /v1/status)
      ip netns exec "$P-sw" tcpdump -q -i bc0 -Q in -B 16384 -w /dev/null 'udp dst port 4791 or ether proto 0x8808' \
        2> "$W/tcpdump.txt" &
      TD=$!; sleep 1
      C0=$(cpu_ticks "$AGENT_PID")
      ip netns exec "$P-snd" tcpreplay -q -i bs0 "$RARG" "$W/cong.pcap" > "$W/replay.txt" 2>&1
      sleep 2
      kill -INT "$TD"; wait "$TD" || true; TD=
      for _ in $(seq 50); do S1=$(api /v1/status); [ "$(num "$S1" queue_backlog)" = 0 ] && break; sleep 0.1; done
      C1=$(cpu_ticks "$AGENT_PID")
      A_FR=$(( $(num "$S1" frames) - $(num "$S0" frames) ))
      A_KD=$(( $(num "$S1" kernel_drops) - $(num "$S0" kernel_drops) ))
      A_QD=$(( $(num "$S1" queue_drops) - $(num "$S0" queue_drops) ))
      T_PKTS=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$W/tcpdump.txt")
      ACH=$(grep -o 'Rated: [0-9.]* Bps, [0-9.]* Mbps, [0-9.]* pps' "$W/replay.txt" | awk '{print $6}' | cut -d. -f1)
      SENT=$(grep -o 'Actual: [0-9]* packets' "$W/replay.txt" | awk '{print $2}')
      US=$(awk -v c=$((C1 - C0)) -v hz="$HZ" -v n="${SENT:-$DATA_FRAMES}" 'BEGIN { printf "%.3f", c / hz * 1e6 / n }')
      RATIO=$(awk -v a="$A_FR" -v t="$T_PKTS" 'BEGIN { printf "%.3f", (t > 0 ? a / t : 0) }')
      echo "$US" >> "$W/cong-$MODE_C.txt"
      [ $MODE_C = on ] && echo "$RATIO" >> "$W/cong-ratio.txt"
      COUNTS="$(( $(n0 "$S1" cnps) - $(n0 "$S0" cnps) )) $(( $(n0 "$S1" pfc_frames) - $(n0 "$S0" pfc_frames) ))"
      printf '%-6s %-4s %-9s %-9s %-9s %-7s %-7s %-6s %-10s %s\n' "$R" $MODE_C "${ACH:-?}" "$A_FR" "$T_PKTS" "$A_KD" "$A_QD" \
        "$RATIO" "$US" "$COUNTS"
      stop_agent
    done
  done
  median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
  ON=$(median "$W/cong-on.txt"); OFF=$(median "$W/cong-off.txt"); MINR=$(sort -n "$W/cong-ratio.txt" | head -1)
  echo "(cpu-us/frame: the agent's CPU time, every thread, per frame tcpreplay sent; CNPs PFC: counted by the agent"
  echo " with counting on, 0 with it off, whose capture filter leaves them out; ratio: agent decoded / tcpdump captured)"
  echo "congestion: median CPU per frame on $ON us, off $OFF us: off / on = $(awk -v a="$OFF" -v b="$ON" 'BEGIN { printf "%.3f", a / b }') (floor 0.9);" \
    "agent/tcpdump with counting on, lowest of $ROUNDS: $MINR (floor 0.8)"
fi

if [ "$MODE" = memory ] || [ "$MODE" = all ]; then
  java -jar "$JAR" gen --out "$W/live.pcap" --sessions "$SESSIONS_1M" --storm --established --start 1767225600 2>&1 | sed 's/^/gen: /'
  T0=$(date +%s)
  start_agent "$XMX_1M" "$W/state-1m" "$W/agent-1m.log" --replay "$W/live.pcap" --max-sessions $((SESSIONS_1M + 100000))
  for _ in $(seq 900); do
    S=$(api /v1/status)
    echo "$S" | grep -q '"finished":true' && [ "$(num "$S" queue_backlog)" = 0 ] && break
    kill -0 "$AGENT_PID" 2>/dev/null || { echo "agent died:"; tail -5 "$W/agent-1m.log"; exit 1; }
    sleep 1
  done
  T1=$(date +%s)
  sleep 1
  S=$(api /v1/status)
  jcmd "$AGENT_PID" GC.run > /dev/null
  HEAP=$(jcmd "$AGENT_PID" GC.heap_info | grep -o 'total [0-9]*K, used [0-9]*K' | head -1)
  echo "live sessions: $(num "$S" sessions_live) of $SESSIONS_1M ESTABLISHED connections ($(num "$S" frames) frames replayed in $((T1 - T0)) s)"
  echo "  heap -Xmx$XMX_1M: $HEAP (after a full GC); RSS $(rss "$AGENT_PID"); decode failures $(num "$S" decode_failures)"
  stop_agent
fi
