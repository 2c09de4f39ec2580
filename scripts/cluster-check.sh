#!/usr/bin/env bash
# ./rst cluster check: the cluster survives the loss of the member that follows a switch's agent.
# Three members (./rst cluster up), three switch agents capturing live in namespaces of their own
# (rstc-a1..3 on the cluster's bridge), generated CM traffic replayed into their ports with
# tcpreplay. The agents are divided among the members (each followed by exactly one member: the
# owner of its rst-rft-agent entity). While the traffic runs, the member following sw1 is killed
# (-9); another member must take sw1 over (and the killed member's other switches), and once the
# traffic is over every session each agent holds, with its state, must be in RESTCONF on every
# surviving member (no more, none twice): what a single controller following the same agents holds.
# Then the killed member starts again, rejoins, and must hold the same. Each switch must be followed
# by exactly one member, as the ownership service says. Prints the takeover time (kill -> the new
# follower's log line, and -> first session written after the kill). Status 0 when every check
# holds. Root only.
# With --more, then: a clean stop of the new owner while more traffic runs (takeover, every
# session on the two left), its restart, and a member cut off from the others (link down 30 s)
# and healed, which must come back holding every session.
#   usage: ./rst cluster check [--sessions N] [--pps N] [--more] [--keep]
#     --sessions N  sessions per agent (default 3000)    --pps N  frames/s per agent (default 300)
#     --agents N    switch agents (default 3)
#     --keep        leave the cluster and the agents up at the end (./rst cluster down; then
#                   ip netns delete rstc-a1 rstc-a2 ...)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NET=${RST_CLUSTER_NET:-10.254.200}
WORK=${RST_CLUSTER_CHECK_DIR:-$ROOT/.local/cluster-check}
SESSIONS=3000
PPS=300
KEEP=0
MORE=0
NAGENTS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --sessions) SESSIONS=$2; shift ;;
    --pps) PPS=$2; shift ;;
    --keep) KEEP=1 ;;
    --more) MORE=1 ;;
    --agents) NAGENTS=$2; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "cluster check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "cluster check: needs root" >&2; exit 1; }
command -v tcpreplay >/dev/null || { echo "cluster check: tcpreplay is missing" >&2; exit 1; }
command -v jq >/dev/null || { echo "cluster check: jq is missing" >&2; exit 1; }

CLUSTER=(bash "$ROOT/scripts/cluster.sh")
AGENTS=($(seq 1 "$NAGENTS"))
JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar | head -1)
log() { echo "cluster check: [$(date -u +%T)] $*" >&2; }
FAILED=0
fail() { log "FAIL: $*"; [ $FAILED = 1 ] || diagnose; FAILED=1; }

cleanup() {
  [ $KEEP = 1 ] && return 0
  local a
  for a in "${AGENTS[@]}"; do
    [ -f "$WORK/a$a.pid" ] && kill "$(cat "$WORK/a$a.pid")" 2>/dev/null || true
    ip netns delete "rstc-a$a" 2>/dev/null || true
    ip link delete "rstc-a$a-h" 2>/dev/null || true
  done
  "${CLUSTER[@]}" down || true
}
trap cleanup EXIT
trap 'log "stopped by a signal"; exit 143' TERM INT

t_all=$SECONDS
rm -rf "$WORK"; mkdir -p -m 700 "$WORK"
head -c 24 /dev/urandom | base64 > "$WORK/token"; chmod 600 "$WORK/token"

log "generating $SESSIONS sessions per agent"
for a in "${AGENTS[@]}"; do
  java -Xmx256m -jar "$JAR" gen --out "$WORK/a$a.pcap" --sessions "$SESSIONS" --seed "$((a * 100000 + RANDOM))" --hosts 64 2>/dev/null
done

