#!/usr/bin/env bash
# Builds the RFT agent's OCI container image from Debian's packages and this repository's agent
# jar, with nothing pulled from a container registry:
#   ./rst agent-image [--out FILE] [--format oci|docker] [--fresh-base]
#
# The image, three layers:
#   1. Debian 12 (bookworm), mmdebstrap's "essential" variant (smaller than minbase: no apt) with
#      libpcap0.8, merged /usr without the usrmerge package (so no perl beyond perl-base), no man
#      pages, docs or locales. Kept in the cache, by its recipe, until --fresh-base.
#   2. A Java runtime: jlink of this machine's JDK 21 with the modules jdeps finds in the agent
#      jar (and jdk.crypto.ec for EC keys). When the JDK needs a newer glibc than bookworm's (the
#      Debian 13 JDK that scripts/setup.sh unpacks on Debian 12), the JDK's own loader and libc go
#      with it under /opt/rst-agent/glibc and bin/java runs under them, as on the build machine.
#   3. The agent: /opt/rst-agent/rft-agent.jar and its entry point /opt/rst-agent/bin/rst-agent-run
#      (packaging/rst-agent-run: the agent's options from RST_AGENT_* variables).
# Labels: the OCI ones (title, version, source, ...) and com.azure.sonic.manifest, the manifest
# SONiC's application extension framework reads (packaging/sonic-manifest.json).
# Output: an OCI archive (a tar of an OCI image layout, what `podman load` and
# `skopeo copy oci-archive:FILE ...` take), named rst-agent:VERSION; with --format docker a
# docker-archive (what `docker save` writes: Docker 24 and older, and so SONiC's
# `sonic-package-manager install --from-tarball`, load only that), gzipped when FILE ends in .gz.
# The same inputs (the jar, the JDK, the cached base, SOURCE_DATE_EPOCH, by default the last
# commit's time) make the same archive, byte for byte; nothing is fetched at run time.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/step.sh
. "$ROOT/scripts/step.sh"
die() { echo "rst agent-image: $*" >&2; exit 1; }
step() { step_run "rst agent-image" agent-image "$@"; }

CACHE=${RST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rst}
OUT=
FORMAT=oci
FRESH_BASE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a file (see: ./rst agent-image --help)"; OUT=$2; shift ;;
    --out=*) OUT=${1#*=} ;;
    --format) [ $# -ge 2 ] || die "--format needs oci or docker"; FORMAT=$2; shift ;;
    --format=*) FORMAT=${1#*=} ;;
    --fresh-base) FRESH_BASE=1 ;;
    *) die "unknown option '$1' (see: ./rst agent-image --help)" ;;
  esac
  shift
done

case "$FORMAT" in oci|docker) ;; *) die "--format: oci or docker, not '$FORMAT'" ;; esac

# the tools: as root, installed if missing; otherwise named
missing=()
for t in mmdebstrap umoci jq skopeo; do command -v "$t" >/dev/null || missing+=("$t"); done
if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" != 0 ]; then
  die "missing ${missing[*]}: run as root (they are then installed), or: sudo apt-get install ${missing[*]}"
fi
eval "$(bash "$ROOT/scripts/setup.sh" --image-deps)"

JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
if [ -z "$JAR" ]; then
  STEP_SHOW_LOG=1 step "building the agent jar first (Maven: rft-agent and what it needs, no tests)" \
    sh -c 'cd "$1" && mvn -B -ntp -q -o -pl rft-agent -am package -DskipTests || mvn -B -ntp -q -pl rft-agent -am package -DskipTests' \
    sh "$ROOT" || exit 1
  JAR=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar | head -1)
fi
VERSION=$(basename "$JAR" | sed 's/^rft-agent-\(.*\)-agent\.jar$/\1/')
if [ -z "$OUT" ]; then
  OUT=$ROOT/rft-agent/target/rst-agent-image-$VERSION.tar
  [ "$FORMAT" = oci ] || OUT=$ROOT/rft-agent/target/rst-agent-image-$VERSION.docker.tar
