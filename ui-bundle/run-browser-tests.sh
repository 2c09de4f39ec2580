#!/usr/bin/env bash
# The UI's browser suite: Debian's Chromium, headless, driven by playwright-core, against a
# controller that is already running and has data (the lab fabric, or agents replaying captures).
# Installs nothing: it needs node, this module's node_modules (the Maven build of ui-bundle runs
# `npm ci`) and /usr/bin/chromium (scripts/setup.sh --test-deps installs Debian's chromium).
#
#   ui-bundle/run-browser-tests.sh [CONTROLLER_URL]
#
# CONTROLLER_URL defaults to $RST_URL, then http://127.0.0.1:8181. Other settings (RST_USER,
# RST_PASSWORD, RST_SWITCH, RST_EXPECT_GAP, RST_SCREENSHOTS) are described at the top of
# frontend/browser-tests/suite.mjs. Screenshots of every view go to ui-bundle/target/screenshots/;
# a failing step is named on stdout and photographed as FAILED-NN-step.png. Exit status 0 when
# every step passed (or was skipped, with its reason printed).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 1 ] && export RST_URL=$1
command -v node >/dev/null || { echo "run-browser-tests: node is missing (scripts/setup.sh installs it)" >&2; exit 2; }
[ -d "$HERE/frontend/node_modules/playwright-core" ] ||
  { echo "run-browser-tests: no frontend/node_modules: build ui-bundle with Maven first (it runs npm ci)" >&2; exit 2; }
cd "$HERE/frontend"
# node reads extra CAs at start only: the agents' CA, so that the suite can ask TLS agents itself
[ -z "${RST_AGENT_CA_FILE:-}" ] || export NODE_EXTRA_CA_CERTS=$RST_AGENT_CA_FILE
exec node browser-tests/suite.mjs
