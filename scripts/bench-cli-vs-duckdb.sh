#!/usr/bin/env bash
# Issue 13, goal 1 (docs/benchmarks.md): the eventtime command's local runner against DuckDB over
# the same generated NDJSON file, both writing every result row to a file, three runs interleaved.
#   scripts/bench-cli-vs-duckdb.sh [bytes] [runs] [recipe...]
#     bytes   the size of the events file (default 1 GiB: 1073741824; 268435456 for a quick run)
#     runs    runs of each side per recipe (default 3), in turn: eventtime first in odd runs, DuckDB in even
#     recipe  window-policy pairs (default: tumble-event tumble-window hop-event hop-window session-event
#             session-window); tumble-event is the seed recipe, the goal's ratio
# Environment: BENCH_DIR (default $TMPDIR/eventtime-bench: the events file, kept for the next run, and the
# outputs), MVN_FLAGS (e.g. -o), EVENTTIME_JAVA_OPTS (the eventtime JVM's options, after the launcher's defaults
# for the local runner, cli/src/main/launcher/local-jvm-options, as ./eventtime gives them), RSS_HEAP (default
# -Xmx100m: one more eventtime run of the seed recipe with that heap, for its peak resident memory),
# EVENTTIME_BEFORE (another checkout, built with `mvn -pl cli -am package -DskipTests`: its command runs as a
# third side, "before", beside this one in every run, the before/after of a change measured in the same run; from
# its jars with a class-data archive when its launcher makes one, else from its classes, as its launcher ran it),
# SPARK_SQL=1 (the second peer: Spark SQL in batch, local[2], benchmarks/spark's SparkSqlWindows, in the
# tumble-event recipe only, as a third side; the three sides take turns at going first. Batch Spark SQL has
# no watermark and counts the late rows too, so its rows are not compared with the others': the script
# checks instead that it wrote one row per distinct (merchant, minute) of the file, and one window's count
# and sum against the file).
# Prints one line per run and a table of medians: wall and CPU time (user + system, all threads),
# events/s (the file's rows / wall), peak RSS, and eventtime's ratio to DuckDB (events/s, and CPU per
# event). After each recipe both outputs are sorted and compared: they must be the same lines.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bytes="${1:-1073741824}"
runs="${2:-3}"
shift $(($# > 2 ? 2 : $#))
recipes=("$@")
[[ ${#recipes[@]} -gt 0 ]] || recipes=(tumble-event tumble-window hop-event hop-window session-event session-window)
dir="${BENCH_DIR:-${TMPDIR:-/tmp}/eventtime-bench}"
mkdir -p "$dir"
file="$dir/events-$bytes.ndjson"

echo "building core and cli (test classes: the generator and the DuckDB harness)..." >&2
. "$root/scripts/lib/cli-bench.sh"
build_cli_bench "$root" "$dir"
current_class_data=(${class_data_options[@]+"${class_data_options[@]}"})
before="${EVENTTIME_BEFORE:-}"
before_class_data=()
if [[ -n "$before" ]]; then
  if grep -q '^prepare_class_data()' "$before/cli/src/main/launcher/local-jvm-options.sh" 2>/dev/null; then
    # its launcher starts the command from its jars and a class-data archive: so does its side here
    before_cp="$(command_jars "$before"):$(cat "$before/cli/target/classpath.txt")"
    # shellcheck disable=SC2086
    prepare_class_data java "$before_cp" "$dir/before" ${local_jvm_options[@]+"${local_jvm_options[@]}"} \
      ${EVENTTIME_JAVA_OPTS:-}
    before_class_data=(${class_data_options[@]+"${class_data_options[@]}"})
  else
    before_cp="$before/cli/target/classes:$before/core/target/classes:$(cat "$before/cli/target/classpath.txt")"
  fi
fi
spark_sql="${SPARK_SQL:-}"
if [[ -n "$spark_sql" ]]; then
  echo "building benchmarks/spark (SparkSqlWindows)..." >&2
  # shellcheck disable=SC2086
  mvn -q -B ${MVN_FLAGS:-} -f "$root/pom.xml" -pl benchmarks/spark -am compile dependency:build-classpath \
    -Dmdep.outputFile="$dir/classpath-spark.txt" -Djacoco.skip=true >&2
  spark_cp="$root/benchmarks/spark/target/classes:$(cat "$dir/classpath-spark.txt")"
  # the flags scripts/bench-beam-runners.sh gives Spark: it reaches into these JDK packages
  spark_opens=(--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
    --add-opens=java.base/java.lang.invoke=ALL-UNNAMED)
fi
[[ -f "$file" ]] || java -cp "$test_cp" io.eventtime.cli.bench.GenerateEvents "$file" "$bytes"
rows="$(wc -l <"$file")"
echo "file: $file, $(stat -c %s "$file") bytes, $rows rows; $(nproc) cores; commit $(git -C "$root" rev-parse --short HEAD)$(
  git -C "$root" diff --quiet HEAD -- cli core || echo ' + uncommitted changes')" >&2

query() { # window: the eventtime query of that window, the same windows as DuckDbWindows's
  case "$1" in
    tumble) echo "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(amount) AS total
      FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)" ;;
    hop) echo "SELECT merchant, HOP(event_time, INTERVAL 30 SECOND, INTERVAL 1 MINUTE) AS w, count(*) AS n,
      sum(amount) AS total FROM events GROUP BY merchant, HOP(event_time, INTERVAL 30 SECOND, INTERVAL 1 MINUTE)" ;;
    session) echo "SELECT merchant, SESSION(event_time, INTERVAL 1 MINUTE) AS w, SESSION_END(event_time, INTERVAL 1 MINUTE)
      AS e, count(*) AS n, sum(amount) AS total FROM events GROUP BY merchant, SESSION(event_time, INTERVAL 1 MINUTE)" ;;
    *) echo "no window $1: tumble, hop or session" >&2; exit 2 ;;
  esac
}