fi
case "$OUT" in /*) ;; *) OUT=$PWD/$OUT ;; esac
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)}
CREATED=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
REVISION=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
SOURCE=$(sed -n 's#^ *<url>\(.*\)</url> *$#\1#p' "$ROOT/pom.xml" | head -1)

W=$(mktemp -d "${TMPDIR:-/tmp}/rst-agent-image.XXXXXX")
trap 'rm -rf "$W"' EXIT
t0=$SECONDS

# --- 1. the Debian base, from this machine's Debian mirror ---------------------------------------
mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -1 || true)
[ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -1 || true)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
security=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep security | head -1 || true)
[ -n "$security" ] || security=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep security | head -1 || true)
[ -n "$security" ] || security=http://deb.debian.org/debian-security
BASE_ARGS=(--variant=essential --include=libpcap0.8 --format=tar
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr --dpkgopt=force-unsafe-io
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/info/*'
  --customize-hook='rm -f "$1"/etc/hostname "$1"/etc/resolv.conf "$1"/etc/machine-id'
  --customize-hook='rm -rf "$1"/var/cache/ldconfig/aux-cache "$1"/var/log/*')
BASE_SOURCES=("deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main")
base_key=$(printf '%s\n' "${BASE_ARGS[@]}" "${BASE_SOURCES[@]}" | sha256sum | cut -c1-16)
BASE=$CACHE/agent-image/base-bookworm-$base_key.tar
if [ $FRESH_BASE = 1 ] || [ ! -s "$BASE" ]; then
  [ "$(id -u)" = 0 ] || echo "rst agent-image: not root: mmdebstrap makes the base in a user namespace (needs /etc/subuid for $(id -un))" >&2
  mkdir -p "$CACHE/agent-image"
  STEP_SHOW_LOG=1 step "making the Debian 12 base from $mirror (mmdebstrap; a minute or two, then kept in $CACHE/agent-image)" \
    mmdebstrap "${BASE_ARGS[@]}" bookworm "$BASE.tmp" "${BASE_SOURCES[@]}" || { rm -f "$BASE.tmp"; exit 1; }
  mv -f "$BASE.tmp" "$BASE"
  # every other recipe's base goes: only the latest is kept
  find "$CACHE/agent-image" -maxdepth 1 -name 'base-bookworm-*.tar' ! -name "$(basename "$BASE")" -delete
fi
# bookworm's glibc, from the base's dpkg database: the runtime needs one at least as new
glibc_base=$(tar -xOf "$BASE" ./var/lib/dpkg/status | awk '/^Package: libc6$/ {p=1} p && /^Version:/ && !v {v=$2} END {print v}' | sed 's/-.*//')
[ -n "$glibc_base" ] || die "no libc6 in the base $BASE (remove it, or --fresh-base)"

# --- 2. the Java runtime -------------------------------------------------------------------------
RT=$W/runtime/opt/rst-agent
mkdir -p "$RT"
modules=$(jdeps --multi-release 21 --ignore-missing-deps --print-module-deps "$JAR" 2>/dev/null) ||
  die "jdeps could not read $JAR"
# found by the service loader, not by jdeps: the SunEC provider (EC keys and certificates)
modules="$modules,jdk.crypto.ec"
step "making a Java runtime with jlink ($modules)" \
  jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --output "$RT/jre" || exit 1
