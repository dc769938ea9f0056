#!/usr/bin/env bash
# The live sample (docs/live-streams.md, "Try it"): a Kafka broker on this machine (127.0.0.1, a
# free port) fed with orders at a steady rate, and the sample job reading the topic on the Direct
# runner in streaming, printing each merchant-minute window as the watermark closes it and each
# late order. Stop it with Ctrl-C, or give how long to run.
#   scripts/live-sample.sh [seconds (0: until stopped)] [orders per second (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-0}
RATE=${2:-5}
WORK=$PWD/samples/target/live-sample
mkdir -p "$WORK"
# the samples' test class path holds the test broker module (SampleFeed) next to the sample
mvn -B -q -ntp -pl samples -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/cp.txt" >&2
CP="$PWD/samples/target/classes:$(cat "$WORK/cp.txt")"
. scripts/lib/sample-feed.sh
FEED=
trap 'kill $FEED 2>/dev/null || true; wait $FEED 2>/dev/null || true' EXIT
start_sample_feed "$CP" "$WORK" "$RATE" orders
echo "broker at $SERVERS, topic orders, $RATE orders a second; the windows as they close:" >&2
java -cp "$CP" io.eventtime.samples.LiveMerchantMinutes --bootstrapServers="$SERVERS" --topic=orders \
  --seconds="$SECONDS_TO_RUN" 2>"$WORK/job.err"
