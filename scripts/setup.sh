#!/usr/bin/env bash
# Sets up what building and testing RST needs on this machine, idempotently:
#   - a JDK 21 (system one if present; the distribution's package as root where it has one;
#     on Debian 12, Debian 13's openjdk-21 unpacked privately and run under its own libc)
#   - Maven 3.9 (odlparent's enforcer refuses Debian 12's 3.8.7), fetched from Maven Central
#     with whatever Maven the machine has (Debian's, installed if missing)
#   - Node.js and npm for the web UI's build (the machine's, else Debian's nodejs and npm)
#   - with --test-deps: the Debian packages the tests use (libpcap, tshark, tcpdump, iproute2, lldpd,
#     chromium for the UI's browser tests, and what --image-deps installs)
#   - with --image-deps: what building and running the agent's container image needs
#     (mmdebstrap, umoci, skopeo, podman, runc, jq; see scripts/agent-image.sh)
# Downloads are kept under ${XDG_CACHE_HOME:-~/.cache}/rst so that a fresh clone reuses them.
# Prints "export JAVA_HOME=...; export PATH=..." lines on stdout for the caller to eval;
# everything else goes to stderr: one line per step that does something (nothing when all is
# there), the tools' own output only when a step fails (see scripts/step.sh; RST_VERBOSE=1 shows it).
set -euo pipefail

CACHE=${RST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rst}
MAVEN_VERSION=3.9.11
mkdir -p "$CACHE"
# shellcheck source=scripts/step.sh
. "$(dirname "${BASH_SOURCE[0]}")/step.sh"
die() { echo "rst setup: $*" >&2; exit 1; }
step() { step_run "rst setup" setup "$@"; }
is_root() { [ "$(id -u)" = 0 ]; }

apt_updated=
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! is_root; then
    die "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})"
  fi
  if [ -z "$apt_updated" ]; then
    step "updating the package lists (apt)" apt-get update || die "apt-get update failed"
    apt_updated=1
  fi
  step "installing ${missing[*]} (apt)" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}" || die "could not install ${missing[*]}"
}

java_major() { # prints the major version of the given java binary, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1
}