glibc_need=$(cat "$RT"/jre/lib/server/libjvm.so "$RT"/jre/lib/*.so "$RT"/jre/bin/java | grep -ao 'GLIBC_2\.[0-9]*' | sort -uV | tail -1)
glibc_need=${glibc_need#GLIBC_}
if [ "$(printf '%s\n%s\n' "$glibc_need" "$glibc_base" | sort -V | tail -1)" != "$glibc_base" ]; then
  # The JDK needs a newer glibc than bookworm's: take the loader and libraries it runs under
  # here (scripts/setup.sh's wrapper: exec LOADER --library-path GLIBC_DIR:... java.real)
  wrapper=$JAVA_HOME/bin/java
  head -c2 "$wrapper" | grep -q '#!' ||
    die "the JDK $JAVA_HOME needs glibc $glibc_need, bookworm has $glibc_base: use the JDK scripts/setup.sh makes, or one built for glibc $glibc_base"
  loader=$(sed -n 's/^exec \([^ ]*\) --library-path \([^:]*\):.*/\1/p' "$wrapper")
  gdir=$(sed -n 's/^exec \([^ ]*\) --library-path \([^:]*\):.*/\2/p' "$wrapper")
  [ -x "$loader" ] && [ -d "$gdir" ] || die "cannot find the loader and glibc that $wrapper runs under"
  mkdir -p "$RT/glibc"
  for lib in "$(basename "$loader")" libc.so.6 libm.so.6 libmvec.so.1 libdl.so.2 libpthread.so.0 librt.so.1 \
             libresolv.so.2 libnss_dns.so.2 libnss_files.so.2 libgcc_s.so.1 libstdc++.so.6 libz.so.1; do
    [ -e "$gdir/$lib" ] || die "$gdir has no $lib"
    cp -L "$gdir/$lib" "$RT/glibc/$lib"
  done
  # java, and jspawnhelper (through which the JVM starts processes: JNA runs ldconfig -p)
  for exe in bin/java lib/jspawnhelper; do
    mv "$RT/jre/$exe" "$RT/jre/$exe.real"
    printf '#!/bin/sh\n# the runtime needs glibc %s: it runs under its own loader and libraries\nexec /opt/rst-agent/glibc/%s --library-path /opt/rst-agent/glibc:/opt/rst-agent/jre/lib:/opt/rst-agent/jre/lib/server /opt/rst-agent/jre/%s.real "$@"\n' \
      "$glibc_need" "$(basename "$loader")" "$exe" > "$RT/jre/$exe"
    chmod 755 "$RT/jre/$exe"
  done
  echo "rst agent-image: the runtime needs glibc $glibc_need (bookworm has $glibc_base): its own goes in /opt/rst-agent/glibc" >&2
fi
# keytool and the like are not needed: java alone
find "$RT/jre/bin" -type f ! -name 'java' ! -name 'java.real' -delete

# --- 3. the agent --------------------------------------------------------------------------------
AG=$W/agent/opt/rst-agent
mkdir -p "$AG/bin"
cp "$JAR" "$AG/rft-agent.jar"
install -m 755 "$ROOT/packaging/rst-agent-run" "$AG/bin/rst-agent-run"

# layer tars: sorted, owned by root, every time stamp SOURCE_DATE_EPOCH
layer_tar() { # DIR OUT
  (cd "$1" && find . -mindepth 1 -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} + &&
    tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
      --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime --format=posix \
      -cf "$2" --exclude=./. ./opt)
}
layer_tar "$W/runtime" "$W/runtime.tar"
layer_tar "$W/agent" "$W/agent.tar"

# --- the image -----------------------------------------------------------------------------------
manifest=$(sed "s/@VERSION@/$VERSION/g" "$ROOT/packaging/sonic-manifest.json" | jq -c .) ||
  die "packaging/sonic-manifest.json is not JSON"
