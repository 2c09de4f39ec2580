#!/usr/bin/env bash
# ./rst bench crash [OPTIONS] (root): crash safety's figures. A real agent process in a namespace
# "switch" and, in one JVM, the real RFT manager worker and RPT worker on an in-memory MD-SAL broker
# following it (io.rst.rpt.CrashBench in rpt-bundle's tests): kill -9 -> agent answering and ->
# controller in sync at 100,000 and 1,000,000 sessions; the durable log's cost on the agent's capture
# rate (with and without, same run); path lag behind the flow table in a 20,000 pps storm; the time to
# rebuild 100,000 paths after a controller restart. Namespaces rstk-RANDOM-{snd,sw} (env
# RST_BENCH_NETNS sets the prefix), removed on exit. Env: RST_BENCH_HEAP (default 8g).
# Builds the two modules the first time only: after a change, ./rst build (or mvn) first.
set -euo pipefail
cd "$(dirname "$0")/.."
for a in "$@"; do
  case "$a" in
    -h|--help) cat <<'EOF_'
usage: ./rst bench crash [--sessions N,N] [--rebuild N] [--wal-sessions N] [--wal-rounds R] [--wal-warm N]
                         [--lag-pps P] [--lag-seconds S] [--only restart|wal|lag|rebuild]...   (root)
  --sessions N,N     live sessions in the agent's table for the restart times (default 100000,1000000)
  --rebuild N        sessions for the controller's rebuild (default 100000)
  --wal-sessions N   connections of the storm the durable log's cost is measured on (default
                     200000: 1,000,000 packets)
  --wal-rounds R     rounds, each with and without the log (default 3)
  --wal-warm N       connections of the top-speed warm-up storm before each measured one, so that
                     the log's code is compiled as in an agent that has run a while (default 150000)
  --lag-pps P        the storm's rate for the path lag (default 20000)
  --lag-seconds S    its length (default 20)
  --only PART        run only this part (repeatable)
  Floors: the durable log costs at most 10% of the capture rate; path lag p99 < 1 s;
  100,000 paths rebuilt within 10 s. Exit status 1 when one is not met.
  env: RST_BENCH_HEAP (default 8g), RST_BENCH_NETNS (namespace prefix, default rstk-).
EOF_
      exit 0 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "bench crash: needs root (network namespaces)" >&2; exit 1; }
[ -d rpt-bundle/target/test-classes ] && [ -d rft-agent/target/classes ] || NEED_BUILD=1
eval "$(bash scripts/setup.sh --test-deps)"
CP_FILE=rpt-bundle/target/bench-ingest.classpath
if [ -n "${NEED_BUILD:-}" ] || [ ! -s "$CP_FILE" ] || [ rpt-bundle/pom.xml -nt "$CP_FILE" ]; then
  echo "bench crash: building the RFT modules and rpt-bundle (tests compiled, not run)" >&2
  mvn -B -ntp -o -q -Pq -DskipTests -Dmaven.source.skip=true install -pl rpt-bundle -am >/dev/null
  mvn -B -ntp -o -q -Pq -Dmaven.source.skip=true test-compile -pl rpt-bundle >/dev/null
  mvn -B -ntp -o -q -pl rpt-bundle dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$CP_FILE" >/dev/null
fi
exec java -Xmx"${RST_BENCH_HEAP:-8g}" -XX:+UseG1GC \
  -cp "rpt-bundle/target/test-classes:rpt-bundle/target/classes:rft-bundle/target/classes:rft-agent/target/classes:rft-wire/target/classes:$(cat "$CP_FILE")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.rst.rpt.CrashBench "$@"
