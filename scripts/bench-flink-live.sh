#!/usr/bin/env bash
# The live-path benchmark of issue 11 (docs/benchmarks.md): EventTimeWindow against plain Beam
# windowing (Window.into + Combine.perKey, KafkaIO's CustomTimestampPolicyWithLimitedDelay) on
# embedded Flink in streaming mode, both reading the same one-partition topic of the test broker.
# Builds benchmarks/flink and what it needs, starts the broker in a JVM of its own and produces the
# topic once, then runs the sides in turn (eventtime first in odd runs, beam first in even ones),
# each run a fresh job JVM whose window rows are checked against the events before its numbers
# count, and prints the medians. Each run's line and log stay in benchmarks/flink/target/bench/.
#   scripts/bench-flink-live.sh [events] [runs]      (default: 1000000 3)
# MVN_FLAGS adds Maven flags (e.g. MVN_FLAGS=-o to build offline); JOB_JAVA_OPTS adds JVM options
# to the job JVMs (e.g. a larger heap; each run is its own JVM). Run it under `nice -n 19` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-1000000}
RUNS=${2:-3}
WORK=$PWD/benchmarks/flink/target/bench
rm -rf "$WORK"
mkdir -p "$WORK"

# shellcheck disable=SC2086
mvn -B -q -ntp ${MVN_FLAGS:-} -pl benchmarks/flink -am compile dependency:build-classpath \
  -Dmdep.outputFile="$WORK/cp.txt" -Djacoco.skip=true >&2
CP="$PWD/benchmarks/flink/target/classes:$(cat "$WORK/cp.txt")"

java -Xmx1g -cp "$CP" io.eventtime.benchmarks.flink.LiveTopic "$EVENTS" "$WORK" >"$WORK/broker.log" 2>&1 &
BROKER=$!
stop_broker() {
  touch "$WORK/stop"
  wait "$BROKER" 2>/dev/null || true
}
trap stop_broker EXIT
until [ -f "$WORK/broker.properties" ]; do
  if ! kill -0 "$BROKER" 2>/dev/null; then
    echo "the broker JVM ended before the topic was ready:" >&2
    cat "$WORK/broker.log" >&2
    exit 1
  fi
  sleep 1
done
grep -v '^\[' "$WORK/broker.log" >&2 || true

for run in $(seq 1 "$RUNS"); do
  if (( run % 2 )); then order="eventtime beam"; else order="beam eventtime"; fi
  for side in $order; do
    echo "run $run, $side:$(uptime | sed 's/.*load/ load/')" >&2
    # shellcheck disable=SC2086
    if ! java -Xmx2g ${JOB_JAVA_OPTS:-} -cp "$CP" io.eventtime.benchmarks.flink.FlinkLiveBenchmark \
        "$side" "$WORK" "$WORK/results.tsv" >"$WORK/$side-$run.out" 2>"$WORK/$side-$run.log"; then
      echo "run $run of $side failed (no numbers from it):" >&2
      tail -n 30 "$WORK/$side-$run.log" >&2
      exit 1
    fi
    tail -n 1 "$WORK/$side-$run.out" >&2
  done
done
echo "after the runs:$(uptime | sed 's/.*load/ load/')" >&2
java -cp "$CP" io.eventtime.benchmarks.flink.LiveSummary "$WORK/results.tsv"
