#!/usr/bin/env bash
# The agent's container image, tested as a switch runs it (root): ./rst agent-image check [--image FILE] [--lab]
#
# Loads the image (FILE, else one built now by scripts/agent-image.sh) into podman and runs it with
#   podman run --network host --cap-add NET_RAW --cap-add NET_ADMIN -v STATE:/var/lib/rst-agent
#     -v CONF:/etc/rst-agent:ro -e RST_AGENT_... IMAGE
# inside a "switch" network namespace (podman started in it, so that its host network is the
# switch's) between two host namespaces, with a management veth from this namespace. Real UDP
# traffic (UdpSender, compiled from rft-agent's tests) crosses the switch; the API is checked over
# TLS (a CA and certificate made by ./rst certs) from this namespace, the way the controller
# reaches an agent. The checks are NetnsAgentTest's: per-port inbound capture of CM only, the
# token, stop and start, a junk flood, and a restart (a new container on the same state volume)
# that keeps the off switch, the instance, the event numbering and the table. Also: the image's
# labels (the SONiC manifest, the OCI version), and that every RST_AGENT_* variable and the
# files in /etc/rst-agent reach the agent.
# Names: namespaces rsti-RANDOM-{h1,sw,h2}, the management veth rsti-RANDOM-m, containers
# rsti-RANDOM-agent; all removed on exit, and the image too when this run loaded it first.
# --lab: then the lab fabric with every switch's agent as the image (lab up --containers, which
# returns once each agent hears its LLDP neighbours), CM traffic across it, every agent capturing
# and the leaves' agents holding at least every connection between them; lab down removes every
# rst-lab-* container. Needs the lab's jar (mvn -pl lab -am package) and no lab up.
# Exit status 0 all checks passed, 1 a check failed (it says which), 2 bad usage.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IMAGE_FILE=
LAB=0
while [ $# -gt 0 ]; do
  case "$1" in
    --image) [ $# -ge 2 ] || { echo "agent-image check: --image needs a file" >&2; exit 2; }; IMAGE_FILE=$2; shift ;;
    --lab) LAB=1 ;;
    *) echo "agent-image check: unknown option '$1' (see: ./rst agent-image --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$(id -u)" = 0 ] || { echo "agent-image check: needs root (network namespaces, podman)" >&2; exit 1; }
t_start=$SECONDS
eval "$(bash "$ROOT/scripts/setup.sh" --image-deps)"
for t in ip curl openssl nsenter; do
  command -v "$t" >/dev/null || { echo "agent-image check: $t is missing (./rst test installs what the tests need)" >&2; exit 1; }
done
export CONTAINERS_CONF=$ROOT/packaging/podman/containers.conf
LAB_JAR=
if [ $LAB = 1 ]; then
  LAB_JAR=$(ls "$ROOT"/lab/target/rst-lab-*-run.jar 2>/dev/null | head -1 || true)
  [ -n "$LAB_JAR" ] || { echo "agent-image check: --lab needs the lab's jar: mvn -B -ntp -q -pl lab -am package -DskipTests" >&2; exit 1; }
  ! ip netns list | grep -q '^rst-' || { echo "agent-image check: --lab: a lab is up (rst-* namespaces): ./rst lab down first" >&2; exit 1; }
fi
LAB_UP=0

P=rsti-$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')
W=$(mktemp -d "${TMPDIR:-/tmp}/$P.XXXXXX")
MGMT=10.78.9.2
NAMESPACES=()
IMAGE_ID=
LOADED_NEW=0
fail() { echo "agent-image check: FAILED: $*" >&2; exit 1; }
log() { echo "agent-image check: $*" >&2; }
lab() { RST_LAB_DIR=$W/lab java -Xmx512m -jar "$LAB_JAR" "$@"; }
cleanup() {
  local rc=$?
  if [ $LAB_UP = 1 ]; then lab down >&2 || true; fi
  podman rm -f -t 5 "$P-agent" >/dev/null 2>&1 || true
  if [ $rc != 0 ] && [ -f "$W/agent.log" ]; then
    echo "agent-image check: the agent's last output:" >&2
    tail -20 "$W/agent.log" | sed 's/^/  | /' >&2
  fi
  for n in "${NAMESPACES[@]}"; do ip netns del "$n" 2>/dev/null || true; done
  ip link del "$P-m" 2>/dev/null || true
  if [ $LOADED_NEW = 1 ] && [ -n "$IMAGE_ID" ]; then podman rmi -f "$IMAGE_ID" >/dev/null 2>&1 || true; fi
  rm -rf "$W"
}
trap cleanup EXIT