results="$dir/results.tsv"
: >"$results"
measure() { # recipe side run stdout rows command...: one timed run, a line in the results; rows: the result
  # file, or a directory of part files (Spark's)
  local recipe="$1" side="$2" run="$3" out="$4" result="$5"; shift 5
  /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" >"$out"
  local lines
  if [[ -d "$result" ]]; then lines="$(cat "$result"/part-* | wc -l)"; else lines="$(wc -l <"$result")"; fi
  [[ "$side" == duckdb || "$side" == spark-sql ]] || lines=$((lines - 1)) # eventtime's last line is the stats line
  read -r wall user sys rss <"$dir/time"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$recipe" "$side" "$run" "$wall" "$(python3 -c "print($user + $sys)")" \
    "$rss" "$lines" >>"$results"
  printf '%-15s %-9s run %s: wall %6.2f s  cpu %6.2f s  peak RSS %5d MiB  %d result rows\n' "$recipe" "$side" "$run" \
    "$wall" "$(python3 -c "print($user + $sys)")" $((rss / 1024)) "$lines" >&2
}

eventtime() { # window policy out [java options]: this checkout's command (and the one before, if given)
  local window="$1" policy="$2" out="$3"; shift 3
  # shellcheck disable=SC2086
  measure "$window-$policy" eventtime "$run" "$out" "$out" java ${local_jvm_options[@]+"${local_jvm_options[@]}"} \
    ${current_class_data[@]+"${current_class_data[@]}"} ${EVENTTIME_JAVA_OPTS:-} "$@" -cp "$cp" io.eventtime.cli.Main \
    --from "$file" --table events --watermark-delay '5 MINUTE' --late-policy "$policy" "$(query "$window")"
  if [[ -n "$before" && "$run" != heap ]]; then
    # shellcheck disable=SC2086
    measure "$window-$policy" before "$run" "$dir/before.ndjson" "$dir/before.ndjson" java ${local_jvm_options[@]+"${local_jvm_options[@]}"} \
      ${before_class_data[@]+"${before_class_data[@]}"} ${EVENTTIME_JAVA_OPTS:-} "$@" \
      -cp "$before_cp" io.eventtime.cli.Main --from "$file" --table events --watermark-delay '5 MINUTE' \
      --late-policy "$policy" "$(query "$window")"
    cmp -s "$out" "$dir/before.ndjson" || {
      echo "   THE RESULTS DIFFER FROM BEFORE: compare $out and $dir/before.ndjson" >&2; exit 1; }
  fi
}

