package io.eventtime.cli.bench;

import io.eventtime.cli.Main;
import io.eventtime.testing.kafka.KafkaBroker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The window-close latency of the command line on a live topic (issue 12's benchmark): rows are
 * produced at a steady rate to a topic of the test broker (in this JVM), their event times
 * following the wall clock (a few behind), while {@code eventtime --from kafka://...} runs in a
 * JVM of its own; for each one-second window, the time from producing the row that closed it to
 * reading its last printed line. Both instants are taken in this JVM, on one clock.
 *
 * <p>A window {@code [s, s + 1 s)} closes once every partition has a row at or after
 * {@code s + 1 s + delay}: the batch that gives the last partition such a row is the one that
 * closed it. The first seconds (start-up, JIT) and the windows drained at the stop are left out.
 *
 * <pre>java -cp ... io.eventtime.cli.bench.KafkaCloseLatency [rows/s (1000)] [seconds (60)] [partitions (1)] [--state]</pre>
 */
public final class KafkaCloseLatency {
  private static final long T0 = LocalDateTime.parse("2026-07-18T10:00:00").toInstant(ZoneOffset.UTC).toEpochMilli();
  private static final long DELAY_MILLIS = 1_000;
  private static final long WINDOW_MILLIS = 1_000;
  private static final int KEYS = 100;
  private static final long TICK_MILLIS = 10;
  private static final long WARM_UP_MILLIS = 5_000;
  private static final String SQL = "SELECT k, TUMBLE(ts, INTERVAL 1 SECOND) AS w, count(*) AS n, sum(v) AS total"
      + " FROM t GROUP BY k, TUMBLE(ts, INTERVAL 1 SECOND)";
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
  private static final Pattern WINDOW = Pattern.compile("\"w\":\"([^\"]+)\"");

  private KafkaCloseLatency() {}

  public static void main(String[] args) throws Exception {
    int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    boolean withState = Arrays.asList(args).contains("--state");
    try (KafkaBroker broker = KafkaBroker.start()) {
      broker.createTopic("live", partitions);
      Path dir = Files.createTempDirectory("eventtime-latency-");
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
          "--from", "kafka://" + broker.bootstrapServers() + "/live", "--table", "t", "--infer-rows", "1",
          "--watermark-delay", "1 SECOND", "--quiet"));
      if (withState) {
        command.addAll(List.of("--state", dir.resolve("state").toString()));
      }
      command.add(SQL);
      // one row before the start, so the schema is known at once
      broker.produce("live", 0, row(0, T0, 0));
      Process p = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
      Map<Long, Long> printed = new ConcurrentHashMap<>(); // window end -> nanos its last line was read
      Thread reader = new Thread(() -> readLines(p, printed));
      reader.setDaemon(true);
      reader.start();

      // closedAt: window end -> nanos of the produce call that closed it
      TreeMap<Long, Long> closedAt = new TreeMap<>();
      long[] partitionMax = new long[partitions];
      Arrays.fill(partitionMax, Long.MIN_VALUE);
      SplittableRandom random = new SplittableRandom(12);
      long start = System.nanoTime();
      long nextClosing = T0 + WINDOW_MILLIS; // the end of the next window to close
      long produced = 0;
      for (long tick = 0; tick * TICK_MILLIS < seconds * 1000L; tick++) {
        long due = start + TimeUnit.MILLISECONDS.toNanos(tick * TICK_MILLIS);
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        long eventTime = T0 + tick * TICK_MILLIS;
        long rowsNow = (tick + 1) * rate * TICK_MILLIS / 1000 - tick * rate * TICK_MILLIS / 1000;
        List<List<String>> byPartition = new ArrayList<>();
        for (int q = 0; q < partitions; q++) {
          byPartition.add(new ArrayList<>());
        }
        for (long i = 0; i < rowsNow; i++, produced++) {
          int q = (int) (produced % partitions);
          // one row in fifty up to two seconds behind: late for some windows
          long ts = random.nextInt(50) == 0 ? eventTime - random.nextLong(2_000) : eventTime;
          byPartition.get(q).add(row(produced % KEYS, ts, produced % 97));
          partitionMax[q] = Math.max(partitionMax[q], ts);
        }
        long sentAt = System.nanoTime();
        for (int q = 0; q < partitions; q++) {
          if (!byPartition.get(q).isEmpty()) {
            broker.produce("live", q, byPartition.get(q).toArray(String[]::new));
          }
        }
        long least = Arrays.stream(partitionMax).min().getAsLong();
        while (least >= nextClosing + DELAY_MILLIS) {
          closedAt.put(nextClosing, sentAt);
          nextClosing += WINDOW_MILLIS;
        }
      }
      // the last windows closed need time to be printed before the stop drains the rest
      Thread.sleep(3_000);
      new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
      p.waitFor(60, TimeUnit.SECONDS);
      reader.join(10_000);

      List<Long> latencies = new ArrayList<>();
      for (Map.Entry<Long, Long> e : closedAt.entrySet()) {
        Long seen = printed.get(e.getKey());
        if (e.getKey() - T0 < WARM_UP_MILLIS || seen == null) {
          continue;
        }
        latencies.add(TimeUnit.NANOSECONDS.toMicros(seen - e.getValue()));
      }
      latencies.sort(null);
      if (latencies.isEmpty()) {
        throw new IllegalStateException("no window was printed while the run went on: see " + dir.resolve("stderr.txt"));
      }
      System.out.printf("%d rows/s, %d s, %d partition(s)%s: %d windows closed while running (%d rows produced)%n",
          rate, seconds, partitions, withState ? ", --state" : "", latencies.size(), produced);
      System.out.printf("close latency, produce to printed line: median %.1f ms, p90 %.1f ms, p99 %.1f ms,"
          + " max %.1f ms%n", ms(latencies, 0.5), ms(latencies, 0.9), ms(latencies, 0.99),
          latencies.get(latencies.size() - 1) / 1000.0);
    }
  }

  private static double ms(List<Long> sorted, double q) {
    int i = (int) Math.min(sorted.size() - 1, Math.ceil(q * sorted.size()) - 1);
    return sorted.get(Math.max(0, i)) / 1000.0;
  }

  private static void readLines(Process p, Map<Long, Long> printed) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        long now = System.nanoTime();
        Matcher m = WINDOW.matcher(line);
        if (m.find()) {
          long end = LocalDateTime.parse(m.group(1), TIME).toInstant(ZoneOffset.UTC).toEpochMilli() + WINDOW_MILLIS;
          printed.put(end, now);
        }
      }
    } catch (IOException e) {
      // the command ended
    }
  }

  private static String row(long key, long ts, long v) {
    return "{\"k\":\"k" + key + "\",\"ts\":\"" + ISO.format(java.time.Instant.ofEpochMilli(ts).atZone(ZoneOffset.UTC))
        + "\",\"v\":" + v + "}";
  }
}
