#!/usr/bin/env bash
# The repository's own checks, run first by ./rst test (and so by CI):
#   - README.md has at most 300 lines: it is what a newcomer reads; the rest belongs in docs/;
#   - no tracked file narrates development (which session, run or issue a thing came from):
#     the repository speaks of the product, git keeps the history.
# Exit status 1 with every offending line printed; 0 and one line when all is well.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail=0
readme_max=300
lines=$(wc -l < README.md)
if [ "$lines" -gt "$readme_max" ]; then
  echo "check-house: README.md has $lines lines, more than $readme_max: move detail into docs/" >&2
  fail=1
fi

# Phrases of a development diary. Ordinals from "fourth" on: "the first session written"
# and the like are words about RDMA sessions, not about how the code was written.
ordinals='fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth'
pattern="\\b[0-9]+(st|nd|rd|th) session\\b|\\b($ordinals) session\\b|\\bruns? [0-9]+(-[0-9]+)?\\b|\\bhelpers?\\b|\\bissues? #?[0-9]+\\b"
# this script names the phrases it looks for
hits=$(git ls-files -z -- . ':!:scripts/check-house.sh' | xargs -0 grep -EniIH "$pattern" 2>/dev/null || true)
if [ -n "$hits" ]; then
  echo "check-house: these lines narrate development (say what the code does, not how it came to be):" >&2
  echo "$hits" | sed 's/^/  /' >&2
  fail=1
fi

if [ $fail = 0 ]; then
  echo "check-house: README.md $lines lines (at most $readme_max); no file narrates development"
fi
exit $fail