duckdb() { # window policy out
  # the harness copies the result to the file itself; its stdout is its own timing line
  measure "$1-$2" duckdb "$run" "$dir/duckdb-stdout.txt" "$3" java -cp "$test_cp" io.eventtime.cli.bench.DuckDbWindows \
    "$file" "$3" "$1" "$2"
}

sql() { # out: SparkSqlWindows, the seed recipe; Spark's log goes to a file (exec: GNU time measures the JVM)
  # shellcheck disable=SC2016
  measure tumble-event spark-sql "$run" "$dir/spark-sql-stdout.txt" "$1" bash -c 'exec 2>"$0"; exec "$@"' \
    "$dir/spark-sql.log" java "${spark_opens[@]}" -cp "$spark_cp" io.eventtime.benchmarks.spark.SparkSqlWindows "$file" "$1"
}

check_spark_sql() { # out: one row per distinct (merchant, minute) of the file, and its first row's count and sum
  local out="$1" pairs first merchant minute expected
  # a line: {"merchant":"m123","amount":250,"event_time":"2026-07-18 10:00:03"}; split at the quotes
  pairs="$(awk -F'"' '!seen[$4 " " substr($10, 1, 16)]++ { n++ } END { print n }' "$file")"
  if [[ "$(cat "$out"/part-* | wc -l)" != "$pairs" ]]; then
    echo "   SPARK SQL WROTE $(cat "$out"/part-* | wc -l) ROWS, THE FILE HAS $pairs (merchant, minute) PAIRS" >&2; exit 1
  fi
  first="$(head -n 1 "$(ls "$out"/part-* | head -n 1)")"
  merchant="$(echo "$first" | python3 -c 'import json, sys; print(json.load(sys.stdin)["merchant"])')"
  minute="$(echo "$first" | python3 -c 'import json, sys; print(json.load(sys.stdin)["w"][:16])')"
  expected="$(awk -F'"' -v m="$merchant" -v t="$minute" '$4 == m && substr($10, 1, 16) == t {
    n++; a = $7; gsub(/[^0-9]/, "", a); total += a } END { printf "{\"merchant\":\"%s\",\"w\":\"%s:00\",\"n\":%d,\"total\":%d}", m, t, n, total }' "$file")"
  if [[ "$first" != "$expected" ]]; then
    echo "   SPARK SQL'S ROW $first IS NOT THE FILE'S $expected" >&2; exit 1
  fi
  echo "   Spark SQL: one row per (merchant, minute) of the file, $pairs (late rows counted too); $first as the file has it" >&2
}

