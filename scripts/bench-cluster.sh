#!/usr/bin/env bash
# ./rst bench cluster: what a takeover costs, and what three members ingest against one.
# Three members (./rst cluster up), three agents capturing live (namespaces rstc-a1..3 on the
# cluster's bridge), --live N sessions in all replayed into them first (the ingest of three
# members: sessions per second until every one is in the datastore). Then --kills K times, while
# more traffic runs: kill -9 the member following sw1, and measure from the kill to the first
# session of sw1 written by its new follower, and to full catch-up (every survivor holds exactly
# every agent's sessions); the killed member starts again before the next kill. p50 and worst.
# Last, the same ingest into one member alone (fresh agents, the same captures, the same rate).
# Root only, like ./rst cluster.
#   usage: ./rst bench cluster [--live N] [--kills K] [--pps P]
#     --live N   live sessions in all, a third per agent (default 100000)
#     --kills K  kills (default 10)       --pps P  frames/s per agent while loading (default 3000)
set -euo pipefail
# 100,000 sessions and their paths, replicated on every member: with 1 GiB of heap the member that
# takes the killed one's switches over runs out of room after a few kills (119 full GCs, 252 s of
# them, on m1 in a 10-kill run) and its catch-up grows from 25 s to 69 s; 2 GiB each holds steady
export RST_CLUSTER_HEAP=${RST_CLUSTER_HEAP:-2g}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NET=${RST_CLUSTER_NET:-10.254.200}
WORK=${RST_CLUSTER_CHECK_DIR:-$ROOT/.local/bench-cluster}
LIVE=100000
KILLS=10
PPS=3000
while [ $# -gt 0 ]; do
  case "$1" in
    --live) LIVE=$2; shift ;;
    --kills) KILLS=$2; shift ;;
    --pps) PPS=$2; shift ;;
    -h|--help)
      # the usage line first, then what the bench does, from the comment above
      sed -n 's/^#   \(usage: .*\)/\1/p' "$0"
      sed -n '2,10p;12,13p' "$0" | sed 's/^# \{0,1\}//'
      exit 0 ;;
    *) echo "bench cluster: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "bench cluster: needs root" >&2; exit 1; }
for c in tcpreplay jq bc; do command -v $c >/dev/null || { echo "bench cluster: $c is missing" >&2; exit 1; }; done
CLUSTER=(bash "$ROOT/scripts/cluster.sh")
AGENTS=(1 2 3)
PER=$((LIVE / 3))
JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar | head -1)
log() { echo "bench cluster: [$(date -u +%T)] $*" >&2; }
now() { date +%s.%N; }
since() { echo "scale=1; ($(now) - $1) / 1" | bc; }

agents_down() {
  local a
  for a in "${AGENTS[@]}"; do
    [ -f "$WORK/a$a.pid" ] && kill "$(cat "$WORK/a$a.pid")" 2>/dev/null || true
    ip netns delete "rstc-a$a" 2>/dev/null || true
    ip link delete "rstc-a$a-h" 2>/dev/null || true
  done
  sleep 1
}
cleanup() { agents_down; "${CLUSTER[@]}" down || true; }
trap cleanup EXIT

agents_up() { # fresh agents (empty state)
  local a ns
  for a in "${AGENTS[@]}"; do
    ns=rstc-a$a
    rm -rf "$WORK/a$a.state"
    ip netns add "$ns"; ip netns exec "$ns" ip link set lo up
    ip link add "rstc-a$a-h" type veth peer name eth0 netns "$ns"
    ip link set "rstc-a$a-h" master rstc-br0 up
    ip netns exec "$ns" ip addr add "$NET.$((20 + a))/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$ns" ip link add swp1 type veth peer name inj1
    ip netns exec "$ns" ip link set swp1 up; ip netns exec "$ns" ip link set inj1 up
    ip netns exec "$ns" java -Xmx512m -jar "$JAR" agent --interface swp1 --listen "0.0.0.0:4791" \
      --token-file "$WORK/token" --state-dir "$WORK/a$a.state" --plain-http --agent-id "sw$a" \
      > "$WORK/a$a.log" 2>&1 &
    echo $! > "$WORK/a$a.pid"
  done
  for a in "${AGENTS[@]}"; do
    for _ in $(seq 60); do
      curl -s -m 2 -o /dev/null -H "Authorization: Bearer $(cat "$WORK/token")" "http://$NET.$((20 + a)):4791/v1/status" && break
      sleep 1
    done
  done
  for a in "${AGENTS[@]}"; do
    curl -s -o /dev/null -u admin:admin -X PUT -H 'Content-Type: application/json' \
      "http://$NET.11:8181/rests/data/rdma-flow-table:rft/switch=sw$a" \
      -d "{\"rdma-flow-table:switch\":[{\"node-id\":\"sw$a\",\"agent-address\":\"$NET.$((20 + a))\",\"enabled\":true}]}"
  done
}

