#!/usr/bin/env bash
# Issue 13, goals 2 and 3 (docs/benchmarks.md): EventTimeWindow against plain Beam windowing
# (Window.into + Combine.perKey of count and sum) over the same bounded events, on the DirectRunner,
# an embedded Flink in batch mode ([local], 2 tasks) and Spark local[2]: tumbling and hopping windows
# on all three, sessions on Direct and Flink. Builds benchmarks/, benchmarks/flink and benchmarks/spark
# (one class path per runner: Flink's and Spark's Kryo clash), then for each (runner, window) runs
# three sides in turn, EventTimeWindow under each late policy (window, event) and plain Beam, the
# order turned by one each run, each run a fresh JVM (io.eventtime.benchmarks.RunnerBenchmark) whose
# output is checked before its numbers count; prints the medians and ratios as a Markdown table.
# Sessions default to fewer events: EventTimeWindow's sessions on the DirectRunner took about 60 CPU-s
# per 200,000 events when this was written. Each run's line and log stay in benchmarks/target/bench-runners/.
#   scripts/bench-beam-runners.sh [events] [runs] [session events]     (default: 1000000 3 200000)
# RUNNERS picks runners (default: "direct flink spark"); MVN_FLAGS adds Maven flags (e.g. -o);
# JOB_JAVA_OPTS adds JVM options to the runs (e.g. a JFR recording); PIPELINE_ARGS adds pipeline
# options to both sides (e.g. RUNNERS=spark PIPELINE_ARGS=--storageLevel=MEMORY_ONLY_SER); SIDES picks the
# sides (default "eventtime:window beam:- eventtime:event"; beam-stored:- is plain Beam with its rows
# stored once, beam-stored-fields:- the same storing only key, amount and time, an element per row:
# what looking at its rows twice costs a plain Beam pipeline on Spark). Run it under
# `nice -n 19` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
EVENTS=${1:-1000000}
RUNS=${2:-3}
SESSION_EVENTS=${3:-200000}
RUNNERS=${RUNNERS:-direct flink spark}
WORK=$PWD/benchmarks/target/bench-runners
rm -rf "$WORK"
mkdir -p "$WORK"

# shellcheck disable=SC2086
mvn -B -q -ntp ${MVN_FLAGS:-} -pl benchmarks,benchmarks/flink,benchmarks/spark -am compile \
  dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -Djacoco.skip=true >&2

# the flags runners/spark's tests run with: Spark reaches into these JDK packages
SPARK_OPENS="--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.lang.invoke=ALL-UNNAMED"

class_path() {
  local module=benchmarks
  [ "$1" = direct ] || module=benchmarks/$1
  echo "$PWD/$module/target/classes:$(cat "$module/target/bench-classpath.txt")"
}

windows() {
  case $1 in
    spark) echo "tumbling hopping" ;;  # goal 3 asks sessions of Direct and Flink only
    *) echo "tumbling hopping session" ;;
  esac
}

echo "before the runs:$(uptime | sed 's/.*load/ load/')" >&2
for runner in $RUNNERS; do
  CP=$(class_path "$runner")
  opens=""
  [ "$runner" = spark ] && opens=$SPARK_OPENS
  for window in $(windows "$runner"); do
    events=$EVENTS
    [ "$window" = session ] && events=$SESSION_EVENTS
    # shellcheck disable=SC2206
    sides=(${SIDES:-eventtime:window beam:- eventtime:event})
    for run in $(seq 1 "$RUNS"); do
      for ((i = 0; i < ${#sides[@]}; i++)); do
        side=${sides[$(((i + run - 1) % ${#sides[@]}))]}
        name="$runner-$window-${side/:/-}-$run"
        # shellcheck disable=SC2086
        if ! java -Xmx3g $opens ${JOB_JAVA_OPTS:-} -cp "$CP" io.eventtime.benchmarks.RunnerBenchmark \
            "$runner" "${side%%:*}" "$window" "${side##*:}" "$events" "$WORK/results.tsv" ${PIPELINE_ARGS:-} \
            >"$WORK/$name.out" 2>"$WORK/$name.log"; then
          echo "$name failed (no numbers from it):" >&2
          tail -n 30 "$WORK/$name.log" >&2
          exit 1
        fi
        echo "$(tail -n 1 "$WORK/$name.out")	$(uptime | sed 's/.*load average: //')" >&2
      done
    done
  done
done
echo "after the runs:$(uptime | sed 's/.*load/ load/')" >&2
java -cp "$(class_path direct)" io.eventtime.benchmarks.RunnerSummary "$WORK/results.tsv"
