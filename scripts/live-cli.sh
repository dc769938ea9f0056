#!/usr/bin/env bash
# A live stream on the command line, on one machine: starts a Kafka broker on 127.0.0.1 (a free
# port), produces orders to topic "orders" at a steady rate, and runs the eventtime command on the
# topic, which prints each merchant-minute window the moment the watermark closes it (the late
# orders go to samples/target/live-cli/late.ndjson). Stop it with Ctrl-C (the command finishes
# cleanly: the open windows are emitted, then the stats line), or give how long to run.
#   scripts/live-cli.sh [seconds (0: until stopped)] [orders per second (5)]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-0}
RATE=${2:-5}
WORK=$PWD/samples/target/live-cli
mkdir -p "$WORK"
# the broker module's class path holds the broker (kafka_2.13) and the feed
mvn -B -q -ntp -pl testing/kafka-broker -am compile dependency:build-classpath \
  -Dmdep.outputFile="$WORK/cp.txt" >&2
CP="$PWD/testing/kafka-broker/target/classes:$(cat "$WORK/cp.txt")"
. scripts/lib/sample-feed.sh
FEED=
trap 'kill $FEED 2>/dev/null || true; wait $FEED 2>/dev/null || true' EXIT
start_sample_feed "$CP" "$WORK" "$RATE" orders
echo "broker at $SERVERS, topic orders, $RATE orders a second; the windows as they close:" >&2
QUERY="SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS window_start, count(*) AS orders,
  sum(amount) AS amount FROM orders GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)"
COMMAND=(./eventtime --from "kafka://$SERVERS/orders" --watermark-delay '30 SECOND' --infer-rows 1
  --late-output "file://$WORK/late.ndjson" "$QUERY")
if [ "$SECONDS_TO_RUN" -gt 0 ]; then
  "${COMMAND[@]}" &
  RUN=$!
  # Ctrl-C in the terminal reaches the command too; a timed run is ended with SIGTERM as a service manager would
  trap 'kill $RUN 2>/dev/null || true; kill $FEED 2>/dev/null || true; wait 2>/dev/null || true' EXIT
  sleep "$SECONDS_TO_RUN"
  kill -TERM $RUN
  wait $RUN
else
  "${COMMAND[@]}"
fi