# --- the image -----------------------------------------------------------------------------------
if [ -z "$IMAGE_FILE" ]; then
  IMAGE_FILE=$W/image.tar
  bash "$ROOT/scripts/agent-image.sh" --out "$IMAGE_FILE"
fi
[ -s "$IMAGE_FILE" ] || fail "no image file $IMAGE_FILE"
before=$(podman images -q --no-trunc | sort -u)
t0=$SECONDS
out=$(podman load -q -i "$IMAGE_FILE" 2>&1) || fail "podman load -i $IMAGE_FILE: $out"
NAME=$(echo "$out" | sed -n 's/^Loaded image[^:]*: *//p' | head -1)
[ -n "$NAME" ] || fail "podman load named no image: $out"
IMAGE_ID=$(podman image inspect --format '{{.Id}}' "$NAME")
echo "$before" | grep -q "$IMAGE_ID" || LOADED_NEW=1
log "loaded $NAME ($(podman image inspect --format '{{.Size}}' "$NAME" | awk '{printf "%.1f MiB", $1 / 1048576}')) in $((SECONDS - t0)) s"
label() { podman image inspect --format "{{index .Labels \"$1\"}}" "$IMAGE_ID"; }
VERSION=$(label org.opencontainers.image.version)
[ -n "$VERSION" ] && [ "$NAME" = "localhost/rst-agent:$VERSION" ] || fail "image $NAME, version label '$VERSION'"
[ "$(label org.opencontainers.image.title)" = rst-agent ] || fail "title label: $(label org.opencontainers.image.title)"
[ -n "$(label org.opencontainers.image.source)" ] || fail "no source label"
sonic=$(label com.azure.sonic.manifest)
echo "$sonic" | jq -e --arg v "$VERSION" '.package.name == "rst-agent" and .package.version == $v
  and .service.name == "rst-agent" and .container.privileged == false and .service["host-service"] == true
  and (.container.volumes | index("/var/lib/rst-agent:/var/lib/rst-agent:rw")) != null' >/dev/null ||
  fail "the SONiC manifest label: $sonic"
[ "$(podman image inspect --format '{{json .Config.Entrypoint}}' "$IMAGE_ID")" = '["/opt/rst-agent/bin/rst-agent-run"]' ] ||
  fail "entry point: $(podman image inspect --format '{{json .Config.Entrypoint}}' "$IMAGE_ID")"
help=$(podman run --rm --network none "$IMAGE_ID" --help) || fail "podman run IMAGE --help failed"
echo "$help" | grep -q '^usage: rst agent' || fail "podman run IMAGE --help printed: $help"

# --- the fabric: h1 -- sw -- h2, and a management link from here to sw -----------------------------
for n in h1 sw h2; do ip netns add "$P-$n"; NAMESPACES+=("$P-$n"); done
link() { # HOST HOST_IF SW_IF HOST_IP SW_IP
  ip link add "$2" netns "$P-$1" type veth peer name "$3" netns "$P-sw"
  ip -n "$P-$1" addr add "$4" dev "$2"; ip -n "$P-$1" link set "$2" up
  ip -n "$P-sw" addr add "$5" dev "$3"; ip -n "$P-sw" link set "$3" up
}
link h1 h1e s1 10.78.1.1/24 10.78.1.254/24
link h2 h2e s2 10.78.2.1/24 10.78.2.254/24
ip -n "$P-h1" route add default via 10.78.1.254
ip -n "$P-h2" route add default via 10.78.2.254
ip netns exec "$P-sw" sysctl -qw net.ipv4.ip_forward=1
ip -n "$P-sw" link set lo up
ip link add "$P-m" type veth peer name mgmt netns "$P-sw"
ip addr add 10.78.9.1/30 dev "$P-m"; ip link set "$P-m" up
ip -n "$P-sw" addr add "$MGMT/30" dev mgmt; ip -n "$P-sw" link set mgmt up

