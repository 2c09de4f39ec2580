#!/usr/bin/env bash
# ./rst cluster: three (RST_CLUSTER_MEMBERS) RST controllers on this machine joined as one
# OpenDaylight cluster. Each member is a copy of the built distribution under .local/cluster/mN,
# configured by its bin/rst-cluster-config, running in a network namespace of its own (rstc-mN,
# address 10.254.200.(10+N)) on a bridge (rstc-br0, 10.254.200.1 in this namespace), so every
# member keeps the usual ports (RESTCONF 8181, Pekko 2550, SSH 8101). Root only (namespaces).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${RST_CLUSTER_DIR:-$ROOT/.local/cluster}
DIST_TGZ_GLOB="$ROOT/karaf-distribution/target/rst-karaf-*.tar.gz"
MEMBERS=${RST_CLUSTER_MEMBERS:-3}
NET=${RST_CLUSTER_NET:-10.254.200}   # a /24; .1 is this host's end of the bridge
# the names of the namespaces, veths and bridge: another prefix (and RST_CLUSTER_NET,
# RST_CLUSTER_DIR) keeps a second set of members, e.g. ./rst bench dsbench's, apart from these
PREFIX=${RST_CLUSTER_PREFIX:-rstc}
BRIDGE=$PREFIX-br0
# Three members and the lab fit a 2-core, 24 GiB machine with 1 GiB of heap each (about 1.6 GiB
# of RSS per member once the datastore holds 100,000 sessions on every member).
HEAP=${RST_CLUSTER_HEAP:-1g}

die() { echo "rst cluster: $*" >&2; exit 1; }
say() { echo "rst cluster: $*" >&2; }

USAGE='usage: ./rst cluster up [--agent-token-file F] [--agent-token-dir D] [--agent-ca-file F] | down | status
       ./rst cluster kill|stop|start|cut|heal N | check
  up        unpack a fresh copy of the distribution per member, configure it as member N of the
            cluster, start every member in its own network namespace and wait until RESTCONF
            answers on each (RST_CLUSTER_MEMBERS, default 3; RST_CLUSTER_HEAP, default 1g); the
            agent options go into every member'"'"'s etc/io.rst.rft.cfg as ./rst controller'"'"'s do
  down      stop every member (kill -9 after 60 s) and remove the namespaces and the bridge;
            the members'"'"' directories stay in .local/cluster for their logs
  status    one line per member: name, RESTCONF base URL, up or down; then (stderr) which member
            holds the RST singletons (RFT manager, RPT) and which member follows each switch'"'"'s agent
  kill N    kill -9 member N (a crash)        stop N    stop member N cleanly
  start N   start member N again (it rejoins with its own data)
  cut N     take member N'"'"'s link down (it is cut off from the others)   heal N   bring it back
  check     the takeover test (./rst cluster check --help): kill -9 of sw1'"'"'s follower
            while three agents stream, every session on every survivor, the member rejoins
Members: mN in namespace '"$PREFIX"'-mN at '"$NET"'.(10+N); RESTCONF http://'"$NET"'.(10+N):8181/rests
(admin/admin). Root only.'


addr() { echo "$NET.$((10 + $1))"; }
ns() { echo "$PREFIX-m$1"; }
home() { echo "$STATE/m$1"; }
url() { echo "http://$(addr "$1"):8181/rests"; }

