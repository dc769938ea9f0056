#!/usr/bin/env bash
# The benchmark of Hop pipelines on Beam (docs/benchmarks.md, issue 6): the same keyed window
# pipeline over generated rows on Hop's local engine, then translated and hand-written on the
# Direct runner, embedded Flink and Spark local[2].
#   scripts/bench-hop-beam.sh [rows] [rounds] [runners...]     (default: 1000000 3 local direct flink spark)
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-1000000}
ROUNDS=${2:-3}
shift $(( $# > 2 ? 2 : $# )) || true
RUNNERS=${*:-local direct flink spark}
WORK=$PWD/hop-beam/target/bench
mkdir -p "$WORK"
classpath() {  # the test class path of a module, its sibling modules as their target/ folders
  mvn -B -q -ntp -pl "$1" -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$WORK/cp-${1//\//-}.txt" >&2
  echo "$PWD/$1/target/test-classes:$PWD/$1/target/classes:$(cat "$WORK/cp-${1//\//-}.txt")"
}
OPENS="--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED"
for runner in $RUNNERS; do
  case $runner in
    local|direct) module=hop-beam ;;
    flink) module=hop-beam/flink ;;
    spark) module=hop-beam/spark ;;
    *) echo "unknown runner $runner: local, direct, flink or spark" >&2; exit 2 ;;
  esac
  # shellcheck disable=SC2086
  java -Xmx6g $OPENS -cp "$(classpath $module)" io.eventtime.hop.beam.bench.HopBeamBenchmark \
    "$runner" "$ROWS" "$ROUNDS" "$WORK"
done