for recipe in "${recipes[@]}"; do
  window="${recipe%-*}"
  policy="${recipe#*-}"
  with_duckdb=yes
  [[ "$recipe" == session-window ]] && with_duckdb=no # a late row joining an open session: not one SQL query
  echo "== $recipe: $(uptime)" >&2
  for ((run = 1; run <= runs; run++)); do
    if [[ -n "$spark_sql" && "$recipe" == tumble-event ]]; then
      case $((run % 3)) in # each side goes first in one run of three
        1) eventtime "$window" "$policy" "$dir/eventtime.ndjson"; duckdb "$window" "$policy" "$dir/duckdb.ndjson"
           sql "$dir/spark-sql.out" ;;
        2) duckdb "$window" "$policy" "$dir/duckdb.ndjson"; sql "$dir/spark-sql.out"
           eventtime "$window" "$policy" "$dir/eventtime.ndjson" ;;
        0) sql "$dir/spark-sql.out"; eventtime "$window" "$policy" "$dir/eventtime.ndjson"
           duckdb "$window" "$policy" "$dir/duckdb.ndjson" ;;
      esac
    elif [[ $with_duckdb == yes && $((run % 2)) -eq 0 ]]; then
      duckdb "$window" "$policy" "$dir/duckdb.ndjson"
      eventtime "$window" "$policy" "$dir/eventtime.ndjson"
    else
      eventtime "$window" "$policy" "$dir/eventtime.ndjson"
      [[ $with_duckdb == no ]] || duckdb "$window" "$policy" "$dir/duckdb.ndjson"
    fi
  done
  echo "   after: $(uptime)" >&2
  tail -n 1 "$dir/eventtime.ndjson" >&2
  if [[ $with_duckdb == yes ]]; then
    head -n -1 "$dir/eventtime.ndjson" | LC_ALL=C sort >"$dir/eventtime.sorted"
    LC_ALL=C sort "$dir/duckdb.ndjson" >"$dir/duckdb.sorted"
    if cmp -s "$dir/eventtime.sorted" "$dir/duckdb.sorted"; then
      echo "   the same $(wc -l <"$dir/duckdb.sorted") result rows on both sides" >&2
    else
      echo "   THE RESULTS DIFFER: compare $dir/eventtime.sorted and $dir/duckdb.sorted" >&2
      exit 1
    fi
    rm -f "$dir/eventtime.sorted" "$dir/duckdb.sorted"
  fi
  [[ -z "$spark_sql" || "$recipe" != tumble-event ]] || check_spark_sql "$dir/spark-sql.out"
done

if [[ -n "${RSS_HEAP-"-Xmx100m"}" ]]; then
  run=heap
  echo "== tumble-event with ${RSS_HEAP:--Xmx100m}: $(uptime)" >&2
  eventtime tumble event "$dir/eventtime.ndjson" "${RSS_HEAP:--Xmx100m}"
fi

echo "== done: $(uptime)" >&2
python3 - "$results" "$rows" <<'PY'
import statistics, sys
path, rows = sys.argv[1], int(sys.argv[2])
by = {}
for line in open(path):
    recipe, side, run, wall, cpu, rss, lines = line.rstrip("\n").split("\t")
    if run == "heap":
        side = "eventtime, capped heap"
    by.setdefault((recipe, side), []).append((float(wall), float(cpu), int(rss), int(lines)))
med = {k: (statistics.median(w for w, _, _, _ in v), statistics.median(c for _, c, _, _ in v),
           max(r for _, _, r, _ in v), v[0][3], len(v)) for k, v in by.items()}
print(f"{rows} events in the file; medians of the runs")
spark = any(side == "spark-sql" for _, side in med)
print("| recipe | side | runs | wall s | CPU s | events/s | peak RSS MiB | result rows | x DuckDB (events/s) | x DuckDB (CPU) |"
      + (" x Spark SQL (events/s) | x Spark SQL (CPU) |" if spark else ""))
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if spark else ""))
def ratios(peer, recipe, side):  # the peer's wall and CPU over this side's: > 1, this side is faster
    p = med.get((recipe, peer))
    if not p or side not in ("eventtime", "before"):
        return "|  |  "
    wall, cpu = med[(recipe, side)][:2]
    return f"| {p[0] / wall:.2f} | {p[1] / cpu:.2f} "
for (recipe, side), (wall, cpu, rss, lines, n) in med.items():
    print(f"| {recipe} | {side} | {n} | {wall:.2f} | {cpu:.2f} | {rows / wall / 1e6:.2f} M | {rss / 1024:.0f} | {lines} "
          + ratios("duckdb", recipe, side) + (ratios("spark-sql", recipe, side) if spark else "") + "|")
PY