find_jdk21() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/java-21-openjdk-amd64 /usr/lib/jvm/java-21-openjdk-arm64 \
           /usr/lib/jvm/temurin-21-jdk-amd64 /usr/lib/jvm/*21* "$CACHE/jdk21/root/usr/lib/jvm/java-21-openjdk-amd64"; do
    [ -n "$c" ] && [ -x "$c/bin/javac" ] || continue
    [ "$(java_major "$c/bin/java")" = 21 ] && { echo "$c"; return 0; }
  done
  return 1
}

# Debian 13's openjdk-21 needs glibc 2.38; Debian 12 has 2.36. Unpack the JDK and trixie's libc
# privately and wrap every JDK executable so that it runs under trixie's loader. Nothing is
# installed system-wide. The mirror is the one this machine already uses for Debian.
make_trixie_jdk21() {
  local dest="$CACHE/jdk21" uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | grep -v security | head -1 || true)
  [ -n "$uri" ] || die "cannot find this machine's Debian mirror to fetch openjdk-21 from"
  rm -rf "$dest"
  mkdir -p "$dest"/lists/partial "$dest"/cache/archives/partial "$dest"/etc "$dest"/debs
  echo "deb $uri trixie main" > "$dest"/etc/sources.list
  local o=(-o Dir::Etc::SourceList="$dest"/etc/sources.list -o Dir::Etc::SourceParts=/dev/null
           -o Dir::State::Lists="$dest"/lists -o Dir::Cache="$dest"/cache
           -o Dir::State::Status=/var/lib/dpkg/status)
  step "making a private JDK 21 in $dest: reading Debian 13's package lists (apt, once)" \
    apt-get "${o[@]}" update || die "could not read Debian 13's package lists from $uri"
  step "making a private JDK 21: downloading openjdk-21 and Debian 13's libc (apt, once)" \
    sh -c 'cd "$1" && shift && apt-get "$@" download openjdk-21-jre-headless openjdk-21-jdk-headless \
      libc6 libgcc-s1 libstdc++6 zlib1g' sh "$dest"/debs "${o[@]}" || die "could not download openjdk-21"
  echo "rst setup: making a private JDK 21: unpacking" >&2
  mkdir -p "$dest"/root "$dest"/glibc
  local f
  for f in "$dest"/debs/openjdk-21-*.deb; do dpkg -x "$f" "$dest"/root; done
  for f in "$dest"/debs/libc6_*.deb "$dest"/debs/libgcc-s1_*.deb "$dest"/debs/libstdc++6_*.deb \
           "$dest"/debs/zlib1g_*.deb; do dpkg -x "$f" "$dest"/glibc; done
  local j="$dest"/root/usr/lib/jvm/java-21-openjdk-amd64 g="$dest"/glibc/usr/lib/x86_64-linux-gnu
  find "$j" -type l -lname '/etc/java-21-openjdk/*' | while read -r l; do
    ln -sfn "$dest/root$(readlink "$l")" "$l"
  done
  wrap() {
    mv "$1" "$1.real"
    printf '#!/bin/sh\nexec %s --library-path %s:%s/lib:%s/lib/server %s.real "$@"\n' \
      "$g/ld-linux-x86-64.so.2" "$g" "$j" "$j" "$1" > "$1"
    chmod +x "$1"
  }
  for f in "$j"/bin/*; do case "$f" in *.real) ;; *) wrap "$f" ;; esac; done
  wrap "$j"/lib/jspawnhelper
  rm -rf "$dest"/debs "$dest"/cache "$dest"/lists
}

setup_jdk() {
  local jh
  if jh=$(find_jdk21); then echo "$jh"; return; fi
  if apt-cache policy openjdk-21-jdk-headless 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    apt_install openjdk-21-jdk-headless
  elif grep -q 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
    command -v apt-get >/dev/null || die "no apt-get: install a JDK 21 and set JAVA_HOME"
    make_trixie_jdk21
  else
    if is_root && [ -z "$apt_updated" ]; then
      step "updating the package lists (apt)" apt-get update || true
      apt_updated=1
    fi
    if apt-cache policy openjdk-21-jdk-headless 2>/dev/null | grep -q 'Candidate: [0-9]'; then
      apt_install openjdk-21-jdk-headless
    else
      die "no JDK 21 found and none can be installed here: install one and set JAVA_HOME"
    fi
  fi
  jh=$(find_jdk21) || die "JDK 21 set-up did not produce a working JDK"
  echo "$jh"
}

setup_maven() {
  local home="$CACHE/apache-maven-$MAVEN_VERSION"
  if [ -x "$home/bin/mvn" ]; then echo "$home"; return; fi
  command -v mvn >/dev/null || apt_install maven
  local tmp; tmp=$(mktemp -d)
  step "fetching Maven $MAVEN_VERSION from Maven Central (with $(command -v mvn), once)" \
    env JAVA_HOME="$1" mvn -B -ntp org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact=org.apache.maven:apache-maven:$MAVEN_VERSION:tar.gz:bin \
      -DoutputDirectory="$tmp" || die "could not fetch Maven $MAVEN_VERSION"
  tar -xzf "$tmp"/apache-maven-$MAVEN_VERSION-bin.tar.gz -C "$CACHE"
  rm -rf "$tmp"
  echo "$home"
}

# The web UI is built with npm (ui-bundle/frontend). A Node.js already on PATH is used as it is
# (NodeSource's bundles its own npm, which Debian's npm package would conflict with); else Debian's.
# Vite 8 wants Node.js 20.19 or later: Debian 12's is 18, so say so rather than fail obscurely later.
setup_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_install nodejs npm
  fi
  local v
  v=$(node -p 'process.versions.node' 2>/dev/null || echo 0.0.0)
  local major=${v%%.*} rest=${v#*.}
  local minor=${rest%%.*}
  if [ "$major" -lt 20 ] || { [ "$major" = 20 ] && [ "$minor" -lt 19 ]; }; then
    echo "rst setup: Node.js $v is too old for the UI's build (Vite needs 20.19 or later): install a newer nodejs" >&2
  fi
}

test_deps=0
image_deps=0
for a in "$@"; do
  case "$a" in
    --test-deps) test_deps=1; image_deps=1 ;;
    --image-deps) image_deps=1 ;;
    *) die "unknown option '$a' (--test-deps, --image-deps)" ;;
  esac
done

command -v dpkg >/dev/null || die "this set-up knows Debian and Ubuntu only: install JDK 21, Maven 3.9, libpcap, tshark"
apt_install ca-certificates libpcap0.8 curl
setup_node
if [ $test_deps = 1 ]; then
  apt_install tshark tcpdump iproute2 procps curl tcpreplay bc jq iputils-ping chromium libyang2-tools prometheus nftables \
    lldpd
fi
if [ $image_deps = 1 ]; then
  apt_install mmdebstrap umoci skopeo podman runc jq
fi
JH=$(setup_jdk)
MH=$(setup_maven "$JH")
echo "export JAVA_HOME='$JH'"
echo "export PATH='$MH/bin:$JH/bin:'\"\$PATH\""
