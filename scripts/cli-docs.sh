#!/usr/bin/env bash
# Writes each command's usage into the docs, from the code that prints it.
#
# docs/cli.md and docs/lab.md hold blocks like
#   <!-- usage: ./rst gen --help -->
#   ```text
#   ...
#   ```
#   <!-- /usage -->
# This script runs the command of every such marker the way a user types it (./rst at the
# repository's root; the Java commands answer from the built jars) and writes its output verbatim
# between the markers. CliDocsTest (rft-agent) and LabDocsTest (lab) fail when a block differs from
# what the code prints: run this script after changing a usage text, and commit the docs with it.
#
# Needs the built jars: rft-agent/target/rft-agent-*-agent.jar and lab/target/rst-lab-*-run.jar
# (mvn -B -ntp -q -pl lab -am package -DskipTests). Exit status 1 when one is missing or a command
# fails; the docs are then left as they were.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOCS=("$ROOT/docs/cli.md" "$ROOT/docs/lab.md")

die() { echo "cli-docs: $*" >&2; exit 1; }

agent_jar=$(ls "$ROOT"/rft-agent/target/rft-agent-*-agent.jar 2>/dev/null | head -1 || true)
lab_jar=$(ls "$ROOT"/lab/target/rst-lab-*-run.jar 2>/dev/null | head -1 || true)
[ -n "$agent_jar" ] && [ -n "$lab_jar" ] ||
  die "build the jars first: mvn -B -ntp -q -pl lab -am package -DskipTests (rft-agent's agent jar and the lab's run jar)"
# the tools answer from the jar just built, not from a copy of an older one in .local/tools
export RST_TOOLS_JAR=$agent_jar

# the output of one marker's command, e.g. "./rst gen --help"
usage_of() {
  local line=$1 words
  read -r -a words <<< "$line"
  [ "${words[0]}" = ./rst ] || die "a usage marker names a command other than ./rst: '$line'"
  (cd "$ROOT" && bash ./rst "${words[@]:1}" 2>/dev/null) || die "'$line' failed (exit status $?)"
}

blocks=0
for doc in "${DOCS[@]}"; do
  tmp=$(mktemp "$doc.XXXXXX")
  trap 'rm -f "$tmp"' EXIT
  inside=0
  while IFS= read -r line || [ -n "$line" ]; do
    if [ $inside = 0 ]; then
      printf '%s\n' "$line"
      if [[ $line =~ ^'<!-- usage: '(.*)' -->'$ ]]; then
        text=$(usage_of "${BASH_REMATCH[1]}")
        printf '```text\n%s\n```\n' "$text"
        inside=1
        blocks=$((blocks + 1))
      fi
    elif [ "$line" = '<!-- /usage -->' ]; then
      printf '%s\n' "$line"
      inside=0
    fi
  done < "$doc" > "$tmp"
  [ $inside = 0 ] || die "$doc: a usage block without its <!-- /usage -->"
  if cmp -s "$tmp" "$doc"; then
    rm -f "$tmp"
  else
    chmod --reference="$doc" "$tmp"
    mv "$tmp" "$doc"
    echo "cli-docs: rewrote ${doc#"$ROOT"/}" >&2
  fi
  trap - EXIT
done
echo "cli-docs: $blocks usage blocks written from the code" >&2