# --- what the switch holds: token, certificate and key in CONF, a state directory ------------------
bash "$ROOT/scripts/certs.sh" ca "$W/pki" 2>/dev/null
bash "$ROOT/scripts/certs.sh" switch "$W/pki" sw --ip "$MGMT" >/dev/null 2>&1
mkdir -p "$W/conf" "$W/state"
cp "$W/pki/sw.crt" "$W/conf/agent.crt"
(umask 077; cp "$W/pki/sw.key" "$W/conf/agent.key"; echo "tok-$P" > "$W/conf/token")
TOKEN=tok-$P
# the interfaces and the address from the environment, the rest from CONF/agent.env
printf 'RST_AGENT_ID=sw\nRST_AGENT_ARGS="--flush-ms 100 --event-hold-ms 20"\nRST_AGENT_INTERFACES=none\n' > "$W/conf/agent.env"

# UdpSender from rft-agent's tests: it needs nothing but the JDK
mkdir -p "$W/cls"
javac -d "$W/cls" "$ROOT/rft-agent/src/test/java/io/rst/rft/agent/UdpSender.java"
send() { # FROM DST COUNT MODE
  ip netns exec "$P-$1" java -cp "$W/cls" io.rst.rft.agent.UdpSender "$2" "$3" "$4"
}

# --- the agent -----------------------------------------------------------------------------------
start_agent() {
  podman rm -f "$P-agent" >/dev/null 2>&1 || true
  nsenter --net="/run/netns/$P-sw" podman run -d --name "$P-agent" --network host \
    --cap-add NET_RAW --cap-add NET_ADMIN \
    -v "$W/state:/var/lib/rst-agent" -v "$W/conf:/etc/rst-agent:ro" \
    -e RST_AGENT_INTERFACES="s1,s2" -e RST_AGENT_LISTEN="$MGMT:4791" \
    -e RST_AGENT_TOKEN_FILE=/etc/rst-agent/token "$IMAGE_ID" >/dev/null || fail "podman run failed"
  local deadline=$((SECONDS + 60)) st
  while true; do
    [ "$(podman inspect --format '{{.State.Running}}' "$P-agent")" = true ] || {
      podman logs "$P-agent" > "$W/agent.log" 2>&1; fail "the agent's container stopped"; }
    if [ "$(api_code /v1/health)" = 200 ]; then
      st=$(status)
      [ "$(jq .capture_running <<< "$st")" = "$(jq .capturing <<< "$st")" ] && break
    fi
    [ $SECONDS -lt $deadline ] || { podman logs "$P-agent" > "$W/agent.log" 2>&1; fail "the agent did not answer within 60 s"; }
    sleep 0.2
  done
}
URL=https://$MGMT:4791
api_code() { # PATH [TOKEN]: the HTTP status
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 --cacert "$W/pki/ca.crt" \
    ${2:+-H "Authorization: Bearer $2"} "$URL$1" || true
}
get() { curl -sf --max-time 10 --cacert "$W/pki/ca.crt" -H "Authorization: Bearer $TOKEN" "$URL$1"; }
post() { curl -sf --max-time 10 --cacert "$W/pki/ca.crt" -H "Authorization: Bearer $TOKEN" -X POST "$URL$1"; }
status() { get /v1/status; }
packets() { jq --arg i "$2" '[.interfaces[] | select(.name == $i) | .packets][0] // -1' <<< "$1"; }
# await_status JQ_CONDITION WHAT: the status, once the condition holds (10 s at most)
await_status() {
  local deadline=$((SECONDS + 10)) st
  while true; do
    st=$(status) || fail "GET /v1/status failed"
    if jq -e "$1" <<< "$st" >/dev/null; then echo "$st"; return 0; fi
    [ $SECONDS -lt $deadline ] || fail "$2: the status never matched ($1): $st"
    sleep 0.1
  done
}
expect() { # ACTUAL EXPECTED WHAT
  [ "$1" = "$2" ] || fail "$3: $1, expected $2"
}