member_pid() { # N: the pid of member N's Karaf, if it runs
  local f; f="$(home "$1")/karaf.pid"
  [ -f "$f" ] || return 1
  local pid; pid=$(cat "$f" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

restconf_up() { # N
  [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' -u admin:admin \
    "$(url "$1")/data/ietf-yang-library:yang-library?fields=module-set(name)" 2>/dev/null)" = 200 ]
}

net_up() {
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add "$BRIDGE" type bridge
    ip addr add "$NET.1/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
  fi
  local n
  for n in $(seq 1 "$MEMBERS"); do
    ip netns list | grep -qw "$(ns "$n")" && continue
    ip netns add "$(ns "$n")"
    ip netns exec "$(ns "$n")" ip link set lo up
    ip link add "$PREFIX-m$n-h" type veth peer name eth0 netns "$(ns "$n")"
    ip link set "$PREFIX-m$n-h" master "$BRIDGE" up
    ip netns exec "$(ns "$n")" ip addr add "$(addr "$n")/24" dev eth0
    ip netns exec "$(ns "$n")" ip link set eth0 up
    # the host's end of the bridge is the way to anything else (agents elsewhere)
    ip netns exec "$(ns "$n")" ip route add default via "$NET.1" 2>/dev/null || true
  done
}

net_down() {
  local n
  for n in $(seq 1 "$MEMBERS"); do
    ip netns list | grep -qw "$(ns "$n")" && ip netns delete "$(ns "$n")"
    ip link delete "$PREFIX-m$n-h" 2>/dev/null || true
  done
  ip link delete "$BRIDGE" 2>/dev/null || true
}

start_member() { # N
  local n=$1 h; h=$(home "$n")
  member_pid "$n" >/dev/null && { say "m$n already runs (pid $(member_pid "$n"))"; return 0; }
  [ -d "$h" ] || die "m$n has no directory $h: ./rst cluster up first"
  ip netns list | grep -qw "$(ns "$n")" || die "no namespace $(ns "$n"): ./rst cluster up first"
  # Karaf's bin/start puts it in the background and writes its pid to KARAF_PID_FILE
  ip netns exec "$(ns "$n")" env KARAF_PID_FILE="$h/karaf.pid" RST_HEAP="$HEAP" "$h/bin/start" >/dev/null
  local deadline=$((SECONDS + 90))
  until member_pid "$n" >/dev/null; do
    [ $SECONDS -lt $deadline ] || die "m$n did not start; see $h/data/log/karaf.log"
    sleep 0.5
  done
}

wait_up() { # SECONDS N...
  local deadline=$((SECONDS + $1)) n pending
  shift
  pending=("$@")
  while [ ${#pending[@]} -gt 0 ]; do
    local still=()
    for n in "${pending[@]}"; do restconf_up "$n" || still+=("$n"); done
    pending=("${still[@]+"${still[@]}"}")
    [ ${#pending[@]} -eq 0 ] && return 0
    [ $SECONDS -lt $deadline ] || { say "RESTCONF did not answer on m${pending[*]} within the time"; return 1; }
    sleep 2
  done
}

stop_member() { # N [kill]
  local n=$1 pid
  pid=$(member_pid "$n") || return 0
  if [ "${2:-}" = kill ]; then
    kill -9 "$pid"
  else
    ip netns exec "$(ns "$n")" "$(home "$n")/bin/stop" >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + 60))
    while kill -0 "$pid" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then
        say "m$n was still stopping after 60 s: ended with kill -9"
        kill -9 "$pid" 2>/dev/null || true
        break
      fi
      sleep 1
    done
  fi
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
}

# Which member holds the RST singletons: OpenDaylight's entity ownership service tells
# (odl-entity-owners:get-entities, asked of the first member that answers); its owner-node
# member-N is our mN. "none" while no member answers or the entity has no owner.
ENTITIES=""
entities() {
  local n
  [ -n "$ENTITIES" ] && return 0
  for n in $(seq 1 "$MEMBERS"); do
    member_pid "$n" >/dev/null || continue
    ENTITIES=$(curl -s -m 10 -u admin:admin -X POST -H 'Accept: application/json' \
      "$(url "$n")/operations/odl-entity-owners:get-entities" 2>/dev/null || true)
    # a member still starting answers an error: ask the next one
    case "$ENTITIES" in *odl-entity-owners:output*) return 0 ;; esac
    ENTITIES=""
  done
}
owner_of() { # SERVICE-GROUP (rst-rft-manager, rst-rpt)
  entities
  local owner
  owner=$(echo "$ENTITIES" | jq -r --arg name "$1" '.["odl-entity-owners:output"].entities[]?
    | select(.type == "org.opendaylight.mdsal.ServiceEntityType" and .name == $name) | .["owner-node"] // empty' \
    2>/dev/null | head -1)
  case "$owner" in member-*) echo "m${owner#member-}" ;; *) echo none ;; esac
}

# Which member follows each switch's agent: the owner of its rst-rft-agent entity ("sw1 m2 sw2 m3").
followers() {
  entities
  echo "$ENTITIES" | jq -r '.["odl-entity-owners:output"].entities[]?
    | select(.type == "rst-rft-agent") | "\(.name) \(.["owner-node"] // "none")"' 2>/dev/null |
    sed 's/ member-\([0-9]*\)$/ m\1/' | sort | tr '\n' ' ' | sed 's/ $//'
}

absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

cmd_up() {
  local tgz n t0=$SECONDS token_file="" token_dir="" ca_file=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --agent-token-file) [ $# -ge 2 ] || die "--agent-token-file needs a file"; token_file=$2; shift ;;
      --agent-token-dir) [ $# -ge 2 ] || die "--agent-token-dir needs a directory"; token_dir=$2; shift ;;
      --agent-ca-file) [ $# -ge 2 ] || die "--agent-ca-file needs a file"; ca_file=$2; shift ;;
      *) die "up: unknown option '$1'" ;;
    esac
    shift
  done
  if [ -n "$token_file" ]; then
    [ -r "$token_file" ] || die "cannot read agent token file $token_file"
    token_file=$(absolute "$token_file")
  fi
  if [ -n "$token_dir" ]; then
    [ -d "$token_dir" ] || die "no agent token directory $token_dir"
    token_dir=$(cd "$token_dir" && pwd)
  fi
  if [ -n "$ca_file" ]; then
    [ -r "$ca_file" ] || die "cannot read agent CA file $ca_file"
    ca_file=$(absolute "$ca_file")
  fi
  tgz=$(ls $DIST_TGZ_GLOB 2>/dev/null | head -1 || true)
  [ -n "$tgz" ] || die "no distribution built: ./rst build first"
  for n in $(seq 1 "$MEMBERS"); do
    member_pid "$n" >/dev/null && die "m$n already runs: ./rst cluster down first"
  done
  command -v curl >/dev/null || die "curl is missing"
  command -v jq >/dev/null || die "jq is missing (apt-get install jq)"
  local addrs=()
  for n in $(seq 1 "$MEMBERS"); do addrs+=("$(addr "$n")"); done
  for n in $(seq 1 "$MEMBERS"); do
    rm -rf "$(home "$n")"; mkdir -p "$(home "$n")"
    tar -xzf "$tgz" -C "$(home "$n")" --strip-components=1
    "$(home "$n")/bin/rst-cluster-config" "$n" "${addrs[@]}" 2>/dev/null
    [ -z "$token_file" ] ||
      sed -i "s#^agent-token-file *=.*#agent-token-file = $token_file#" "$(home "$n")/etc/io.rst.rft.cfg"
    [ -z "$token_dir" ] ||
      sed -i "s#^agent-token-dir *=.*#agent-token-dir = $token_dir#" "$(home "$n")/etc/io.rst.rft.cfg"
    [ -z "$ca_file" ] ||
      sed -i "s#^agent-ca-file *=.*#agent-ca-file = $ca_file#" "$(home "$n")/etc/io.rst.rft.cfg"
    # RST_CLUSTER_HOOK: a command (or a function the caller exported) given the member's
    # directory before its first start, to change its etc/ (./rst bench dsbench adds a feature)
    [ -z "${RST_CLUSTER_HOOK:-}" ] || "$RST_CLUSTER_HOOK" "$(home "$n")" || die "RST_CLUSTER_HOOK failed on m$n"
  done
  net_up
  for n in $(seq 1 "$MEMBERS"); do start_member "$n"; done
  say "$MEMBERS members starting (heap $HEAP each); waiting for RESTCONF on each"
  wait_up "${RST_START_TIMEOUT:-400}" $(seq 1 "$MEMBERS") || die "see $STATE/mN/data/log/karaf.log"
  say "up in $((SECONDS - t0)) s"
  cmd_status
}

cmd_status() {
  local n state
  for n in $(seq 1 "$MEMBERS"); do
    if ! member_pid "$n" >/dev/null; then state=down
    elif restconf_up "$n"; then state=up
    else state=starting
    fi
    echo "m$n $(url "$n") $state"
  done
  ENTITIES=""
  entities
  # on stderr: stdout has one line per member, for scripts (docs/cluster.md); nothing to say while
  # no member answers, and no agents line while no switch is followed
  [ -n "$ENTITIES" ] || return 0
  echo "singletons: rft-manager $(owner_of rst-rft-manager) rpt $(owner_of rst-rpt)" >&2
  local agents; agents=$(followers)
  [ -z "$agents" ] || echo "agents followed by: $agents" >&2
}

cmd_down() {
  local n
  for n in $(seq 1 "$MEMBERS"); do stop_member "$n" & done
  wait
  net_down
  say "down (logs stay in $STATE/mN/data/log)"
}

member_arg() { # the N of a member command
  [ $# -ge 1 ] && [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$MEMBERS" ] ||
    die "which member? a number from 1 to $MEMBERS"
  echo "$1"
}

[ $# -ge 1 ] || { echo "$USAGE" >&2; exit 2; }
what=$1; shift
case "$what" in -h|--help|help) echo "$USAGE"; exit 0 ;; esac
[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
case "$what" in
  up) cmd_up "$@" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  kill) n=$(member_arg "$@"); stop_member "$n" kill; say "m$n killed (-9)" ;;
  stop) n=$(member_arg "$@"); stop_member "$n"; say "m$n stopped" ;;
  start) n=$(member_arg "$@"); start_member "$n"; wait_up "${RST_START_TIMEOUT:-400}" "$n"; say "m$n up" ;;
  cut) n=$(member_arg "$@"); ip netns exec "$(ns "$n")" ip link set eth0 down; say "m$n cut off" ;;
  heal) n=$(member_arg "$@"); ip netns exec "$(ns "$n")" ip link set eth0 up
        ip netns exec "$(ns "$n")" ip route add default via "$NET.1" 2>/dev/null || true; say "m$n back" ;;
  *) die "unknown '$what' (see ./rst cluster --help)" ;;
esac
