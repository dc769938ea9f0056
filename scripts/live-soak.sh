#!/usr/bin/env bash
# The soak of issue 11: random one-partition live streams with late and unreadable rows, each equal
# to core's processor over its own rows (the replay). On the Direct runner from TestStream
# (beam-transforms LiveSoakTest), on embedded Flink streaming from the test Kafka broker
# (runners/flink FlinkLiveSoakTest); many streams share a pipeline (docs/live-streams.md,
# "What is tested where"). The suite runs 24 of each; this runs more, at the lowest CPU priority.
#   scripts/live-soak.sh [direct N] [flink N]      (no argument: direct 1000 flink 1000)
# It prints, per runner, the streams, the seconds and the result; it fails if either fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -eq 0 ] && set -- direct 1000 flink 1000
runs=()
while [ $# -gt 0 ]; do
  case "$1" in
    direct|flink) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "live-soak: '$1' wants a number of streams, e.g. '$1 1000'" >&2; exit 2; }
      runs+=("$1 $2"); shift 2 ;;
    *) echo "usage: scripts/live-soak.sh [direct N] [flink N]" >&2; exit 2 ;;
  esac
done
failed=0
for run in "${runs[@]}"; do
  read -r runner streams <<<"$run"
  if [ "$runner" = direct ]; then
    module=beam-transforms test=LiveSoakTest property=eventtime.live.soak.streams
  else
    module=runners/flink test=FlinkLiveSoakTest property=eventtime.flink.live.soak.streams
  fi
  echo "live-soak: $runner, $streams streams ($test)" >&2
  start=$(date +%s)
  if nice -n 19 mvn -B -q -o -f "$root/pom.xml" test -pl "$module" -am -Dtest="$test" \
      -Dsurefire.failIfNoSpecifiedTests=false -Djacoco.skip=true -D"$property"="$streams" >&2; then
    result=passed
  else
    result=FAILED failed=1
  fi
  echo "live-soak: $runner: $streams streams, $(( $(date +%s) - start )) s, $result"
done
exit $failed