L=$W/oci
TAG=$VERSION
# each command's status checked: a function run by step is in an || list, where set -e is off
add_layer() { # TAR CREATED_BY
  umoci raw add-layer --image "$L:$TAG" --history.created="$CREATED" --history.author=RST \
    --history.created_by="$2" "$1"
}
build_image() {
  umoci init --layout "$L" || return 1
  umoci new --image "$L:$TAG" || return 1
  add_layer "$BASE" "mmdebstrap bookworm, essential, libpcap0.8" || return 1
  add_layer "$W/runtime.tar" "jlink: a Java 21 runtime" || return 1
  add_layer "$W/agent.tar" "the RFT agent $VERSION" || return 1
  umoci config --image "$L:$TAG" --created="$CREATED" --author=RST --architecture=amd64 --os=linux \
    --no-history \
    --config.entrypoint=/opt/rst-agent/bin/rst-agent-run \
    --config.env=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.volume=/var/lib/rst-agent --config.workingdir=/ --config.stopsignal=SIGTERM \
    --config.label=org.opencontainers.image.title=rst-agent \
    --config.label="org.opencontainers.image.description=RST's RFT switch agent: captures RoCEv2 CM messages and serves the switch's RDMA flow table" \
    --config.label=org.opencontainers.image.version="$VERSION" \
    --config.label=org.opencontainers.image.source="$SOURCE" \
    --config.label=org.opencontainers.image.revision="$REVISION" \
    --config.label=org.opencontainers.image.created="$CREATED" \
    --config.label=org.opencontainers.image.licenses=EPL-1.0 \
    --config.label=org.opencontainers.image.base.name=debian:bookworm \
    --config.label=com.azure.sonic.manifest="$manifest" \
    --manifest.annotation=org.opencontainers.image.title=rst-agent \
    --manifest.annotation=org.opencontainers.image.version="$VERSION" \
    --manifest.annotation=org.opencontainers.image.created="$CREATED" || return 1
  umoci gc --layout "$L"
}
step "assembling the image (umoci: three layers, labels, entry point)" build_image || exit 1
# the name podman load gives it: index.json's reference name
jq -c --arg n "rst-agent:$VERSION" \
  '.manifests |= map(.annotations["org.opencontainers.image.ref.name"] = $n)' "$L/index.json" > "$W/index.json"
mv "$W/index.json" "$L/index.json"
find "$L" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$(dirname "$OUT")"
(cd "$L" && tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner --format=posix \
  --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -cf "$W/image.oci.tar" oci-layout index.json blobs)
if [ "$FORMAT" = oci ]; then
  mv -f "$W/image.oci.tar" "$OUT.tmp"
else
  step "writing it as a docker-archive (skopeo)" \
    skopeo copy --quiet "oci-archive:$W/image.oci.tar" "docker-archive:$W/image.docker.tar:rst-agent:$VERSION" || exit 1
  case "$OUT" in
    *.gz) gzip -n -6 -c "$W/image.docker.tar" > "$OUT.tmp" ;;
    *) mv -f "$W/image.docker.tar" "$OUT.tmp" ;;
  esac
fi
mv -f "$OUT.tmp" "$OUT"

# sizes: the archive (compressed layers) and unpacked (the layers' tars)
unpacked=$(( $(stat -c %s "$BASE") + $(stat -c %s "$W/runtime.tar") + $(stat -c %s "$W/agent.tar") ))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
what="OCI archive"; [ "$FORMAT" = docker ] && what=docker-archive
echo "rst agent-image: $OUT: rst-agent:$VERSION, $what of $(mib "$(stat -c %s "$OUT")")" \
  "(unpacked $(mib "$unpacked"): Debian $(mib "$(stat -c %s "$BASE")"), Java runtime" \
  "$(mib "$(stat -c %s "$W/runtime.tar")"), agent $(mib "$(stat -c %s "$W/agent.tar")")), sha256" \
  "$(sha256sum "$OUT" | cut -c1-16), made in $((SECONDS - t0)) s" >&2
if [ "$FORMAT" = oci ]; then
  echo "rst agent-image: load it with: podman load -i $OUT" >&2
else
  echo "rst agent-image: load it with: docker load -i $OUT (or on SONiC: sonic-package-manager install --from-tarball $OUT)" >&2
fi
