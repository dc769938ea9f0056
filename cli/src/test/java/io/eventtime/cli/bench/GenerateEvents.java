package io.eventtime.cli.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

/**
 * Writes the benchmark's NDJSON file: lines shaped like the seed page's events
 * ({@code {"merchant":"m123","amount":250,"event_time":"2026-07-18 10:00:03"}}), 1,000 merchants,
 * event times that advance about 20 ms a row with one row in twenty up to 10 minutes behind (so
 * some are late), until the file reaches the size asked. Seeded: the same bytes every time.
 *
 * <pre>java -cp ... io.eventtime.cli.bench.GenerateEvents events.ndjson 1073741824</pre>
 */
public final class GenerateEvents {
  private GenerateEvents() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    long bytes = Long.parseLong(args[1]);
    SplittableRandom random = new SplittableRandom(20260718L);
    DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    long clock = Instant.parse("2026-07-18T00:00:00Z").toEpochMilli();
    long written = 0;
    long rows = 0;
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
      StringBuilder line = new StringBuilder(96);
      while (written < bytes) {
        clock += random.nextInt(40);
        long ts = random.nextInt(20) == 0 ? clock - random.nextInt(600_000) : clock;
        line.setLength(0);
        line.append("{\"merchant\":\"m").append(random.nextInt(1000)).append("\",\"amount\":")
            .append(random.nextInt(10_000)).append(",\"event_time\":\"")
            .append(format.format(LocalDateTime.ofEpochSecond(Math.floorDiv(ts, 1000), 0, ZoneOffset.UTC)))
            .append("\"}\n");
        byte[] b = line.toString().getBytes(StandardCharsets.UTF_8);
        o.write(b);
        written += b.length;
        rows++;
      }
    }
    System.err.println("wrote " + rows + " rows, " + written + " bytes to " + out);
  }
}