ids_on() { # MEMBER-N SWITCH -> sorted session ids
  curl -s -m 60 -u admin:admin "http://$NET.$((10 + $1)):8181/rests/data/rdma-flow-table:rft/switch=$2?content=nonconfig&fields=session(session-id)" |
    jq -r '.["rdma-flow-table:switch"][0].session // [] | .[]["session-id"]' | sort
}
agent_ids() {
  curl -s -m 60 -H "Authorization: Bearer $(cat "$WORK/token")" "http://$NET.$((20 + $1)):4791/v1/sessions" |
    jq -r '.sessions[].session_id' | sort
}
holds_all() { # MEMBER-N...: every member holds exactly every agent's sessions
  local a n
  for a in "${AGENTS[@]}"; do
    agent_ids "$a" > "$WORK/agent$a.ids"
    for n in "$@"; do
      ids_on "$n" "sw$a" > "$WORK/m$n.ids"
      cmp -s "$WORK/agent$a.ids" "$WORK/m$n.ids" || return 1
    done
  done
}
# After a kill the traffic is over, so the agents' tables no longer change: they are read once,
# and each pass reads only the members, sw1 (the switch taken over) first. A pass at 100,000
# sessions takes seconds; the members only move towards the agents' tables, so they held them all
# by the moment the pass's last read began (CAUGHT_AT), not only once the pass is over.
CAUGHT_AT=""
members_hold_all() { # MEMBER-N...
  local a n t
  for a in "${AGENTS[@]}"; do
    for n in "$@"; do
      t=$(now)
      ids_on "$n" "sw$a" > "$WORK/m$n.ids"
      cmp -s "$WORK/agent$a.ids" "$WORK/m$n.ids" || return 1
    done
  done
  CAUGHT_AT=$t
}
count_on() { ids_on "$1" "$2" | wc -l; }
follower() {
  local f
  f=$("${CLUSTER[@]}" status 2>&1 >/dev/null | sed -n 's/^agents followed by: //p' | tr ' ' '\n' |
    paste - - -d ' ' | awk -v s="${1:-sw1}" '$1 == s {print $2}')
  echo "${f:-none}"
}

ingest() { # MEMBER-N: replay the load captures, seconds until member N holds them all
  local t0 a pids=()
  t0=$(now)
  for a in "${AGENTS[@]}"; do
    ip netns exec "rstc-a$a" tcpreplay -q -i inj1 --pps "$PPS" "$WORK/load$a.pcap" > "$WORK/tcpreplay-load$a.log" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}"
  log "load replayed in $(since "$t0") s; waiting for the datastore"
  for _ in $(seq 600); do
    local total=0
    for a in "${AGENTS[@]}"; do total=$((total + $(count_on "$1" "sw$a"))); done
    [ "$total" -ge $((PER * 3)) ] && break
    sleep 2
  done
  echo "$(since "$t0") $total"
}

pct() { # p50 and worst of numbers on stdin
  sort -g | awk '{a[NR]=$1} END {if (NR == 0) {print "none"; exit} m = a[int((NR + 1) / 2)]; print "p50 " m " s, worst " a[NR] " s (" NR " kills)"}'
}

t_all=$SECONDS
rm -rf "$WORK"; mkdir -p -m 700 "$WORK"
head -c 24 /dev/urandom | base64 > "$WORK/token"; chmod 600 "$WORK/token"
log "generating $PER live sessions per agent, and the traffic during each kill"
for a in "${AGENTS[@]}"; do
  java -Xmx1g -jar "$JAR" gen --out "$WORK/load$a.pcap" --sessions "$PER" --seed "$((a * 1000 + 1))" --hosts 256 2>/dev/null
  java -Xmx256m -jar "$JAR" gen --out "$WORK/kill$a.pcap" --sessions 1000 --seed "$((a * 1000 + 2))" --hosts 256 2>/dev/null
done
agents_down
if [ "$("${CLUSTER[@]}" status 2>/dev/null | grep -c ' up$')" = 3 ]; then
  # a cluster already up is used as it is, with this run's token (the RFT manager restarts)
  log "using the cluster that is up (its switches sw1..sw3 removed first)"
  for a in "${AGENTS[@]}"; do
    curl -s -o /dev/null -u admin:admin -X DELETE "http://$NET.11:8181/rests/data/rdma-flow-table:rft/switch=sw$a" || true
  done
  for n in 1 2 3; do
    sed -i "s#^agent-token-file *=.*#agent-token-file = $WORK/token#" "$ROOT/.local/cluster/m$n/etc/io.rst.rft.cfg"
  done
  sleep 15
