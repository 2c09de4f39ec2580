#!/usr/bin/env bash
# Benchmark of the web UI, in the same headless Chromium as its browser tests: time from
# navigation to each view painted with its data (floor 2 s), and time for a switch's flow table of
# 100,000 sessions to apply a filter and a sort (floor 300 ms). Prints one line per measurement,
# the median of RUNS, with its floor. Not part of `./rst test`.
#
#   bash scripts/bench-ui.sh [--url URL] [--prepare --token-file F | --prepare --token-dir D] [--sessions N]
#
# Against a running controller (default http://127.0.0.1:8181, or $RST_URL). The big switch is the
# one with the most sessions. With --prepare, the script makes one itself: it generates a capture
# of N sessions (default 100,000; `rst gen --all-types`, so every state is there), starts an agent
# replaying it on 127.0.0.1 with the controller's agent token file F (or with a new token it writes
# as D/bench-ui, for a controller that reads per-switch tokens from D), puts switch "bench-ui" into
# rdma-flow-table:rft, waits until RESTCONF lists every session, measures, then stops that agent
# and deletes the switch. Env: RUNS (3), RST_USER/RST_PASSWORD (admin/admin).
set -euo pipefail
cd "$(dirname "$0")/.."
URL=${RST_URL:-http://127.0.0.1:8181}
PREPARE=0
TOKEN=
TOKEN_DIR=
SESSIONS=100000
while [ $# -gt 0 ]; do
  case "$1" in
    --url) URL=$2; shift ;;
    --prepare) PREPARE=1 ;;
    --token-file) TOKEN=$2; shift ;;
    --token-dir) TOKEN_DIR=$2; shift ;;
    --sessions) SESSIONS=$2; shift ;;
    *) echo "usage: bench-ui.sh [--url URL] [--prepare --token-file F | --token-dir D] [--sessions N]" >&2; exit 2 ;;
  esac
  shift
done
eval "$(bash scripts/setup.sh --test-deps 2>/dev/null)"
[ -d ui-bundle/frontend/node_modules/playwright-core ] ||
  { echo "bench-ui: build ui-bundle first (mvn -pl ui-bundle install: it runs npm ci)" >&2; exit 2; }
AUTH="${RST_USER:-admin}:${RST_PASSWORD:-admin}"
curl -s -o /dev/null -u "$AUTH" "$URL/rests/data/rdma-flow-table:rft?content=config" ||
  { echo "bench-ui: no controller answers at $URL" >&2; exit 1; }

W=$(mktemp -d)
AGENT_PID=
cleanup() {
  if [ -n "$AGENT_PID" ]; then
    kill "$AGENT_PID" 2>/dev/null || true
    curl -s -o /dev/null -u "$AUTH" -X DELETE "$URL/rests/data/rdma-flow-table:rft/switch=bench-ui" || true
  fi
  if [ -n "$TOKEN_DIR" ]; then rm -f "$TOKEN_DIR/bench-ui"; fi
  rm -rf "$W"
}
trap cleanup EXIT

if [ $PREPARE = 1 ]; then
  if [ -n "$TOKEN_DIR" ]; then
    TOKEN=$TOKEN_DIR/bench-ui
    (umask 077; head -c 24 /dev/urandom | base64 > "$TOKEN")
  fi
  [ -r "$TOKEN" ] || { echo "bench-ui: --prepare needs --token-file F (the controller's agent token file) or --token-dir D" >&2; exit 2; }
  JAR=$(ls rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
  [ -n "$JAR" ] || { echo "bench-ui: build rft-agent first (./rst build)" >&2; exit 2; }
  # --all-types: 1 connection in 11 is a SIDR exchange, which makes no session
  java -Xmx256m -jar "$JAR" gen --out "$W/bench.pcap" --sessions $((SESSIONS * 11 / 10)) --all-types --ip 4 --vlans 0 >&2
  PORT=$(( 47000 + RANDOM % 1000 ))
  java -Xmx512m -jar "$JAR" agent --replay "$W/bench.pcap" --listen 127.0.0.1:$PORT --token-file "$TOKEN" \
    --state-dir "$W/state" --plain-http --agent-id bench-ui --retention 999999999 --max-sessions $((SESSIONS * 2)) > "$W/agent.log" 2>&1 &
  AGENT_PID=$!
  sleep 3
  curl -s -f -o /dev/null -u "$AUTH" -X PUT -H 'Content-Type: application/json' \
    "$URL/rests/data/rdma-flow-table:rft/switch=bench-ui" \
    -d "{\"rdma-flow-table:switch\":[{\"node-id\":\"bench-ui\",\"agent-address\":\"127.0.0.1\",\"agent-port\":$PORT,\"enabled\":true}]}"
  echo "bench-ui: waiting for RESTCONF to list $SESSIONS sessions of bench-ui" >&2
  n=0
  for _ in $(seq 1 180); do
    n=$(curl -s -u "$AUTH" "$URL/rests/data/rdma-flow-table:rft/switch=bench-ui?content=nonconfig&fields=session(state)" |
      grep -o '"state"' | wc -l || true)
    [ "$n" -ge "$SESSIONS" ] && break
    sleep 2
  done
  [ "$n" -ge "$SESSIONS" ] || { echo "bench-ui: only $n sessions after 6 min" >&2; exit 1; }
  export RST_BENCH_SWITCH=bench-ui
fi

cd ui-bundle/frontend
RST_URL=$URL node browser-tests/bench.mjs
