#!/usr/bin/env bash
# Benchmark: the cost of TLS on the agent's event stream. One generated connection storm
# (SESSIONS connections, REQ REP RTU DREQ DREP each) is replayed into two agents, one serving
# TLS and one plain HTTP, in the same run. The controller's way of reading (scripts/BenchFollow.java:
# the JDK's HttpClient, a line reader and Jackson per event, as io.rst.rft.manager.AgentFollower
# reads the NDJSON stream from seq 0 to the end after a reset) then fetches every event from each,
# ROUNDS times alternately, in one JVM. Printed: events and sessions per second for each transport
# (best round), the ratio TLS/plain of the best rounds and the median of each round's ratio
# (floor: 0.8). Then the same with curl reading
# the bytes only (wire only: no parsing, so the cipher's share is as large as it can be), for
# information.
# The agents listen on 127.0.0.1:PORT and PORT+1 (PORT default 14793): run it in a network
# namespace of your own if those ports may be taken. Env: SESSIONS (50000), ROUNDS (5), PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help)
    echo "usage: ./rst bench tls   (scripts/bench-tls.sh): sessions/s of the agent's event stream, TLS vs plain HTTP"
    echo "  env: SESSIONS (50000), ROUNDS (5), PORT (14793; the agents use PORT and PORT+1 on 127.0.0.1)"
    exit 0 ;;
  "") ;;
  *) echo "bench tls: unknown argument '$1' (see: ./rst bench tls --help)" >&2; exit 2 ;;
esac
eval "$(bash scripts/setup.sh)"
command -v curl >/dev/null || { echo "bench tls: curl is needed" >&2; exit 1; }
JAR=$(ls rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
[ -n "$JAR" ] || { echo "bench tls: no agent jar: ./rst build first" >&2; exit 1; }
SESSIONS=${SESSIONS:-50000}
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-14793}
W=$(mktemp -d /tmp/rst-bench-tls.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT

java -jar "$JAR" gen --storm --sessions "$SESSIONS" --out "$W/storm.pcap" 2>/dev/null
(umask 077; head -c 24 /dev/urandom | base64 > "$W/token")
bash scripts/certs.sh ca "$W/pki" 2>/dev/null
bash scripts/certs.sh switch "$W/pki" agent --ip 127.0.0.1 >/dev/null 2>&1
AUTH="Authorization: Bearer $(cat "$W/token")"

start() { # NAME PORT extra...
  local name=$1 port=$2; shift 2
  java -Xmx256m -jar "$JAR" agent --replay "$W/storm.pcap" --listen "127.0.0.1:$port" --token-file "$W/token" \
    --state-dir "$W/$name" --agent-id "$name" --retain-events $((SESSIONS * 6)) --retain-mb 1024 "$@" \
    > "$W/$name.log" 2>&1 &
  PIDS+=($!)
}
start plain "$PORT" --plain-http
start tls $((PORT + 1)) --tls-cert "$W/pki/agent.crt" --tls-key "$W/pki/agent.key"
PLAIN="http://127.0.0.1:$PORT"
TLS="https://127.0.0.1:$((PORT + 1))"
CURL=(curl -s --cacert "$W/pki/ca.crt" -H "$AUTH")

ready() { # URL: the replay finished and decoded
  local s
  s=$("${CURL[@]}" "$1/v1/status" 2>/dev/null) || return 1
  echo "$s" | grep -q '"finished":true' && echo "$s" | grep -q '"queue_backlog":0'
}
for i in $(seq 1 240); do
  ready "$PLAIN" && ready "$TLS" && break
  [ "$i" -lt 240 ] || { echo "bench tls: the agents did not finish their replay; logs in $W" >&2; exit 1; }
  sleep 0.5
done
seq_of() { "${CURL[@]}" "$1/v1/status" | grep -o '"last_seq":[0-9]*' | head -1 | cut -d: -f2; }
# each agent coalesces its own batches, so the two may hold slightly different event counts
last_plain=$(seq_of "$PLAIN"); last_tls=$(seq_of "$TLS")
echo "bench tls: $SESSIONS sessions; events: plain $last_plain, tls $last_tls; $ROUNDS rounds of the whole stream each" >&2

JAVA_CP=$JAR
echo "bench tls: the controller's way of reading (JDK HttpClient + Jackson per event), $ROUNDS rounds" >&2
java -Xmx512m -cp "$JAVA_CP" scripts/BenchFollow.java "$PLAIN" "$TLS" "$(cat "$W/token")" "$W/pki/ca.crt" "$ROUNDS" \
  > "$W/follow.txt"
cat "$W/follow.txt" >&2
# best round of each: events per second
read -r fp ft < <(awk -v ep="$last_plain" -v et="$last_tls" '
  { p = ep / $5; t = et / $8; if (p > bp) bp = p; if (t > bt) bt = t }
  END { printf "%d %d\n", bp, bt }' "$W/follow.txt")
# the median of each round's ratio: a round reads both streams back to back, so the pair shares
# the machine's load of the moment (on a shared machine a better estimate than the best rounds).
# Both streams carry every session, so sessions/s TLS/plain = plain's seconds / TLS's seconds.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fmed=$(awk '{ print $5 / $8 }' "$W/follow.txt" | median)

best_plain=0; best_tls=0
round() { # URL LAST: seconds to read every event (one stream, as the controller's follower reads it)
  local t0 t1 n
  t0=$(date +%s.%N)
  n=$("${CURL[@]}" -N "$1/v1/events?after=0&wait=0" | wc -l)
  t1=$(date +%s.%N)
  [ "$n" -ge "$2" ] || { echo "bench tls: $1 gave $n lines, expected $2" >&2; exit 1; }
  echo "$t0 $t1" | awk '{print $2 - $1}'
}
for r in $(seq 1 "$ROUNDS"); do
  tp=$(round "$PLAIN" "$last_plain"); tt=$(round "$TLS" "$last_tls")
  rp=$(awk -v n="$last_plain" -v t="$tp" 'BEGIN{printf "%d", n / t}')
  rt=$(awk -v n="$last_tls" -v t="$tt" 'BEGIN{printf "%d", n / t}')
  echo "round $r: plain $rp events/s ($tp s), tls $rt events/s ($tt s)" >&2
  echo "$tp $tt" >> "$W/wire.txt"
  [ "$rp" -gt "$best_plain" ] && best_plain=$rp
  [ "$rt" -gt "$best_tls" ] && best_tls=$rt
done
wmed=$(awk '{ print $1 / $2 }' "$W/wire.txt" | median)
# every connection makes one or more events (its states); sessions/s counts connections
awk -v fmed="$fmed" -v wmed="$wmed" -v p="$best_plain" -v t="$best_tls" -v fp="$fp" -v ft="$ft" -v ep="$last_plain" -v et="$last_tls" \
    -v s="$SESSIONS" 'BEGIN{
  sp = fp * s / ep; st = ft * s / et
  printf "to the controller (JDK HttpClient + Jackson per event, as AgentFollower reads):\n"
  printf "  plain HTTP: %d events/s, %d sessions/s\n", fp, sp
  printf "  TLS:        %d events/s, %d sessions/s\n", ft, st
  printf "  TLS/plain:  %.2f sessions/s, median of the rounds %.2f (floor 0.8)\n", st / sp, fmed
  wp = p * s / ep; wt = t * s / et
  printf "wire only (curl, bytes counted, nothing parsed): plain %d sessions/s, TLS %d sessions/s,\n", wp, wt
  printf "  TLS/plain %.2f, median of the rounds %.2f\n", wt / wp, wmed }'
