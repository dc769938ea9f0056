#!/usr/bin/env bash
# The eventtime command line's benchmark (docs/benchmarks.md, issue 3): the local runner on a generated
# NDJSON file (1 GiB by default), beside DuckDB computing the same answer with its own JSON reader.
# Prints each side's wall time, events/s and peak resident memory (from /usr/bin/time).
#   samples/bench-cli.sh [bytes] [dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bytes="${1:-1073741824}"
dir="${2:-${TMPDIR:-/tmp}/eventtime-bench}"
mkdir -p "$dir"
file="$dir/events-$bytes.ndjson"

mvn -q -B -f "$root/pom.xml" install -pl core,cli -am -DskipTests >&2
cp="$root/cli/target/test-classes:$root/cli/target/classes:$root/core/target/classes:$(cat "$root/cli/target/classpath.txt")"
(cd "$root/cli" && mvn -q -B -Dstyle.color=never dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$dir/test-classpath.txt" >&2)
duck="$(cat "$dir/test-classpath.txt")"
[[ -f "$file" ]] || java -cp "$cp" io.eventtime.cli.bench.GenerateEvents "$file" "$bytes"
rows="$(wc -l <"$file")"
echo "file: $file, $(stat -c %s "$file") bytes, $rows rows" >&2

measure() { # name, command...: wall and CPU seconds, peak RSS, and the last line the command printed
  local name="$1"; shift
  local out
  out="$(/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" | tail -n 1)"
  python3 - "$name" "$rows" "$out" $(cat "$dir/time") <<'PY'
import sys
name, rows, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
wall, user, system, rss = float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
print(f"{name:10s} wall {wall:6.2f} s ({rows / wall / 1e6:5.2f} M events/s)  cpu {user + system:6.2f} s"
      f"  peak RSS {rss / 1024:6.0f} MiB  {out}")
PY
}

sql="SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(amount) AS total
     FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)"
uptime >&2
measure eventtime java ${EVENTTIME_JAVA_OPTS:-} -cp "$cp" io.eventtime.cli.Main --from "$file" --table events \
  --watermark-delay '5 MINUTE' --late-policy event "$sql"
measure duckdb java -cp "$cp:$duck" io.eventtime.cli.bench.DuckDbBaseline "$file"
