#!/usr/bin/env bash
# ./rst certs: a CA and per-switch certificates for the agents' TLS (a lab or a first deployment),
# made with openssl. Keys are PKCS#8 PEM (what the agent reads) with mode 0600.
set -euo pipefail

die() { echo "rst certs: $*" >&2; exit 2; }
command -v openssl >/dev/null || { echo "rst certs: openssl is not installed" >&2; exit 1; }

new_key() { # FILE: an EC P-256 key, readable by its owner only
  (umask 077; openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null)
  chmod 600 "$1"
}

[ $# -ge 2 ] || die "usage: ./rst certs ca DIR | ./rst certs switch DIR NAME [--ip A]... [--dns N]... [--days N] [--client]"
what=$1; dir=$2; shift 2
days=825
case "$what" in
  ca)
    while [ $# -gt 0 ]; do
      case "$1" in
        --days) [ $# -ge 2 ] || die "--days needs a value"; days=$2; shift 2 ;;
        *) die "ca: unknown option '$1'" ;;
      esac
    done
    mkdir -p "$dir"
    [ ! -e "$dir/ca.key" ] || die "$dir/ca.key exists: not overwriting a CA"
    new_key "$dir/ca.key"
    openssl req -x509 -new -key "$dir/ca.key" -out "$dir/ca.crt" -days "$days" -subj "/CN=RST agents CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    chmod 644 "$dir/ca.crt"
    echo "rst certs: CA in $dir/ca.crt (key $dir/ca.key, mode 0600): agent-ca-file = $dir/ca.crt" >&2
    ;;
  switch)
    [ $# -ge 1 ] || die "switch: which NAME?"
    name=$1; shift
    case "$name" in */*|.*|"") die "switch: '$name' is not a plain name" ;; esac
    sans="DNS:$name"
    client=
    while [ $# -gt 0 ]; do
      case "$1" in
        --ip) [ $# -ge 2 ] || die "--ip needs a value"; sans="$sans,IP:$2"; shift 2 ;;
        --dns) [ $# -ge 2 ] || die "--dns needs a value"; sans="$sans,DNS:$2"; shift 2 ;;
        --days) [ $# -ge 2 ] || die "--days needs a value"; days=$2; shift 2 ;;
        --client) client=1; shift ;;
        *) die "switch: unknown option '$1'" ;;
      esac
    done
    [ -f "$dir/ca.crt" ] && [ -f "$dir/ca.key" ] || die "no CA in $dir: ./rst certs ca $dir first"
    new_key "$dir/$name.key"
    usage=serverAuth
    [ -z "$client" ] || usage=clientAuth
    ext=$(mktemp)
    trap 'rm -f "$ext" "$dir/$name.csr"' EXIT
    printf 'subjectAltName=%s\nextendedKeyUsage=%s\nkeyUsage=critical,digitalSignature\nbasicConstraints=CA:FALSE\n' \
      "$sans" "$usage" > "$ext"
    openssl req -new -key "$dir/$name.key" -out "$dir/$name.csr" -subj "/CN=$name" 2>/dev/null
    openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
      -out "$dir/$name.crt" -days "$days" -extfile "$ext" 2>/dev/null
    chmod 644 "$dir/$name.crt"
    fp=$(openssl x509 -in "$dir/$name.crt" -noout -fingerprint -sha256 | sed 's/.*=//')
    if [ -n "$client" ]; then
      echo "rst certs: client certificate $dir/$name.crt, key $dir/$name.key (0600): agent-client-cert-file, agent-client-key-file" >&2
    else
      echo "rst certs: $dir/$name.crt ($sans), key $dir/$name.key (0600): rst agent --tls-cert $dir/$name.crt --tls-key $dir/$name.key" >&2
    fi
    echo "$fp"
    ;;
  *) die "unknown subcommand '$what': ca or switch" ;;
esac
