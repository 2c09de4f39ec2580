#!/usr/bin/env bash
# Benchmark of the RFT agent (issue 4), as root:
#  1. capture rate: one CM stream replayed at top speed (tcpreplay) into one veth, captured at the
#     same time by the agent and by `tcpdump -w /dev/null` on the same interface, same direction,
#     same kernel buffer; prints both counts, kernel drops, and the ratio agent/tcpdump (floor 0.8).
#  2. memory: the agent's RSS (VmRSS) after the run; with 1M live sessions when a generator of
#     1M-session pcaps exists (`agent.jar gen`, from the decode branch), through --replay.
# Only namespaces made here (rstb-*) get traffic; they are removed on exit.
# Env: LOOPS (default 200, x1000 frames), PPS (a fixed rate instead of top speed), XMX (128m).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash scripts/setup.sh --test-deps 2>/dev/null)"
[ "$(id -u)" = 0 ] || { echo "bench-agent: needs root (network namespaces)" >&2; exit 1; }
JAR=$(ls rft-bundle/target/rft-bundle-*-agent.jar 2>/dev/null | head -1 || true)
if [ -z "$JAR" ] || [ ! -d rft-bundle/target/test-classes ]; then
  mvn -B -q -o -f rft-bundle/pom.xml install -DskipTests >&2 || mvn -B -q -f rft-bundle/pom.xml install -DskipTests >&2
  mvn -B -q -o -f rft-bundle/pom.xml test-compile >&2
  JAR=$(ls rft-bundle/target/rft-bundle-*-agent.jar | head -1)
fi
LOOPS=${LOOPS:-200}
XMX=${XMX:-128m}
P=rstb-$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')
W=$(mktemp -d)
AGENT_PID=
cleanup() {
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

# a 1000-frame CM pcap: real frames from the test sender, recorded once
CP="rft-bundle/target/test-classes:$JAR"
ip netns exec "$P-sw" tcpdump -q -i bc0 -Q in -w "$W/cm.pcap" -c 1000 udp port 4791 2>/dev/null &
TD=$!; sleep 1
ip netns exec "$P-snd" java -cp "$CP" io.rst.rft.agent.UdpSender 10.88.0.2 1000 cm 1
wait $TD

echo "bench$P" > "$W/token"
ip netns exec "$P-sw" java -Xmx"$XMX" -jar "$JAR" agent --interface bc0 --listen 127.0.0.1:14791 \
  --token-file "$W/token" --state-dir "$W/state" --buffer-mb 16 > "$W/agent.log" 2>&1 &
AGENT_PID=$!
api() { ip netns exec "$P-sw" curl -s -H "Authorization: Bearer bench$P" "http://127.0.0.1:14791$1"; }
for _ in $(seq 100); do api /v1/status 2>/dev/null | grep -q '"capture_running":true' && break; sleep 0.2; done
ip netns exec "$P-sw" tcpdump -q -i bc0 -Q in -B 16384 -w /dev/null 'udp dst port 4791' 2> "$W/tcpdump.txt" &
TD=$!; sleep 1
RATE=(--topspeed); [ -n "${PPS:-}" ] && RATE=(--pps="$PPS")
T0=$(date +%s.%N)
ip netns exec "$P-snd" tcpreplay -q -i bs0 "${RATE[@]}" --loop="$LOOPS" "$W/cm.pcap" > "$W/replay.txt" 2>&1
T1=$(date +%s.%N)
sleep 2
kill -INT $TD; wait $TD || true
S=$(api /v1/status)
num() { echo "$S" | grep -o "\"$1\":[0-9]*" | head -1 | cut -d: -f2; }
SENT=$((LOOPS * 1000))
A_PKTS=$(num packets); A_KD=$(num kernel_drops); A_QD=$(num queue_drops); A_FR=$(num frames)
T_PKTS=$(sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$W/tcpdump.txt")
T_KD=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$W/tcpdump.txt")
SECS=$(echo "$T1 - $T0" | bc -l)
echo "sent:    $SENT frames in $(printf %.2f "$SECS") s ($(grep -o 'Rated: [0-9.]* Bps, [0-9.]* Mbps, [0-9.]* pps' "$W/replay.txt" || true))"
echo "agent:   captured $A_PKTS, decoded $A_FR, kernel drops $A_KD, queue drops $A_QD, $(echo "$A_FR / $SECS" | bc) pps"
echo "tcpdump: captured $T_PKTS, kernel drops $T_KD, $(echo "$T_PKTS / $SECS" | bc) pps"
echo "ratio agent/tcpdump: $(echo "scale=3; $A_FR / $T_PKTS" | bc -l) (floor 0.8)"
echo "agent RSS after the run: $(grep VmRSS /proc/$AGENT_PID/status 2>/dev/null | awk '{print $2, $3}') (heap -Xmx$XMX)"
kill "$AGENT_PID"; wait "$AGENT_PID" || true; AGENT_PID=

# memory with 1M live sessions, if a 1M-session generator is available
if { java -jar "$JAR" gen 2>&1 || true; } | grep -q -- --sessions; then
  java -jar "$JAR" gen --out "$W/1m.pcap" --sessions 1000000 >&2
  ip netns exec "$P-sw" java -Xmx"${XMX_1M:-1g}" -jar "$JAR" agent --replay "$W/1m.pcap" --listen 127.0.0.1:14791 \
    --token-file "$W/token" --state-dir "$W/state1m" --max-sessions 1100000 > "$W/agent1m.log" 2>&1 &
  AGENT_PID=$!
  for _ in $(seq 600); do api /v1/status 2>/dev/null | grep -q '"finished":true' && break; sleep 1; done
  sleep 2; S=$(api /v1/status)
  echo "1M sessions: sessions_live $(num sessions_live), RSS $(grep VmRSS /proc/$AGENT_PID/status | awk '{print $2, $3}')"
else
  echo "1M sessions: skipped (no 'gen' subcommand in this jar yet)"
fi