t0=$SECONDS
start_agent
log "the agent answers over TLS in its container ($((SECONDS - t0)) s from podman run)"
st=$(status)
expect "$(jq -r .agent_id <<< "$st")" sw "agent_id (RST_AGENT_ID from CONF/agent.env)"
expect "$(jq .capturing <<< "$st")" true "capturing"
expect "$(jq -r .transport <<< "$st")" tls "transport (CONF/agent.crt and agent.key)"
expect "$(jq .durability.flush_ms <<< "$st")" 100 "durability.flush_ms (RST_AGENT_ARGS)"
expect "$(jq -r '[.interfaces[].name] | sort | join(",")' <<< "$st")" s1,s2 "interfaces (RST_AGENT_INTERFACES from the environment)"
[ -n "$(ls -A "$W/state")" ] || fail "nothing written into the state volume"

# refused without the right token
expect "$(api_code /v1/status)" 401 "status without a token"
expect "$(api_code /v1/status wrong)" 401 "status with a wrong token"
expect "$(api_code /v1/sessions "${TOKEN}0")" 401 "sessions with a longer token"
# plain HTTP to the TLS port is refused
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://$MGMT:4791/v1/health" || true)
[ "$code" != 200 ] || fail "plain HTTP answered 200"

# CM from h1 enters on s1, from h2 on s2; data to other QPs is filtered out; the last CM from each
# host marks the end: once an interface counted it, it has seen what crossed it before
send h1 10.78.2.1 7 data
send h1 10.78.2.1 5 cm
send h2 10.78.1.1 3 cm
send h1 10.78.2.1 1 cm
send h2 10.78.1.1 1 cm
st=$(await_status '([.interfaces[] | select(.name == "s1") | .packets][0] >= 6) and ([.interfaces[] | select(.name == "s2") | .packets][0] >= 4)' "CM on s1 and s2")
expect "$(packets "$st" s1)" 6 "packets on s1 (inbound, CM only)"
expect "$(packets "$st" s2)" 4 "packets on s2 (inbound only)"
st=$(await_status '.counters.frames >= 10' "frames decoded")
expect "$(jq .counters.frames <<< "$st")" 10 "frames"
expect "$(jq .counters.cm_mads <<< "$st")" 10 "cm_mads (the decoder took every CM MAD)"
expect "$(jq -r '[.interfaces[].reader] | unique | join(",")' <<< "$st")" pcap_next_ex "readers (frames read into ring slots)"
sessions=$(get /v1/sessions) || fail "GET /v1/sessions failed"
grep -q '"s1"' <<< "$sessions" && grep -q '"s2"' <<< "$sessions" || fail "sessions without their ingress ports: $sessions"
! grep -q '"mgmt"' <<< "$sessions" || fail "the management port in the sessions: $sessions"

# stop: nothing captured; start: captured again
stopped=$(post /v1/stop) || fail "POST /v1/stop failed"
expect "$(jq .capturing <<< "$stopped")" false "capturing after POST /v1/stop"
send h1 10.78.2.1 4 cm
post /v1/start >/dev/null || fail "POST /v1/start failed"
await_status '.capture_running' "capture running again" >/dev/null
send h1 10.78.2.1 2 cm
st=$(await_status '[.interfaces[] | select(.name == "s1") | .packets][0] >= 8' "CM after the start")
expect "$(packets "$st" s1)" 8 "packets on s1 (the four sent while stopped not captured)"

# a flood of junk to 4791 leaves the agent alive and counting
send h1 10.78.2.1 20000 junk
await_status '([.interfaces[] | select(.name == "s1") | .packets][0]) + .counters.kernel_drops >= 8 + 19000' "the junk flood" >/dev/null
expect "$(api_code /v1/health)" 200 "health after the flood"
send h2 10.78.1.1 1 cm
await_status '[.interfaces[] | select(.name == "s2") | .packets][0] == 5' "CM after the flood" >/dev/null
expect "$(status | jq .counters.decode_failures)" 0 "decode_failures"

