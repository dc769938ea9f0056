# Sourced by the live scripts: starts SampleFeed (a broker on 127.0.0.1 on a free port, producing
# orders to a one-partition topic at a steady rate) in the background and waits until it serves.
#   start_sample_feed CLASSPATH WORK_DIR RATE TOPIC
# sets FEED (its pid; the caller's EXIT trap stops it) and SERVERS (host:port).
start_sample_feed() {
  local cp=$1 work=$2 rate=$3 topic=$4
  java -cp "$cp" io.eventtime.testing.kafka.SampleFeed "$rate" "$topic" >"$work/feed.log" 2>"$work/feed.err" &
  FEED=$!
  for _ in $(seq 1 120); do
    grep -q '^bootstrap.servers=' "$work/feed.log" 2>/dev/null && break
    kill -0 "$FEED" 2>/dev/null || { echo "the broker did not start:" >&2; cat "$work/feed.err" >&2; return 1; }
    sleep 0.5
  done
  SERVERS=$(sed -n 's/^bootstrap.servers=//p' "$work/feed.log")
  [ -n "$SERVERS" ] || { echo "the broker did not start within 60 s: $work/feed.err" >&2; return 1; }
}
