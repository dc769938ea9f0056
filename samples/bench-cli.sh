#!/usr/bin/env bash
# The eventtime command line's benchmark on the seed recipe (docs/benchmarks.md, issue 13 goal 1): the local
# runner on a generated NDJSON file (1 GiB by default) beside DuckDB, one run each, both writing every window
# to a file. The full benchmark (three runs interleaved, every window kind and policy, medians and ratios) is
# scripts/bench-cli-vs-duckdb.sh, which this runs.
#   samples/bench-cli.sh [bytes] [dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="${2:-${TMPDIR:-/tmp}/eventtime-bench}" RSS_HEAP="${RSS_HEAP-}" \
  exec "$root/scripts/bench-cli-vs-duckdb.sh" "${1:-1073741824}" 1 tumble-event