# the off switch and the numbering survive a restart; podman stop (SIGTERM) stops it cleanly
post /v1/stop >/dev/null || fail "POST /v1/stop failed"
st=$(status)
instance=$(jq -r .instance <<< "$st")
seen_seq=$(jq .last_seq <<< "$st")
podman stop -t 30 "$P-agent" >/dev/null || fail "podman stop failed"
# a clean stop on SIGTERM ends with 0
code=$(podman inspect --format '{{.State.ExitCode}}' "$P-agent")
[ "$code" = 0 ] || fail "the agent's exit status after SIGTERM: $code, expected 0"
podman logs "$P-agent" > "$W/agent.log" 2>&1
last_seq=$(sed -n 's/.*agent stopped at event \([0-9]*\).*/\1/p' "$W/agent.log" | tail -1)
[ -n "$last_seq" ] || fail "no 'agent stopped at event N' in the agent's log"
[ "$last_seq" -ge "$seen_seq" ] && [ "$seen_seq" -gt 0 ] || fail "stopped at event $last_seq, had seen $seen_seq"
! grep -q Exception "$W/agent.log" || fail "an exception in the agent's log"
t0=$SECONDS
start_agent
log "a new container on the same state volume answers in $((SECONDS - t0)) s"
st=$(status)
expect "$(jq .capturing <<< "$st")" false "capturing after the restart (the off switch kept)"
expect "$(jq -r .instance <<< "$st")" "$instance" "instance after the restart"
seq=$(jq .last_seq <<< "$st")
[ "$seq" -ge "$last_seq" ] && [ "$seq" -le $((last_seq + 8)) ] || fail "numbering continues from $last_seq: last_seq $seq"
[ "$(jq .first_retained_seq <<< "$st")" -le "$last_seq" ] || fail "the events before the stop are kept: $st"
[ "$(jq .counters.restored_sessions <<< "$st")" -ge 8 ] || fail "the table is back: $st"
[ "$(jq .counters.sessions_live <<< "$st")" -ge 8 ] || fail "in the live table: $st"

# --- no certificate mounted: the agent's own, made in the state volume, kept across containers ---
podman stop -t 30 "$P-agent" >/dev/null || fail "podman stop failed"
mkdir -p "$W/conf-self" "$W/state-self"
cp "$W/conf/token" "$W/conf-self/token"
start_self() { # [ENV...]: a container with CONF-self (a token, no certificate) and STATE-self
  podman rm -f "$P-agent" >/dev/null 2>&1 || true
  nsenter --net="/run/netns/$P-sw" podman run -d --name "$P-agent" --network host \
    --cap-add NET_RAW --cap-add NET_ADMIN \
    -v "$W/state-self:/var/lib/rst-agent" -v "$W/conf-self:/etc/rst-agent:ro" \
    -e RST_AGENT_INTERFACES="s1" -e RST_AGENT_LISTEN="$MGMT:4791" \
    -e RST_AGENT_TOKEN_FILE=/etc/rst-agent/token "$@" "$IMAGE_ID" >/dev/null || fail "podman run failed"
}
# the certificate names the listen address: curl trusts it as itself
self_get() { curl -sf --max-time 10 --cacert "$W/state-self/agent-tls.crt" -H "Authorization: Bearer $TOKEN" "$URL$1"; }
await_self() { # the status over TLS with the self-made certificate, once the agent answers (60 s at most)
  local deadline=$((SECONDS + 60)) st
  while true; do
    if [ -f "$W/state-self/agent-tls.crt" ] && st=$(self_get /v1/status 2>/dev/null); then echo "$st"; return 0; fi
    [ "$(podman inspect --format '{{.State.Running}}' "$P-agent")" = true ] || {
      podman logs "$P-agent" > "$W/agent.log" 2>&1; fail "the agent's container stopped (no certificate mounted)"; }
    [ $SECONDS -lt $deadline ] || { podman logs "$P-agent" > "$W/agent.log" 2>&1; fail "no TLS answer within 60 s (no certificate mounted)"; }
    sleep 0.2
  done
}
start_self
st=$(await_self)
expect "$(jq -r .transport <<< "$st")" tls "transport without a mounted certificate"
expect "$(jq -r .tls_certificate <<< "$st")" self-made "tls_certificate without a mounted certificate"
made=$(jq -r .tls_fingerprint <<< "$st")
expect "$(openssl x509 -noout -fingerprint -sha256 -in "$W/state-self/agent-tls.crt" | sed 's/^[^=]*=//')" "$made" "openssl's fingerprint of the state volume's certificate"
expect "$(stat -c %a "$W/state-self/agent-tls.key")" 600 "the self-made key's mode"
# the whole log first: grep -q would stop reading at its match, and podman logs killed by SIGPIPE fails the pipe
agent_log=$(podman logs "$P-agent" 2>&1)
grep -qF "TLS certificate SHA-256 fingerprint $made (self-made, /var/lib/rst-agent/agent-tls.crt)" <<< "$agent_log" ||
  fail "no fingerprint line in the agent's log: $(podman logs "$P-agent" 2>&1 | grep -i fingerprint)"
