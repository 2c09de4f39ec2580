#!/usr/bin/env bash
# ./rst bench ingest [OPTIONS]: the controller's ingest without a lab. The real RFT manager worker
# and RPT worker on an in-memory MD-SAL broker, fed by real agents (in the same JVM) replaying
# generated live sessions at a paced rate; prints RTU -> path delays, the sustained rate, its
# ratio to raw writes of the same shape, a link change's time and the heap per session.
# The agents listen on 127.0.0.1 ports the kernel picks. Env: RST_BENCH_HEAP (default 4g).
# Builds the two modules the first time only: after a change, ./rst build (or mvn) first.
set -euo pipefail
cd "$(dirname "$0")/.."
for a in "$@"; do
  case "$a" in
    -h|--help) cat <<'EOF_'
usage: ./rst bench ingest [--pods P] [--sessions N] [--rate R] [--retain-events N] [--no-raw]
                          [--no-link] [--no-heap] [--quiet]
  --pods P           pods of three switches, an agent each (default 2)
  --sessions N       live sessions in all (default 20000); each seen by its pod's 3 switches
  --rate R           new sessions per second in all (default 1000; 0: as fast as it goes)
  --retain-events N  each agent's retained events (default the agent's, 65536; and N/1000 MiB)
  --no-raw           skip the reference (raw writes of the same shape)
  --no-link          skip the link change
  --no-heap          skip the heap measurement
  env: RST_BENCH_HEAP (default 4g). The agents listen on 127.0.0.1 ports the kernel picks.
EOF_
      exit 0 ;;
  esac
done
[ -d rpt-bundle/target/test-classes ] && [ -d rft-agent/target/classes ] || NEED_BUILD=1
eval "$(bash scripts/setup.sh)"
CP_FILE=rpt-bundle/target/bench-ingest.classpath
if [ -n "${NEED_BUILD:-}" ] || [ ! -s "$CP_FILE" ] || [ rpt-bundle/pom.xml -nt "$CP_FILE" ]; then
  echo "bench ingest: building the RFT modules and rpt-bundle (tests compiled, not run)" >&2
  mvn -B -ntp -o -q -Pq -DskipTests -Dmaven.source.skip=true install -pl rpt-bundle -am >/dev/null
  mvn -B -ntp -o -q -Pq -Dmaven.source.skip=true test-compile -pl rpt-bundle >/dev/null
  mvn -B -ntp -o -q -pl rpt-bundle dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/$CP_FILE" >/dev/null
fi
exec java -Xmx"${RST_BENCH_HEAP:-4g}" -XX:+UseG1GC \
  -cp "rpt-bundle/target/test-classes:rpt-bundle/target/classes:rft-bundle/target/classes:rft-agent/target/classes:rft-wire/target/classes:$(cat "$CP_FILE")" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn io.rst.rpt.IngestBench "$@"
