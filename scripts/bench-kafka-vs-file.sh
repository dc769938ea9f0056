#!/usr/bin/env bash
# Issue 12's benchmark (docs/benchmarks.md): the local runner over a Kafka topic of 1 and of 3
# partitions (--until available) beside the same rows from a file, each a JVM of its own, the
# broker in another (so a run's CPU time is the command's, not the broker's), and a bare Kafka
# consumer polling the 1-partition topic as the floor of any Kafka read. Builds core and cli,
# generates the file once (the DuckDB benchmark's generator: seed-page-shaped rows), starts the
# broker and produces the topics, then runs each side in turn (the order rotates every run) and
# prints medians of wall and CPU time (user + system, all threads) and the ratios to the file.
# Every side runs with the launcher's JVM options for the local runner (cli/src/main/launcher/local-jvm-options),
# then EVENTTIME_JAVA_OPTS, as ./eventtime runs the command; the command's sides from its jars and their
# class-data archive (made in BENCH_DIR), as the launcher starts it.
#   scripts/bench-kafka-vs-file.sh [bytes (default 68000000, about 1M rows)] [runs (default 3)]
# MVN_FLAGS adds Maven flags (e.g. -o); BENCH_DIR where the file and logs go.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bytes="${1:-68000000}"
runs="${2:-3}"
dir="${BENCH_DIR:-${TMPDIR:-/tmp}/eventtime-kafka-bench}"
mkdir -p "$dir"
rm -f "$dir/stop" "$dir/broker.properties" "$dir/results.tsv"
file="$dir/events-$bytes.ndjson"
echo "building core and cli..." >&2
. "$root/scripts/lib/cli-bench.sh"
build_cli_bench "$root" "$dir"
[[ -f "$file" ]] || java -cp "$test_cp" io.eventtime.cli.bench.GenerateEvents "$file" "$bytes"
java -Xmx2g -cp "$test_cp" io.eventtime.cli.bench.KafkaTopics serve "$file" "$dir" >"$dir/broker.log" 2>&1 &
broker=$!
trap 'touch "$dir/stop"; wait $broker 2>/dev/null || true' EXIT
until [[ -f "$dir/broker.properties" ]]; do
  kill -0 "$broker" 2>/dev/null || { echo "the broker JVM ended:" >&2; tail -20 "$dir/broker.log" >&2; exit 1; }
  sleep 1
done
servers="$(sed -n 's/^bootstrap.servers=//p' "$dir/broker.properties")"
rows="$(sed -n 's/^rows=//p' "$dir/broker.properties")"
echo "$rows rows in $file and in topics one (1 partition) and three (3) at $servers; $(nproc) cores; commit $(
  git -C "$root" rev-parse --short HEAD)" >&2
sql="SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(amount) AS total FROM events
  GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)"
side() { # name run: one timed run of that side, a line in results.tsv
  local name="$1" run="$2"
  case "$name" in
    file) set -- java ${local_jvm_options[@]+"${local_jvm_options[@]}"} ${class_data_options[@]+"${class_data_options[@]}"} ${EVENTTIME_JAVA_OPTS:-} -cp "$cp" io.eventtime.cli.Main --from "$file" --table events --watermark-delay '5 MINUTE' "$sql" ;;
    kafka1) set -- java ${local_jvm_options[@]+"${local_jvm_options[@]}"} ${class_data_options[@]+"${class_data_options[@]}"} ${EVENTTIME_JAVA_OPTS:-} -cp "$cp" io.eventtime.cli.Main --from "kafka://$servers/one" --until available --table events \
      --watermark-delay '5 MINUTE' "$sql" ;;
    kafka3) set -- java ${local_jvm_options[@]+"${local_jvm_options[@]}"} ${class_data_options[@]+"${class_data_options[@]}"} ${EVENTTIME_JAVA_OPTS:-} -cp "$cp" io.eventtime.cli.Main --from "kafka://$servers/three" --until available --table events \
      --watermark-delay '5 MINUTE' "$sql" ;;
    consumer) set -- java ${local_jvm_options[@]+"${local_jvm_options[@]}"} ${EVENTTIME_JAVA_OPTS:-} -cp "$test_cp" io.eventtime.cli.bench.KafkaTopics consume "$servers" one ;;
  esac
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" >"$dir/$name.out" 2>"$dir/$name.err" || {
    echo "$name failed:" >&2; tail -5 "$dir/$name.err" >&2; exit 1; }
  read -r wall user sys <"$dir/time"
  cpu="$(python3 -c "print(round($user + $sys, 2))")"
  printf '%s\t%s\t%s\t%s\n' "$name" "$run" "$wall" "$cpu" >>"$dir/results.tsv"
  printf '%-9s run %s: wall %6.2f s  cpu %6.2f s  %s\n' "$name" "$run" "$wall" "$cpu" "$(tail -1 "$dir/$name.out" | cut -c1-60)" >&2
}
sides=(file kafka1 kafka3 consumer)
for run in $(seq 1 "$runs"); do
  echo "run $run:$(uptime | sed 's/.*load/ load/')" >&2
  for i in 0 1 2 3; do
    side "${sides[$(((i + run - 1) % 4))]}" "$run"
  done
done
cmp -s <(sort "$dir/file.out") <(sort "$dir/kafka1.out") || echo "THE 1-PARTITION RUN PRINTED OTHER ROWS THAN THE FILE RUN" >&2
echo "after the runs:$(uptime | sed 's/.*load/ load/')" >&2
python3 - "$dir/results.tsv" <<'PY'
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter='\t'))
med = {}
for side in ('file', 'kafka1', 'kafka3', 'consumer'):
    r = [x for x in rows if x[0] == side]
    med[side] = (statistics.median(float(x[2]) for x in r), statistics.median(float(x[3]) for x in r))
print('| side | wall (median) | CPU (median) | wall / file | CPU / file |')
print('|---|---:|---:|---:|---:|')
names = {'file': 'file', 'kafka1': 'Kafka, 1 partition', 'kafka3': 'Kafka, 3 partitions', 'consumer': 'bare consumer, 1 partition'}
for side, (w, c) in med.items():
    print(f'| {names[side]} | {w:.2f} s | {c:.2f} s | {w / med["file"][0]:.2f}x | {c / med["file"][1]:.2f}x |')
PY
