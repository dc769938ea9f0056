package io.eventtime.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad flag is refused before any work, with a message that says how to fix it. */
class FlagsTest {
  private static final String SQL = "SELECT count(*) AS n FROM events GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE)";

  @TempDir
  Path dir;
  String from;

  @BeforeEach
  void events() {
    from = "file://" + Cli.write(dir, "events.ndjson", SeedPage.EVENTS);
  }

  private void refused(int status, String code, String message, String... args) {
    Cli run = Cli.run(args);
    assertThat(run.out()).containsExactly(Cli.error(code, message));
    assertThat(run.status()).isEqualTo(status);
  }

  @Test
  void watermarkDelay() {
    refused(2, "INVALID_ARGUMENT", "--watermark-delay 5 is not a duration: write an amount and a unit, e.g."
        + " --watermark-delay '5 MINUTE' (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)",
        "--from", from, "--watermark-delay", "5", SQL);
    refused(2, "INVALID_ARGUMENT", "--watermark-delay -5 MINUTE is negative: give 0 or more, e.g. '5 MINUTE'",
        "--from", from, "--watermark-delay", "-5 MINUTE", SQL);
  }

  @Test
  void latePolicy() {
    refused(2, "INVALID_ARGUMENT", "--late-policy strict is not a late policy: use window (the default: a late row"
        + " still counts in the windows still open) or event (a row behind the watermark counts nowhere)",
        "--from", from, "--late-policy", "strict", SQL);
  }

  @Test
  void runner() {
    refused(2, "INVALID_ARGUMENT", "--runner storm is not a runner: use local, direct, flink or spark",
        "--from", from, "--runner", "storm", SQL);
  }

  @Test
  void masterWithoutItsRunner() {
    refused(2, "INVALID_ARGUMENT", "--flink-master goes with --runner flink",
        "--from", from, "--flink-master", "host:8081", SQL);
    refused(2, "INVALID_ARGUMENT", "--spark-master goes with --runner spark",
        "--from", from, "--runner", "flink", "--spark-master", "local[4]", SQL);
  }

  @Test
  void inferRows() {
    refused(2, "INVALID_ARGUMENT", "--infer-rows 0 is not a positive whole number: e.g. --infer-rows 1000",
        "--from", from, "--infer-rows", "0", SQL);
  }

  @Test
  void sourceScheme() {
    refused(2, "INVALID_ARGUMENT", "--from s3://bucket/events.ndjson: only files are supported, as"
        + " file://events.ndjson, file:///data/events.ndjson or a plain path", "--from", "s3://bucket/events.ndjson", SQL);
  }

  @Test
  void tableName() {
    refused(2, "INVALID_ARGUMENT", "--table my-events is not a table name: use letters, digits and _, starting with"
        + " a letter", "--from", from, "--table", "my-events", SQL);
  }

  @Test
  void lateOutputInAMissingDirectory() {
    Path missing = dir.resolve("no/such/dir/late.ndjson");
    refused(2, "INVALID_ARGUMENT", "--late-output file://" + missing + ": the directory " + missing.getParent()
        + " does not exist; create it or write the file elsewhere", "--from", from, "--late-output", "file://" + missing,
        SQL);
  }

  @Test
  void unknownFlagAndMissingArguments() {
    refused(2, "INVALID_ARGUMENT", "Unknown option: '--bogus'. Run eventtime --help for the flags and examples",
        "--from", from, "--bogus", SQL);
    refused(2, "INVALID_ARGUMENT", "Missing required parameter: 'SQL'. Run eventtime --help for the flags and examples",
        "--from", from);
    refused(2, "INVALID_ARGUMENT", "Missing required option: '--from=URI'. Run eventtime --help for the flags and"
        + " examples", SQL);
  }

  @Test
  void helpDocumentsEveryFlagWithAnExample() {
    Cli run = Cli.run("--help");
    assertThat(run.status()).isZero();
    String help = String.join("\n", run.out()).replaceAll("\\s+", " ");
    for (String flag : new String[] {"--from", "--table", "--watermark-delay", "--late-policy", "--late-output",
        "--rejected-output", "--state", "--runner", "--flink-master", "--spark-master", "--infer-rows", "--kafka-group",
        "--kafka-start", "--kafka-option", "--until", "--output"}) {
      assertThat(help).contains(flag + "=").contains("Example: " + flag + " ");
    }
    assertThat(help).contains("TUMBLE_END", "INTERVAL '30' SECOND", "window_start");
  }
}