podman stop -t 30 "$P-agent" >/dev/null || fail "podman stop failed"
start_self
st=$(await_self)
expect "$(jq -r .tls_fingerprint <<< "$st")" "$made" "the fingerprint after a new container on the same volume"
log "without a mounted certificate: TLS with the self-made one ($made), the same after a restart"
podman stop -t 30 "$P-agent" >/dev/null || fail "podman stop failed"
start_self -e RST_AGENT_PLAIN_HTTP=true
deadline=$((SECONDS + 60))
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://$MGMT:4791/v1/health" || true)" = 200 ]; do
  [ $SECONDS -lt $deadline ] || fail "RST_AGENT_PLAIN_HTTP=true: no plain HTTP answer within 60 s"
  sleep 0.2
done
expect "$(curl -sf --max-time 10 -H "Authorization: Bearer $TOKEN" "http://$MGMT:4791/v1/status" | jq -r .transport)" plain-http "transport with RST_AGENT_PLAIN_HTTP=true"
# --- --lab: the lab fabric, every switch's agent the image -------------------------------------------
if [ $LAB = 1 ]; then
  podman rm -f -t 5 "$P-agent" >/dev/null 2>&1 || true
  t0=$SECONDS
  LAB_UP=1
  lab up --no-register --containers "$NAME" >&2 || fail "lab up --containers $NAME"
  log "the lab is up with its agents as $NAME in $((SECONDS - t0)) s, every LLDP neighbour heard"
  [ "$(podman ps --format '{{.Names}}' | grep -c '^rst-lab-')" = 6 ] || fail "six rst-lab-* containers: $(podman ps --format '{{.Names}}')"
  lab traffic --connections 40 --rate 40 --live-only --nccl-share 0 >&2 || fail "lab traffic"
  # each agent reports its sessions once its writer flushed them: wait for the leaves to hold them
  deadline=$((SECONDS + 20))
  while true; do
    st=$(lab status)
    leaves=$(echo "$st" | sed -n 's/^ *leaf[0-9]* .* sessions=\([0-9]*\).*/\1/p' | awk '{n += $1} END {print n + 0}')
    # a connection under one leaf is seen there, one between two leaves at both: at least 40
    [ "${leaves:-0}" -lt 40 ] || break
    [ $SECONDS -lt $deadline ] || fail "the leaves' agents hold $leaves live sessions of 40 connections: $st"
    sleep 1
  done
  [ "$(echo "$st" | grep -c 'container rst-lab-.* running .* capturing=true')" = 6 ] ||
    fail "every agent container running and capturing: $st"
  lab down >&2 || fail "lab down"
  LAB_UP=0
  [ "$(podman ps -a --format '{{.Names}}' | grep -c '^rst-lab-')" = 0 ] || fail "rst-lab-* containers left after lab down"
  log "the lab with the image: $leaves live sessions at the leaves' agents for 40 connections; lab down removed the containers"
fi
log "passed in $((SECONDS - t_start)) s (image $NAME)"