if [ "$("${CLUSTER[@]}" status 2>/dev/null | grep -c ' up$')" = 3 ]; then
  # a cluster already up (./rst cluster up) is used as it is: only the agents' token is set,
  # which restarts the RFT manager's Blueprint container on each member
  log "using the cluster that is up (its switches sw1..sw$NAGENTS removed first, with their sessions)"
  for a in "${AGENTS[@]}"; do
    curl -s -o /dev/null -u admin:admin -X DELETE "http://$NET.11:8181/rests/data/rdma-flow-table:rft/switch=sw$a" || true
  done
  for n in 1 2 3; do
    sed -i "s#^agent-token-file *=.*#agent-token-file = $WORK/token#" "$ROOT/.local/cluster/m$n/etc/io.rst.rft.cfg"
  done
  sleep 10
else
  "${CLUSTER[@]}" up --agent-token-file "$WORK/token"
fi

log "starting agents sw1..sw$NAGENTS in rstc-a1..rstc-a$NAGENTS"
for a in "${AGENTS[@]}"; do
  ns=rstc-a$a
  ip netns add "$ns"; ip netns exec "$ns" ip link set lo up
  ip link add "rstc-a$a-h" type veth peer name eth0 netns "$ns"
  ip link set "rstc-a$a-h" master rstc-br0 up
  ip netns exec "$ns" ip addr add "$NET.$((20 + a))/24" dev eth0
  ip netns exec "$ns" ip link set eth0 up
  # the switch port the agent captures on, and its peer that tcpreplay sends into
  ip netns exec "$ns" ip link add swp1 type veth peer name inj1
  ip netns exec "$ns" ip link set swp1 up; ip netns exec "$ns" ip link set inj1 up
  ip netns exec "$ns" java -Xmx128m -jar "$JAR" agent --interface swp1 --listen "0.0.0.0:4791" \
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

R="http://$NET.11:8181/rests"
for a in "${AGENTS[@]}"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin -X PUT -H 'Content-Type: application/json' \
    "$R/data/rdma-flow-table:rft/switch=sw$a" \
    -d "{\"rdma-flow-table:switch\":[{\"node-id\":\"sw$a\",\"agent-address\":\"$NET.$((20 + a))\",\"enabled\":true}]}")
  case "$code" in 200|201|204) ;; *) fail "configuring sw$a answered HTTP $code" ;; esac
done

# the member following switch $1 (default sw1), as the entity ownership service says; none if none
follower() {
  local f
  f=$("${CLUSTER[@]}" status 2>&1 >/dev/null | sed -n 's/^agents followed by: //p' | tr ' ' '\n' |
    paste - - -d ' ' | awk -v s="${1:-sw1}" '$1 == s {print $2}')
  echo "${f:-none}"
}
owner() { follower sw1; }
all_followed() { # every switch has a follower; prints "sw1 m2 sw2 m3 ..."
  local line
  line=$("${CLUSTER[@]}" status 2>&1 >/dev/null | sed -n 's/^agents followed by: //p')
  for a in "${AGENTS[@]}"; do
    echo " $line " | grep -q " sw$a m[0-9]" || return 1
  done
  echo "$line"
}
# the last line of log $1 that says whether switch $2 is followed, written since the member's RFT
# manager last began to take switches: ClusterOwnership's first line, on the manager's thread before
# any candidacy. (Not "RST RFT manager started": Blueprint's thread logs that after the singleton
# registration, by when, on a busy machine, the manager's thread may already follow a switch, and
# the line that says so would be missed.)
last_follow_line() {
  awk '/RFT: member-[0-9]+ follows the switches it is preferred for/ {buf=""} {buf = buf "\n" $0} END {print buf}' "$1" |
    grep -E "RFT $2: (followed by|no longer followed|the ownership service moved it off)" | tail -1
}
# how many running members follow switch $1 now, from their logs
following() {
  local sw=$1 n c=0 last members
  members=$("${CLUSTER[@]}" status 2>/dev/null)
  for n in 1 2 3; do
    echo "$members" | grep -q "^m$n .* up$" || continue
    last=$(last_follow_line "$ROOT/.local/cluster/m$n/data/log/karaf.log" "$sw")
    case "$last" in *"no longer followed"*) ;; *"followed by member"*) c=$((c + 1)) ;; esac
  done
  echo $c
}
check_followers() { # each switch followed by exactly one member, the one the ownership service names
  local line a
  line=""
  for _ in $(seq 60); do line=$(all_followed) && break; sleep 1; done
  [ -n "$line" ] || { fail "not every switch has a follower: $("${CLUSTER[@]}" status 2>&1 >/dev/null | tail -1)"; return; }
  log "agents followed by: $line"
  for a in "${AGENTS[@]}"; do
    # the ownership service names the owner a moment before the member's log says it follows
    for _ in $(seq 30); do c=$(following "sw$a"); [ "$c" = 1 ] && break; sleep 1; done
    if [ "$c" != 1 ]; then
      fail "sw$a is followed by $c members (their logs), not 1"
      for n in 1 2 3; do # what each member last said about it, for the next reader
        log "  m$n: $(last_follow_line "$ROOT/.local/cluster/m$n/data/log/karaf.log" "sw$a" |
          sed 's/ | .* | / /' | cut -c1-160)"
      done
    fi
  done
}
for _ in $(seq 90); do o=$(owner); [ "$o" != none ] && [ -n "$o" ] && break; sleep 1; done
check_followers
log "sw1 is followed by $o; $("${CLUSTER[@]}" status 2>&1 >/dev/null | grep '^singletons:' | head -1)"

