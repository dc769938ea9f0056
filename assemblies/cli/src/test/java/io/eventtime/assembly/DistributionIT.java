package io.eventtime.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The downloaded release: unpack the .tar.gz, run bin/eventtime on the seed page's TUMBLE example. */
class DistributionIT {
  @TempDir
  Path dir;

  private static String run(Path cwd, String... command) throws Exception {
    return run(cwd, Map.of(), command);
  }

  private static String run(Path cwd, Map<String, String> env, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
    // options the JVM reads from the environment would decide the collector
    pb.environment().keySet().removeAll(List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"));
    // the launcher's class-data archive goes to the user's cache: here, the test's folder
    pb.environment().put("XDG_CACHE_HOME", cwd.resolve("cache").toString());
    pb.environment().remove("EVENTTIME_NO_CLASS_DATA");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void binEventtimeRunsTheSeedExample() throws Exception {
    Path archive = Path.of(System.getProperty("distribution"));
    run(dir, "tar", "-xzf", archive.toString());
    Path home;
    try (var entries = Files.list(dir)) {
      home = entries.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertThat(home.resolve("bin/eventtime")).isExecutable();
    try (var jars = Files.list(home.resolve("lib"))) {
      assertThat(jars.map(j -> j.getFileName().toString()).toList())
          .anyMatch(j -> j.startsWith("eventtime-cli-")).anyMatch(j -> j.startsWith("eventtime-core-"))
          .anyMatch(j -> j.startsWith("picocli-")).anyMatch(j -> j.startsWith("jsqlparser-"));
    }
    Files.write(dir.resolve("events.ndjson"), List.of(
        "{\"merchant\":\"acme\",\"amount\":250,\"event_time\":\"2026-07-18 10:00:03\"}",
        "{\"merchant\":\"globex\",\"amount\":42,\"event_time\":\"2026-07-18 10:00:07\"}",
        "{\"merchant\":\"acme\",\"amount\":980,\"event_time\":\"2026-07-18 10:01:12\"}",
        "{\"merchant\":\"acme\",\"amount\":110,\"event_time\":\"2026-07-18 10:01:48\"}",
        "{\"merchant\":\"globex\",\"amount\":7,\"event_time\":\"2026-07-18 10:02:20\"}"));
    String sql = "SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(amount) AS total"
        + " FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)";
    String out = run(dir, home.resolve("bin/eventtime").toString(), "--from", "file://events.ndjson", sql);
    assertThat(out.lines()).containsExactly(
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":250}",
        "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:00:00\",\"n\":1,\"total\":42}",
        "{\"merchant\":\"acme\",\"w\":\"2026-07-18 10:01:00\",\"n\":2,\"total\":1090}",
        "{\"merchant\":\"globex\",\"w\":\"2026-07-18 10:02:00\",\"n\":1,\"total\":7}",
        "{\"stats\":{\"rows_in\":5,\"rows_out\":4,\"late_dropped\":0,\"windows_closed\":3,\"rows_folded\":5,"
            + "\"rows_rejected\":0}}");
    // stdout and stderr together held the rows only: the class-data archive was made quietly, in the cache
    try (var archives = Files.list(dir.resolve("cache/eventtime"))) {
      assertThat(archives.map(a -> a.getFileName().toString()).toList()).singleElement().asString()
          .matches("eventtime-local-\\d+\\.jsa");
    }
    assertThat(run(dir, Map.of("EVENTTIME_JAVA_OPTS", "-Xlog:class+load=info:stderr"), home.resolve("bin/eventtime").toString(),
        "--from", "file://events.ndjson", sql).lines())
        .anyMatch(line -> line.contains(" io.eventtime.cli.Main source: shared objects file (top)"));
    // the JVM options of conf/local-jvm-options: the Parallel collector, unless the user names another
    assertThat(home.resolve("conf/local-jvm-options")).isRegularFile();
    assertThat(home.resolve("conf/local-jvm-options.sh")).isRegularFile();
    assertThat(run(dir, Map.of("EVENTTIME_JAVA_OPTS", "-Xlog:gc:stderr"), home.resolve("bin/eventtime").toString(),
        "--from", "file://events.ndjson", sql).lines()).anyMatch(line -> line.endsWith("[info][gc] Using Parallel"));
    assertThat(run(dir, Map.of("EVENTTIME_JAVA_OPTS", "-XX:+UseSerialGC -Xlog:gc:stderr"),
        home.resolve("bin/eventtime").toString(), "--from", "file://events.ndjson", sql).lines())
        .anyMatch(line -> line.endsWith("[info][gc] Using Serial"));
  }
}
