#!/usr/bin/env bash
# The long run of the command's fuzz test (cli/src/test/java/io/eventtime/cli/CommandFuzzTest.java):
# random queries, NDJSON lines and flags, with a new random seed each round, checked in-process for
# no INTERNAL_ERROR or stack trace and for no row lost. The normal suite runs a short fixed-seed run.
#   scripts/fuzz.sh [TRIES_PER_ROUND] [ROUNDS]     (defaults: 5000 tries, 1 round)
# A failure prints the shrunk case and its seed; add the case to the corpus in the test once it is fixed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tries="${1:-5000}"
rounds="${2:-1}"
for ((round = 1; round <= rounds; round++)); do
  echo "fuzz: round $round of $rounds, $tries tries" >&2
  mvn -B -q -f "$root/pom.xml" test -pl cli -am -Dtest='CommandFuzzTest#long*' -Dsurefire.failIfNoSpecifiedTests=false \
    -Deventtime.fuzz.long=true -Djqwik.tries.default="$tries"
done
echo "fuzz: no failure in $rounds round(s) of $tries tries" >&2