log "traffic: $SESSIONS sessions per agent at $PPS frames/s"
replays=()
for a in "${AGENTS[@]}"; do
  ip netns exec "rstc-a$a" tcpreplay -q -i inj1 --pps "$PPS" "$WORK/a$a.pcap" > "$WORK/tcpreplay$a.log" 2>&1 &
  replays+=($!)
done
replay_secs=$((SESSIONS * 3 / PPS))
sleep $((replay_secs / 3))

victim=${o#m}
ids_on() { # MEMBER-N SWITCH -> sorted "session-id state" (one per line) in member's operational RFT;
  # an answer that is not the switch (an error, a member restarting) is kept in $WORK/mN-sw.answer
  local body="$WORK/m$1-$2.answer" code
  code=$(curl -s -m 15 -o "$body" -w '%{http_code}' -u admin:admin \
    "http://$NET.$((10 + $1)):8181/rests/data/rdma-flow-table:rft/switch=$2?content=nonconfig") || code="none"
  echo "$code" > "$body.code"
  [ "$code" = 200 ] || return 0
  jq -r '.["rdma-flow-table:switch"][0].session // [] | .[] | "\(.["session-id"]) \(.state)"' "$body" 2>/dev/null | sort
}
diagnose() { # what each member answers and what its cluster said, after a failed check
  local n a
  for n in 1 2 3; do
    for a in "${AGENTS[@]}"; do
      [ -f "$WORK/m$n-sw$a.answer.code" ] || continue
      log "m$n sw$a last answer: HTTP $(cat "$WORK/m$n-sw$a.answer.code") $(head -c 160 "$WORK/m$n-sw$a.answer" 2>/dev/null | tr -s '\n' ' ')"
    done
    log "m$n cluster events (last 6):"
    grep -a -h -E "SBR took decision|is downing|Marking node.* as \[Unreachable\]|Marking node as REACHABLE|is JOINING|Leader is moving node|Shutting down myself|restart did not finish" \
      "$ROOT/.local/cluster/m$n/data/log/karaf.log" 2>/dev/null | tail -6 | sed 's/ | [^|]* | [^|]* | [^|]* | [^|]* | / /' | cut -c1-220 >&2 || true
  done
}
before=$(ids_on "$victim" sw1 | wc -l)
log "killing $o, sw1's follower (-9), with $before sessions of sw1 written so far"
t_kill=$(date +%s.%N)
"${CLUSTER[@]}" kill "$victim"

survivors=()
for n in 1 2 3; do [ "$n" != "$victim" ] && survivors+=("$n"); done
new=none
for _ in $(seq 120); do
  # the ownership service names the dead member until Pekko downs it
  new=$(owner); [ "$new" != none ] && [ -n "$new" ] && [ "$new" != "$o" ] && break; new=none; sleep 0.5
done
t_owner=$(date +%s.%N)
[ "$new" != none ] || fail "no member took sw1 over within 60 s"
# when the new follower started following sw1: its log line, the last one, written after the kill
t_active=""
for _ in $(seq 120); do
  line=$(grep -h "RFT sw1: followed by" "$ROOT/.local/cluster/$new/data/log/karaf.log" | tail -1)
  stamp=$(echo "$line" | awk '{print $1}' | sed 's/,/./')   # 2026-12-01T09:16:14.918 (local time)
  t=$(date -d "$stamp" +%s.%N 2>/dev/null || echo 0)
  if [ "$(echo "$t > $t_kill" | bc)" = 1 ]; then t_active=$t; break; fi
  sleep 0.5
done
if [ -n "$t_active" ]; then
  log "$new took sw1 over: it follows sw1 $(echo "$t_active - $t_kill" | bc) s after the kill"
else
  fail "$new is named sw1's owner but does not follow it"
fi

# the first session the new owner writes: sw1's count on a survivor grows past what it held
count_s=$(ids_on "${survivors[0]}" sw1 | wc -l)
t_first=""
for _ in $(seq 120); do
  c=$(ids_on "${survivors[0]}" sw1 | wc -l)
  if [ "$c" -gt "$count_s" ]; then t_first=$(date +%s.%N); break; fi
  sleep 0.5
done
[ -n "$t_first" ] && log "first session written after the kill: $(echo "$t_first - $t_kill" | bc) s after it"

wait "${replays[@]}"  # the traffic (not the agents, which run on)
log "traffic over; waiting for every survivor to hold every agent's sessions"
check_members() { # N... ; status 0 when each member holds exactly each agent's sessions
  local n a ok=0
  for a in "${AGENTS[@]}"; do
    curl -s -m 30 -H "Authorization: Bearer $(cat "$WORK/token")" "http://$NET.$((20 + a)):4791/v1/sessions" |
      jq -r '.sessions[] | "\(.session_id) \(.state)"' | sort > "$WORK/agent$a.ids"
    for n in "$@"; do
      ids_on "$n" "sw$a" > "$WORK/m$n-sw$a.ids"
      if ! cmp -s "$WORK/agent$a.ids" "$WORK/m$n-sw$a.ids"; then ok=1; fi
    done
  done
  return $ok
}
members_hold() { # TIMEOUT-S N... ; status 0 once each member holds exactly each agent's sessions
  local deadline=$((SECONDS + $1)); shift
  until check_members "$@"; do
    [ $SECONDS -lt "$deadline" ] || return 1
    sleep 2
  done
}
settled=""
members_hold 180 "${survivors[@]}" && settled=$(date +%s.%N)
for a in "${AGENTS[@]}"; do
  for n in "${survivors[@]}"; do
    total=$(wc -l < "$WORK/m$n-sw$a.ids"); uniq=$(cut -d' ' -f1 "$WORK/m$n-sw$a.ids" | sort -u | wc -l)
    missing=$(comm -23 "$WORK/agent$a.ids" "$WORK/m$n-sw$a.ids" | wc -l)
    extra=$(comm -13 "$WORK/agent$a.ids" "$WORK/m$n-sw$a.ids" | wc -l)
    if [ "$missing" = 0 ] && [ "$extra" = 0 ] && [ "$total" = "$uniq" ]; then
      log "m$n sw$a: $total sessions, the same as the agent's"
    else
      log "m$n sw$a: $total sessions (agent: $(wc -l < "$WORK/agent$a.ids")), missing or in another state $missing, extra $extra, duplicated $((total - uniq))"
    fi
    [ "$total" -eq "$uniq" ] || fail "m$n holds duplicated sessions of sw$a"
  done
done
if [ -n "$settled" ]; then
  log "caught up: every survivor equals the agents $(echo "$settled - $t_kill" | bc) s after the kill"
else
  fail "the survivors do not hold exactly the agents' sessions"
fi
[ "$(wc -l < "$WORK/agent1.ids")" -ge "$SESSIONS" ] || fail "agent sw1 holds $(wc -l < "$WORK/agent1.ids") sessions, fewer than the $SESSIONS sent"

log "starting m$victim again"
"${CLUSTER[@]}" start "$victim"
ok=""
members_hold 120 "$victim" && ok=1
[ -n "$ok" ] && log "m$victim rejoined and holds every session" || fail "m$victim rejoined without every session"
check_followers

if [ $MORE = 1 ] && [ $FAILED = 1 ]; then
  log "--more is not run: the check has already failed"
elif [ $MORE = 1 ]; then
  o2=$(owner); v2=${o2#m}
  log "more traffic ($((SESSIONS / 3)) sessions per agent), and a clean stop of sw1's follower $o2"
  replays=()
  for a in "${AGENTS[@]}"; do
    java -Xmx256m -jar "$JAR" gen --out "$WORK/b$a.pcap" --sessions "$((SESSIONS / 3))" \
      --seed "$((a * 100000 + RANDOM))" --hosts 64 2>/dev/null
    ip netns exec "rstc-a$a" tcpreplay -q -i inj1 --pps "$PPS" "$WORK/b$a.pcap" > "$WORK/tcpreplay-b$a.log" 2>&1 &
    replays+=($!)
  done
  sleep 3
  t_stop=$(date +%s.%N)
  "${CLUSTER[@]}" stop "$v2"
  left=()
  for n in 1 2 3; do [ "$n" != "$v2" ] && left+=("$n"); done
  new2=none
  for _ in $(seq 120); do
    new2=$(owner); [ "$new2" != none ] && [ -n "$new2" ] && [ "$new2" != "$o2" ] && break; new2=none; sleep 0.5
  done
  [ "$new2" != none ] && log "$new2 took over after the clean stop" || fail "no member took over after the clean stop"
  wait "${replays[@]}"
  ok=""
  members_hold 180 "${left[@]}" && ok=1
  [ -n "$ok" ] && log "after the clean stop: m${left[0]} and m${left[1]} hold every session, $(echo "$(date +%s.%N) - $t_stop" | bc) s after it" ||
    fail "after the clean stop the members left do not hold exactly the agents' sessions"
  "${CLUSTER[@]}" start "$v2"

  o3=$(owner)
  for n in 1 2 3; do [ "m$n" != "$o3" ] && { cut=$n; break; }; done
  log "cutting m$cut off for 30 s"
  "${CLUSTER[@]}" cut "$cut"
  sleep 30
  "${CLUSTER[@]}" heal "$cut"
  ok=""
  t_heal=$SECONDS
  # downed by the majority, it restarts its JVM (OpenDaylight's container restart; RST's watchdog
  # ends it with status 10 when OpenDaylight's shutdown hangs, and bin/karaf starts it again): as
  # long as a member's start. Nobody restarts it for the check.
  deadline=$((SECONDS + 600))
  while [ $SECONDS -lt $deadline ]; do
    if restconf_ok=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -u admin:admin "http://$NET.$((10 + cut)):8181/rests/data/rdma-flow-table:rft?content=config") &&
        [ "$restconf_ok" = 200 ] && check_members "$cut"; then ok=1; break; fi
    sleep 2
  done
  how=$(grep -a -c "restart did not finish in" "$ROOT/.local/cluster/m$cut/data/log/karaf.log" 2>/dev/null || true)
  if [ -n "$ok" ]; then
    log "m$cut healed and holds every session $((SECONDS - t_heal)) s after the heal"
    if [ "${how:-0}" -gt 0 ]; then
      log "m$cut restarted after its downing; RST's restart watchdog ended the old JVM once OpenDaylight's shutdown ran past its grace period"
    fi
  else
    fail "m$cut, healed, does not hold every session within 600 s (see its log)"
  fi
  check_followers
fi
"${CLUSTER[@]}" status

log "done in $((SECONDS - t_all)) s: $([ $FAILED = 0 ] && echo PASS || echo FAIL)"
exit $FAILED