else
  "${CLUSTER[@]}" down >/dev/null 2>&1 || true
  "${CLUSTER[@]}" up --agent-token-file "$WORK/token"
fi
agents_up
for _ in $(seq 90); do [ "$(follower sw3)" != none ] && [ "$(follower sw1)" != none ] && break; sleep 1; done
log "agents followed by: $("${CLUSTER[@]}" status 2>&1 >/dev/null | sed -n 's/^agents followed by: //p')"

log "ingest, three members: $LIVE sessions at $PPS frames/s per agent"
read -r t3 n3 < <(ingest 1)
r3=$(echo "scale=0; $n3 / $t3" | bc)
log "three members: $n3 sessions in $t3 s: $r3 sessions/s"

: > "$WORK/first.txt"; : > "$WORK/catchup.txt"
for k in $(seq "$KILLS"); do
  o=$(follower sw1); victim=${o#m}
  survivors=(); for n in 1 2 3; do [ "$n" != "$victim" ] && survivors+=("$n"); done
  pids=()
  for a in "${AGENTS[@]}"; do
    java -Xmx256m -jar "$JAR" gen --out "$WORK/kill$a.pcap" --sessions 1000 --seed "$((a * 1000 + 10 + k))" --hosts 256 2>/dev/null
    ip netns exec "rstc-a$a" tcpreplay -q -i inj1 --pps 300 "$WORK/kill$a.pcap" > /dev/null 2>&1 &
    pids+=($!)
  done
  sleep 3
  base=$(count_on "${survivors[0]}" sw1)
  t_kill=$(now)
  "${CLUSTER[@]}" kill "$victim" 2>/dev/null
  first=""
  for _ in $(seq 240); do
    c=$(count_on "${survivors[0]}" sw1)
    if [ "$c" -gt "$base" ]; then
      # sessions written after the kill: by the new follower once the old one's last commit landed
      if [ "$(follower sw1)" != "$o" ] && [ "$(follower sw1)" != none ]; then first=$(since "$t_kill"); break; fi
      base=$c
    fi
    sleep 0.25
  done
  wait "${pids[@]}"
  for a in "${AGENTS[@]}"; do agent_ids "$a" > "$WORK/agent$a.ids"; done
  caught=""
  for _ in $(seq 120); do
    if members_hold_all "${survivors[@]}"; then
      caught=$(echo "scale=1; ($CAUGHT_AT - $t_kill) / 1" | bc); break
    fi
    sleep 0.5
  done
  log "kill $k of $o: first session by the new follower $(follower sw1) ${first:-never} s after it, full catch-up ${caught:-never} s"
  [ -n "$first" ] && echo "$first" >> "$WORK/first.txt"
  [ -n "$caught" ] && echo "$caught" >> "$WORK/catchup.txt"
  "${CLUSTER[@]}" start "$victim" 2>/dev/null
  # its RFT manager starts after RESTCONF answers; its switches then come back to it
  for _ in $(seq 60); do [ "$(follower sw1)" = "$o" ] && break; sleep 1; done
done
first_stats=$(pct < "$WORK/first.txt")
catch_stats=$(pct < "$WORK/catchup.txt")

log "one member alone: the same $LIVE sessions into fresh agents"
agents_down
"${CLUSTER[@]}" down >/dev/null 2>&1 || true
RST_CLUSTER_MEMBERS=1 "${CLUSTER[@]}" up --agent-token-file "$WORK/token"
agents_up
for _ in $(seq 60); do [ "$(count_on 1 sw1)" -ge 0 ] && [ "$(follower sw1)" != none ] && break; sleep 1; done
read -r t1 n1 < <(ingest 1)
r1=$(echo "scale=0; $n1 / $t1" | bc)
RST_CLUSTER_MEMBERS=1 "${CLUSTER[@]}" down >/dev/null 2>&1 || true

cat <<REPORT
bench cluster ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $LIVE live sessions, 3 agents)
  kill -9 of sw1's follower -> first session written by its new follower: $first_stats
  kill -9 of sw1's follower -> every survivor holds every agent's sessions: $catch_stats
  floor: catch-up within 30 s at 100,000 live sessions: $(
    w=$(sort -g "$WORK/catchup.txt" | tail -1); [ -n "$w" ] && [ "$LIVE" -ge 100000 ] && [ "$(echo "$w <= 30" | bc)" = 1 ] &&
      [ "$(wc -l < "$WORK/catchup.txt")" = "$KILLS" ] && echo met || echo "not met")
  ingest, three members (agents spread): $n3 sessions in $t3 s, $r3 sessions/s
  ingest, one member:                    $n1 sessions in $t1 s, $r1 sessions/s
  done in $((SECONDS - t_all)) s
REPORT
