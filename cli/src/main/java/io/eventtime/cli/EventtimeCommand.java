package io.eventtime.cli;

import io.eventtime.cli.local.LocalRunner;
import io.eventtime.cli.local.Progress;
import io.eventtime.cli.output.FileSink;
import io.eventtime.cli.output.OutputFile;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.output.RowsFile;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.FollowSource;
import io.eventtime.cli.source.KafkaSource;
import io.eventtime.cli.source.LineSource;
import io.eventtime.cli.source.LiveFeed;
import io.eventtime.cli.source.SourceFile;
import io.eventtime.cli.source.Spool;
import io.eventtime.cli.source.StandardInput;
import io.eventtime.cli.sql.Schema;
import io.eventtime.cli.sql.SqlPlanner;
import io.eventtime.core.DurationText;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.TimeRange;
import io.eventtime.core.state.CommittedOutputs;
import io.eventtime.core.state.StateException;
import io.eventtime.core.state.StateSource;
import io.eventtime.core.state.StateStore;
import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The {@code eventtime} command: its flags, their checks, and the run from SQL to the stats line. */
@Command(
    name = "eventtime",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
        "Runs SQL with event-time windows (TUMBLE, HOP, SESSION) over NDJSON files or a Kafka topic, as",
        "a stream: each window's row is printed as soon as the watermark closes it, one JSON object per",
        "line, then a last line with the run's stats. An error prints one line {\"error\":{\"code\":..,",
        "\"message\":..}} and exits non-zero (on stderr when stdout is what failed). A result that could",
        "not be written (a full disk, a closed pipe) fails the run with IO_ERROR; a run that fails or is",
        "refused leaves the --state as it was, and the stats line is printed only once the state is stored.",
        "A live run (kafka://) without --output and with --state is at least once on stdout after a crash:",
        "window rows printed after the last commit are printed again; --output makes it exactly once.",
        ""
    },
    footer = {
        "",
        "Examples:",
        "  eventtime --from file://events.ndjson \\",
        "    \"SELECT merchant, TUMBLE(event_time, INTERVAL 1 MINUTE) AS w, count(*) AS n,",
        "            sum(amount) AS total",
        "     FROM events GROUP BY merchant, TUMBLE(event_time, INTERVAL 1 MINUTE)\"",
        "  eventtime --from file://day1.ndjson --from file://day2.ndjson --table events \\",
        "    --watermark-delay '5 MINUTE' --late-policy event --late-output file://late.ndjson \\",
        "    \"SELECT SESSION(ts, INTERVAL '5' MINUTE) AS start, max(ts) AS last_event, count(*) AS n",
        "     FROM events GROUP BY SESSION(ts, INTERVAL '5' MINUTE)\"",
        "  eventtime --from kafka://127.0.0.1:9092/orders --state ./state --output file://windows.ndjson \\",
        "    --until available \"SELECT TUMBLE(ts, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM orders",
        "     GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)\"",
        "  eventtime --from 'file://in/*.ndjson' --follow --state ./state --output file://windows.ndjson \\",
        "    \"SELECT TUMBLE(ts, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM events",
        "     GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)\"      (the table is the folder's name: in, unless --table)",
        "  tail -f app.ndjson | eventtime --from - --infer-rows 1 \\",
        "    \"SELECT TUMBLE(ts, INTERVAL 1 MINUTE) AS w, count(*) AS n FROM stdin",
        "     GROUP BY TUMBLE(ts, INTERVAL 1 MINUTE)\"",
        "",
        "SQL: SELECT <keys>, <TUMBLE(ts, size) | HOP(ts, slide, size) | SESSION(ts, gap)> [AS name],",
        "  [TUMBLE_END | HOP_END | SESSION_END(same arguments) [AS name]], count(*), count(col),",
        "  count(DISTINCT col), sum, min, max, avg(col) [AS name] FROM <table> [WHERE ...]",
        "  GROUP BY <keys>, <the window call> [HAVING ...]. Unaliased, the window column is window_start",
        "  (window_end for the _END form). Intervals: INTERVAL 1 MINUTE, INTERVAL '30 SECOND',",
        "  INTERVAL '30' SECOND; units MILLISECOND, SECOND, MINUTE, HOUR, DAY, singular or plural.",
        "",
        "Exit status: 0 done; 1 the query or a source was refused or failed; 2 a bad flag; 3 a bug."
    })
public final class EventtimeCommand implements Callable<Integer> {
  /** The {@code --from} value for standard input. */
  private static final String STDIN_URI = "-";

  @Option(names = "--from", required = true, paramLabel = "URI",
      description = "An NDJSON file to read, as file://path (relative or absolute) or a plain path. Repeat it "
          + "to read several files in the order given, as one stream named after the first. Or one Kafka topic, "
          + "kafka://HOST:PORT/TOPIC: each record's value one JSON object, each partition a "
          + "partition of the stream with its own watermark, the table named after the topic; it runs until "
          + "--until available, or until SIGINT/SIGTERM, which ends it cleanly (exit 0). Or - for standard input "
          + "(local runner, the only --from, table stdin unless --table): read as the lines come, each window printed "
          + "as it closes, until the input ends or SIGINT/SIGTERM, then the open windows are emitted (with --state, "
          + "stored for the next run instead); nothing is folded before the first --infer-rows lines (or the end) "
          + "have come. Example: --from file://events.ndjson --from file://more.ndjson, or "
          + "--from kafka://127.0.0.1:9092/orders, or tail -f app.ndjson | eventtime --from - ...")
  List<String> from = new ArrayList<>();

  @Option(names = "--follow",
      description = "Follow the --from file, folder or glob on a folder's file names (quote it: 'file://in/*.ndjson'), "
          + "as tail -f does (local runner): the files there are read in name order, as a run without --follow reads "
          + "them, then the last one is read as lines are appended to it, and each new file as it lands (its name "
          + "must sort after the others'; a file whose name starts with '.' is left out). One partition; a line "
          + "waits for its newline. A file that shrinks or is replaced is an error naming it. Each window is printed "
          + "as it closes; it runs until SIGINT/SIGTERM or --until 'idle=DURATION', then emits the open windows, or "
          + "with --state stores them with the file, line and byte it got to (committed as a kafka:// run's), where "
          + "the next --follow run goes on. The table is the folder's name unless --table. Example: --from "
          + "'file://in/*.ndjson' --follow --state ./state")
  boolean follow;

  @Option(names = "--table", paramLabel = "NAME",
      description = "The table name the SQL reads FROM. Default: the first file's name without its extension "
          + "(events for events.ndjson). Example: --table clicks")
  String table;

  @Option(names = "--watermark-delay", paramLabel = "DURATION", defaultValue = "0 SECOND",
      description = "How far the watermark trails the latest event time seen; a window closes that much "
          + "later, so rows up to that late still count. An amount and a unit from MILLISECOND to "
          + "DAY, at most 3652425 DAYS. Default: ${DEFAULT-VALUE}. Example: --watermark-delay '5 MINUTE'")
  String watermarkDelay;

  @Option(names = "--late-policy", paramLabel = "window|event", defaultValue = "window",
      description = "window: a late row is left out of the windows already closed and still counts in the "
          + "open ones. event: a row behind the watermark is left out of every window. Default: "
          + "${DEFAULT-VALUE}. Example: --late-policy event")
  String latePolicy;

  @Option(names = "--late-output", paramLabel = "URI",
      description = "Write each late row to this NDJSON file, with its source, line number, event time and "
          + "the reason it was late. The rows go to a hidden file beside it, moved over it when the run ends; a run "
          + "refused before it starts leaves it as it was, and a run that fails still leaves in it the rows counted "
          + "before the failure. It must not be an input, in the --state directory, or the --rejected-output file. "
          + "A kafka:// run writes it in place as the rows come, each row named by partition and offset, appended to "
          + "under --state. Example: --late-output file://late.ndjson")
  String lateOutput;

  @Option(names = "--rejected-output", paramLabel = "URI",
      description = "Write each rejected row (malformed line, missing or bad time, a value not of its "
          + "column's type) to this NDJSON file, with its source, line number, field and reason; written as "
          + "--late-output is. Example: --rejected-output file://rejected.ndjson")
  String rejectedOutput;

  @Option(names = "--state", paramLabel = "DIR",
      description = "Carry the watermark and the open windows from one run to the next in this directory "
          + "(created when missing; one directory per query; see docs/state.md). A run emits only the windows its "
          + "watermark closes and stores the others; the new state replaces the old only after every result row "
          + "and the late and rejected files are written, just before the stats line, so a run that fails or is "
          + "refused leaves it as it was. With a kafka:// source the state also holds each partition's next offset and "
          + "is committed after every batch that closes windows and at least once a second, together with the "
          + "lengths of --output, --late-output and --rejected-output, which such a run appends to. Example: "
          + "--state ./state")
  String state;

  @Option(names = "--kafka-group", paramLabel = "ID",
      description = "With a kafka:// source, the consumer group the offsets are committed to, for monitoring only: "
          + "with --state the offsets stored at each commit (the state holds the offsets a restart goes on from), "
          + "else the offsets read as the run goes on. The partitions are assigned, not balanced across a group, and "
          + "the reads never start at the group's offsets. Default: none. Example: --kafka-group eventtime-orders")
  String kafkaGroup;

  @Option(names = "--kafka-start", paramLabel = "earliest|latest", defaultValue = "earliest",
      description = "With a kafka:// source, where a partition is first read from: its earliest record, or only "
          + "records that come after the start. With a --state that holds offsets, those win. Default: "
          + "${DEFAULT-VALUE}. Example: --kafka-start latest")
  String kafkaStart;

  @Option(names = "--kafka-option", paramLabel = "KEY=VALUE",
      description = "With a kafka:// source, any Kafka consumer property, over the command's own (isolation.level="
          + "read_committed, enable.auto.commit=false, default.api.timeout.ms=30000: a broker that does not answer "
          + "is an error after 30 s). Repeatable. Example: --kafka-option security.protocol=SSL "
          + "--kafka-option isolation.level=read_uncommitted")
  List<String> kafkaOptions = new ArrayList<>();

  @Option(names = "--until", paramLabel = "available|idle=DURATION",
      description = "With a kafka:// source, when to stop instead of waiting for SIGINT/SIGTERM. available: once every "
          + "partition is read up to the end offset it had when the run started (the last stable offset under "
          + "read_committed): a catch-up run, as Spark's AvailableNow. idle=DURATION: once no record has come for that "
          + "long (wall-clock time; it moves no watermark); also with --follow, once no new line has come for that long. Without --state the windows still open are then emitted; "
          + "with it they are stored for the next run. Example: --until available, or --until 'idle=30 SECOND'")
  String until;

  @Option(names = "--output", paramLabel = "URI",
      description = "Write the window rows to this NDJSON file instead of stdout (the stats line stays on stdout). "
          + "It is written as the windows close. With --state it is appended to, and its length is stored with each "
          + "state: a run cuts it back to the length the state holds first, so after a crash or kill -9 and a "
          + "restart each window is in it exactly once (stdout can only give rows again). Without --state it is "
          + "started empty. Example: --output file://windows.ndjson")
  String output;

  @Option(names = "--quiet",
      description = "No progress line. A live run (kafka://, --from - or --follow) shows one on stderr while stderr "
          + "is a terminal, "
          + "rewritten once a second: rows read, rows/s, the watermark, the open windows and the late rows so far. "
          + "Example: --quiet")
  boolean quiet;

  @Option(names = "--runner", paramLabel = "local|direct|flink|spark", defaultValue = "local",
      description = "Where the query runs. local: an embedded single-pass engine, no Beam start-up. direct, "
          + "flink (embedded, or --flink-master) and spark (local[2], or --spark-master): the same plan as an Apache "
          + "Beam pipeline on that runner, printing the same rows. A kafka:// topic runs on local, or on flink "
          + "(embedded) and direct in streaming mode, with --until available, --until idle=... or until SIGINT/SIGTERM, "
          + "each window printed soon after it closes, in the local runner's order; spark refuses it. "
          + "Default: ${DEFAULT-VALUE}. Example: --runner flink")
  String runner;

  @Option(names = "--flink-master", paramLabel = "HOST:PORT",
      description = "With --runner flink, the Flink cluster to submit to, which runs the job with its own default "
          + "parallelism. Default: [local] (embedded, 2 parallel tasks per step). "
          + "Example: --flink-master flink-jobmanager:8081")
  String flinkMaster;

  @Option(names = "--spark-master", paramLabel = "URL",
      description = "With --runner spark, the Spark master. Default: local[2]. Example: --spark-master "
          + "spark://spark-master:7077")
  String sparkMaster;

  @Option(names = "--infer-rows", paramLabel = "N", defaultValue = "1000",
      description = "Infer the column types from the first N rows of the stream (strings in date-time form "
          + "are TIMESTAMP, whole numbers BIGINT, other numbers DOUBLE). Default: ${DEFAULT-VALUE}. "
          + "Example: --infer-rows 10000")
  String inferRows;

  @Parameters(index = "0", paramLabel = "SQL",
      description = "The query. Example: \"SELECT count(*) AS n FROM events GROUP BY TUMBLE(event_time, "
          + "INTERVAL 1 MINUTE)\"")
  String sql;

  private final OutputStream out;
  private final PrintStream err;
  private final FileSink files;

  EventtimeCommand(OutputStream out, PrintStream err, FileSink files) {
    this.out = out;
    this.err = err;
    this.files = files;
  }

  @Override
  public Integer call() {
    String chosenRunner = runner.trim().toLowerCase(Locale.ROOT);
    if (!List.of("local", "direct", "flink", "spark").contains(chosenRunner)) {
      throw badFlag("--runner " + runner + " is not a runner: use local, direct, flink or spark");
    }
    long delay = delayMillis();
    LatePolicy policy;
    try {
      policy = LatePolicy.parse(latePolicy);
    } catch (IllegalArgumentException e) {
      throw badFlag("--late-policy " + latePolicy + " is not a late policy: use window (the default: a late row still"
          + " counts in the windows still open) or event (a row behind the watermark counts nowhere)");
    }
    int sample = inferRows();
    if (flinkMaster != null && !chosenRunner.equals("flink")) {
      throw badFlag("--flink-master goes with --runner flink");
    }
    if (sparkMaster != null && !chosenRunner.equals("spark")) {
      throw badFlag("--spark-master goes with --runner spark");
    }
    Path stateDir = stateDir();
    OutputFile late = lateOutput == null ? null : OutputFile.parse("--late-output", lateOutput);
    OutputFile rejected = rejectedOutput == null ? null : OutputFile.parse("--rejected-output", rejectedOutput);
    OutputFile rows = output == null ? null : OutputFile.parse("--output", output);
    if (table != null && !table.matches("[A-Za-z_][A-Za-z0-9_$]*")) {
      throw badFlag("--table " + table + " is not a table name: use letters, digits and _, starting with a letter");
    }
    if (follow) {
      refuseFollowOfStreams();
    }
    if (from.stream().anyMatch(f -> f.trim().startsWith("kafka://"))) {
      return runKafka(chosenRunner, delay, policy, sample, stateDir, rows, late, rejected);
    }
    refuseKafkaFlags();
    if (from.stream().anyMatch(f -> f.trim().equals(STDIN_URI))) {
      return runStandardInput(chosenRunner, delay, policy, sample, stateDir, rows, late, rejected);
    }
    if (follow) {
      return runFollow(chosenRunner, delay, policy, sample, stateDir, rows, late, rejected);
    }
    if (rows != null && !chosenRunner.equals("local")) {
      throw badFlag("--output goes with the local runner for now: with --runner " + chosenRunner + " the window rows"
          + " go to stdout (redirect it to a file)");
    }
    List<SourceFile> files = new ArrayList<>();
    for (String uri : from) {
      files.add(SourceFile.parse(uri.trim()));
    }

    SqlPlanner.Parsed parsed = SqlPlanner.parse(sql);
    String tableName = table != null ? table : files.get(0).tableName();
    for (SourceFile f : files) {
      f.checkReadable();
    }
    PathClashes.refuse(files, stateDir, rows, late, rejected);
    // a Beam runner reads each source twice (the schema sample, then the pipeline): a pipe is copied first
    Spool spool = chosenRunner.equals("local") ? null : Spool.of(files);
    List<SourceFile> sources = spool == null ? files : spool.files();
    try (spool; LineSource lines = new LineSource(sources)) {
      QueryPlan plan = SqlPlanner.bind(parsed, tableName, inferSchema(lines, sample, files));
      RunSettings settings = new RunSettings(delay, policy, late, rejected, this.files, err);
      if (chosenRunner.equals("local")) {
        runLocal(plan, settings, lines, stateDir, rows, Progress.OFF);
        return 0;
      }
      ResultWriter writer = new ResultWriter(out, plan);
      try {
        beam(plan, settings, sources, chosenRunner, writer, stateDir);
      } catch (RuntimeException | Error e) {
        writer.flushAfterFailure(); // the rows printed before the failure come before its error line
        throw e;
      }
      return 0;
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot close the sources: " + e.getMessage(), e);
    }
  }

  /**
   * {@code --from -}: standard input on the local runner, one partition in line order (design
   * 1.1), read as the lines come; each batch is handed on when no more bytes are at hand, so a
   * window's row is printed the moment the watermark closes it. It runs until the input ends or a
   * stop signal, then drains the open windows, or with --state stores them for the next run (the
   * state of a file run: a stop hands over, stdin is not read again). The schema is inferred from
   * the first --infer-rows lines, or all of them when the input ends before: no row is folded
   * before that.
   */
  private int runStandardInput(String chosenRunner, long delay, LatePolicy policy, int sample, Path stateDir,
      OutputFile rows, OutputFile late, OutputFile rejected) {
    if (from.size() != 1) {
      throw badFlag("--from - (standard input) is read alone: give it as the only --from (to read files after it, "
          + "cat them into the same pipe)");
    }
    if (!chosenRunner.equals("local")) {
      throw badFlag("--runner " + chosenRunner + " cannot read --from - (standard input): a live input runs on the local"
          + " runner only; drop --runner, or write the input to a file and give --from file://...");
    }
    SqlPlanner.Parsed parsed = SqlPlanner.parse(sql);
    String tableName = table != null ? table : LineSource.STDIN;
    PathClashes.refuse(List.of(), stateDir, rows, late, rejected);
    StandardInput input = StandardInput.of(System.in);
    try (LineSource lines = LineSource.standardInput(input); StopSignal.Watch stop = StopSignal.onStop(input::stop)) {
      QueryPlan plan = SqlPlanner.bind(parsed, tableName, inferSchema(lines, sample, LineSource.STDIN, false));
      RunSettings settings = new RunSettings(delay, policy, late, rejected, this.files, err);
      runLocal(plan, settings, lines, stateDir, rows, Progress.on(err, quiet));
      return 0;
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot close standard input: " + e.getMessage(), e);
    }
  }

  /** The flags of a kafka:// source, refused with a file source (--until goes with --follow too). */
  private void refuseKafkaFlags() {
    String flag = kafkaGroup != null ? "--kafka-group" : !kafkaOptions.isEmpty() ? "--kafka-option"
        : !kafkaStart.equals("earliest") ? "--kafka-start" : until != null && !follow ? "--until" : null;
    if (flag != null) {
      throw badFlag(flag + " goes with a Kafka source, --from kafka://HOST:PORT/TOPIC; files are read to their end");
    }
  }

  /** --follow is for files: a Kafka topic and standard input are read as they come already. */
  private void refuseFollowOfStreams() {
    for (String f : from) {
      String uri = f.trim();
      if (uri.startsWith("kafka://")) {
        throw badFlag("--follow goes with files: --from " + uri + " is a Kafka topic, read as its records come"
            + " already; drop --follow");
      }
      if (uri.equals(STDIN_URI)) {
        throw badFlag("--follow goes with files: --from - (standard input) is read as its lines come already; drop"
            + " --follow, or give the file: --from file://app.ndjson --follow");
      }
    }
  }

  /**
   * --from FILE|FOLDER|GLOB --follow on the local runner: one partition, the files in name order
   * as they land, the last one as it grows (core's FollowedFiles), each window printed as it
   * closes, until a stop signal or --until idle; with --state the commit loop of a live run
   * (design 4.2), each commit holding the file, line and byte reached, where a restart goes on.
   */
  private int runFollow(String chosenRunner, long delay, LatePolicy policy, int sample, Path stateDir,
      OutputFile rows, OutputFile late, OutputFile rejected) {
    if (from.size() != 1) {
      throw badFlag("--follow follows one file, folder or glob: give it as the only --from, e.g. --from"
          + " 'file://in/*.ndjson' --follow (the files are read in name order)");
    }
    if (!chosenRunner.equals("local")) {
      throw badFlag("--runner " + chosenRunner + " cannot --follow files: following runs on the local runner only;"
          + " drop --runner, or drop --follow to read the files as they are now");
    }
    long idleMillis = 0;
    if (until != null) {
      String u = until.trim().toLowerCase(Locale.ROOT);
      if (u.startsWith("idle=")) {
        idleMillis = idleMillis(until.trim().substring("idle=".length()));
      } else if (u.equals("available")) {
        throw badFlag("--until available does not go with --follow: to read the files as they are now and stop, drop"
            + " --follow and --until; to follow them until they stay quiet, give --until 'idle=30 SECOND'");
      } else {
        throw badFlag("--until " + until + " is not a stop condition for --follow: use --until 'idle=30 SECOND' (stop"
            + " once no line came for that long), or leave it out to run until SIGINT/SIGTERM");
      }
    }
    SourceFile file = SourceFile.parse(from.get(0).trim());
    SqlPlanner.Parsed parsed = SqlPlanner.parse(sql);
    FollowSource source = FollowSource.of(file);
    String tableName = table != null ? table : source.tableName();
    for (OutputFile out : new OutputFile[] {rows, late, rejected}) {
      if (out != null && source.follows(out.target())) {
        throw badFlag(out.described() + " is among the files --from " + file.uri() + " --follow reads: it would read"
            + " its own output; write it elsewhere");
      }
    }
    if (stateDir != null && (source.follows(stateDir.resolve(StateStore.STATE_FILE))
        || source.follows(stateDir.resolve(StateStore.LOCK_FILE)))) {
      throw badFlag("--state " + stateDir + ": its files are among those --from " + file.uri() + " --follow reads;"
          + " give the state a directory of its own");
    }
    PathClashes.refuse(List.of(), stateDir, rows, late, rejected);
    if (idleMillis > 0) {
      source.endWhenIdleFor(idleMillis);
    }
    try (source; StopSignal.Watch stop = StopSignal.onStop(source::stop)) {
      QueryPlan plan = SqlPlanner.bind(parsed, tableName, inferSchema(source.sample(sample), file.path(), false));
      RunSettings settings = new RunSettings(delay, policy, late, rejected, this.files, err);
      if (stateDir == null) {
        source.readToTheEndAtStop();
        runLiveWithoutState(plan, settings, source, rows);
      } else {
        runLiveWithState(plan, settings, source, rows, stateDir, StateSource.of("files", "from", file.uri()),
            start -> {
              OpenState.FileLine at = storedFilePosition(start, stateDir);
              if (at != null) {
                source.resumeAt(at);
              }
            },
            next -> { });
      }
      return 0;
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot close " + file.uri() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Where a --follow run goes on in a stored state: the file, line and byte it got to, or null
   * for a state without a position (a file run's or standard input's: it goes on with the first
   * file); refused for a Kafka run's state.
   */
  private static OpenState.FileLine storedFilePosition(OpenState state, Path stateDir) {
    OpenState.Position position = state.partitions().size() == 1 ? state.partitions().get(0).position() : null;
    if (state.partitions().size() != 1 || position instanceof OpenState.NextOffset) {
      throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": the state was written by a Kafka run"
          + " (" + state.partitions().size() + " partitions with offsets): give a --follow run its own state directory");
    }
    return (OpenState.FileLine) position;
  }

  /** A run that reads files to their end cannot go on from a live run's position: refused, saying what can. */
  private static void refuseLivePositions(OpenState state, Path stateDir) {
    for (OpenState.Partition p : state.partitions()) {
      if (p.position() instanceof OpenState.FileLine at) {
        throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": the state was stored by a --follow"
            + " run, which goes on at line " + at.line() + " of " + at.file() + ": go on with the same --from and --follow"
            + " (with --until 'idle=1 SECOND' it stops once it has read what is there)");
      }
      if (p.position() instanceof OpenState.NextOffset) {
        throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": the state was stored by a Kafka"
            + " run: go on with the same --from kafka://...");
      }
    }
  }

  /** Where the window rows go: stdout, or the --output file (the stats line stays on stdout). */
  private ResultWriter writerFor(QueryPlan plan, RowsFile rows) {
    return rows == null ? new ResultWriter(out, plan) : new ResultWriter(rows.stream(), out, rows.described(), plan);
  }

  /**
   * Runs the plan on the local runner. With a state directory the run starts from the stored
   * state, holds back the windows still open, and stores them only once its output is written.
   * The late and rejected files are opened once the state is locked. An --output file is appended
   * to under a state (cut back first to the length the state holds), else started empty.
   */
  private void runLocal(QueryPlan plan, RunSettings settings, LineSource lines, Path stateDir, OutputFile output,
      Progress progress) {
    if (stateDir == null) {
      settings.openOutputs();
      RowsFile rows = output == null ? null : RowsFile.open(output, false);
      ResultWriter writer = writerFor(plan, rows);
      try (rows) {
        LocalRunner.Outcome outcome = LocalRunner.run(plan, settings, lines, writer, OpenState.empty(), false, progress);
        writer.flush();
        if (rows != null) {
          rows.committedLength();
        }
        settings.finish(writer, outcome.stats(), null);
      } catch (RuntimeException | Error e) {
        writer.flushAfterFailure(); // the rows printed before the failure come before its error line
        throw e;
      } finally {
        settings.keepAfterFailure();
      }
      return;
    }
    try (StateStore store = StateStore.open(stateDir,
        plan.windowQuery(settings.delayMillis(), settings.latePolicy()), plan.timeColumn())) {
      refuseLivePositions(store.load(), stateDir);
      Map<String, Long> committed = store.load().outputs();
      CommittedOutputs.cutBack(committed);
      settings.openOutputs();
      RowsFile rows = output == null ? null : RowsFile.open(output, committed.containsKey(RunSettings.path(output)));
      ResultWriter writer = writerFor(plan, rows);
      try (rows) {
        LocalRunner.Outcome outcome = LocalRunner.run(plan, settings, lines, writer, store.load(), true, progress);
        settings.finish(writer, outcome.stats(), () -> {
          writer.flush();
          store.commit(rows == null ? outcome.held()
              : outcome.held().withOutputs(Map.of(rows.path(), rows.committedLength())));
        });
      } catch (RuntimeException | Error e) {
        writer.flushAfterFailure();
        throw e;
      } finally {
        settings.keepAfterFailure(); // while the state is still locked: no other run writes these files now
      }
    } catch (StateException e) {
      throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * A kafka:// source on the local runner (design 4.2): each partition a partition of the stream,
   * until --until available or a stop signal; with --state, the offsets, watermarks, open windows
   * and the output files' lengths committed together, and on start the files cut back to them.
   */
  private int runKafka(String chosenRunner, long delay, LatePolicy policy, int sample, Path stateDir, OutputFile rows,
      OutputFile late, OutputFile rejected) {
    if (from.size() != 1) {
      throw badFlag("--from kafka://... reads one topic: give it as the only --from");
    }
    if (chosenRunner.equals("spark")) {
      throw badFlag("--runner spark cannot read --from " + from.get(0).trim() + ": a Kafka topic is read as a live"
          + " stream, whose windows need event-time timers, which Beam's Spark runner does not run in streaming mode"
          + " (Beam 2.62); use --runner local (the default), flink or direct");
    }
    boolean untilAvailable = false;
    long idleMillis = 0;
    if (until != null) {
      String u = until.trim().toLowerCase(Locale.ROOT);
      if (u.equals("available")) {
        untilAvailable = true;
      } else if (u.startsWith("idle=")) {
        idleMillis = idleMillis(until.trim().substring("idle=".length()));
      } else {
        throw badFlag("--until " + until + " is not a stop condition: use --until available (read every partition up"
            + " to the end offsets found at start, then stop) or --until 'idle=30 SECOND' (stop once no record came"
            + " for that long), or leave it out to run until SIGINT/SIGTERM");
      }
    }
    KafkaSource.Address address = KafkaSource.Address.parse(from.get(0).trim());
    Properties properties = KafkaSource.properties(address, kafkaGroup, KafkaSource.startPosition(kafkaStart),
        kafkaOptions());
    SqlPlanner.Parsed parsed = SqlPlanner.parse(sql);
    String tableName = table != null ? table : address.tableName();
    PathClashes.refuse(List.of(), stateDir, rows, late, rejected);
    if (!chosenRunner.equals("local")) {
      refuseKafkaOnBeam();
      boolean endsAtAvailable = untilAvailable;
      long endsWhenIdle = idleMillis;
      QueryPlan plan;
      try (KafkaSource sampled = KafkaSource.open(address, properties, true)) {
        plan = SqlPlanner.bind(parsed, tableName, inferSchema(sampled.sample(sample), address));
      }
      RunSettings settings = new RunSettings(delay, policy, late, rejected, this.files, err);
      onBeam(chosenRunner, () -> io.eventtime.cli.beam.BeamKafkaRunner.run(plan, settings, address, properties,
          chosenRunner, rows, r -> writerFor(plan, r), stateDir, endsAtAvailable, endsWhenIdle), stateDir);
      return 0;
    }
    KafkaSource source = KafkaSource.open(address, properties, untilAvailable);
    if (idleMillis > 0) {
      source.endWhenIdleFor(idleMillis);
    }
    try (source; StopSignal.Watch stop = StopSignal.onStop(source::stop)) {
      QueryPlan plan = SqlPlanner.bind(parsed, tableName, inferSchema(source.sample(sample), address));
      RunSettings settings = new RunSettings(delay, policy, late, rejected, this.files, err);
      if (stateDir == null) {
        source.commitReadOffsets();
        runLiveWithoutState(plan, settings, source, rows);
      } else {
        runLiveWithState(plan, settings, source, rows, stateDir,
            KafkaSource.stateSource(address),
            start -> source.seekTo(storedOffsets(start, stateDir)),
            next -> source.commitToGroup(KafkaSource.offsets(next)));
      }
      return 0;
    }
  }

  /** A live source without a state: window rows as they close, late and rejected rows written in place, a drain at the end. */
  private void runLiveWithoutState(QueryPlan plan, RunSettings settings, LiveFeed source, OutputFile output) {
    settings.openOutputsInPlace(Map.of());
    RowsFile rows = output == null ? null : RowsFile.open(output, false);
    ResultWriter writer = writerFor(plan, rows);
    try (rows) {
      LocalRunner.LiveOutcome outcome = LocalRunner.runLive(plan, settings, source, writer, null, null,
          Progress.on(err, quiet));
      writer.flush();
      if (rows != null) {
        rows.committedLength();
      }
      settings.finish(writer, outcome.stats(), null);
    } catch (RuntimeException | Error e) {
      writer.flushAfterFailure();
      throw e;
    } finally {
      settings.keepAfterFailure();
    }
  }

  /**
   * A live source with a state (design 4.2): on start, {@code goOnFrom} moves the source to the
   * stored state's positions and the output files are cut back to its lengths; then the commit
   * loop, each commit followed by {@code afterCommit} with the positions stored.
   */
  private void runLiveWithState(QueryPlan plan, RunSettings settings, LiveFeed source, OutputFile output,
      Path stateDir, StateSource stateSource, Consumer<OpenState> goOnFrom,
      Consumer<OpenState.Position[]> afterCommit) {
    try (StateStore store = StateStore.open(stateDir, plan.windowQuery(settings.delayMillis(), settings.latePolicy()),
        plan.timeColumn(), stateSource)) {
      OpenState start = store.hasState() ? store.load() : null;
      Map<String, Long> committed = start == null ? Map.of() : start.outputs();
      if (start != null) {
        goOnFrom.accept(start);
      }
      CommittedOutputs.cutBack(committed);
      settings.openOutputsInPlace(committed);
      RowsFile rows = output == null ? null : RowsFile.open(output, committed.containsKey(RunSettings.path(output)));
      ResultWriter writer = writerFor(plan, rows);
      LocalRunner.Committer committer = (held, next) -> {
        writer.flush();
        Map<String, Long> lengths = new TreeMap<>();
        if (rows != null) {
          lengths.put(rows.path(), rows.committedLength());
        }
        settings.committedLengths(lengths);
        OpenState state = held.withOutputs(lengths);
        for (int p = 0; p < next.length; p++) {
          if (next[p] != null) {
            state = state.withPosition(p, next[p]);
          }
        }
        store.commit(state);
        afterCommit.accept(next);
      };
      try (rows) {
        LocalRunner.LiveOutcome outcome = LocalRunner.runLive(plan, settings, source, writer, start, committer,
            Progress.on(err, quiet));
        settings.finish(writer, outcome.stats(), () -> committer.commit(outcome.held(), outcome.next()));
      } catch (RuntimeException | Error e) {
        writer.flushAfterFailure();
        throw e;
      } finally {
        settings.keepAfterFailure(); // while the state is still locked
      }
    } catch (StateException e) {
      throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": " + e.getMessage(), e);
    }
  }

  /** Each partition's next offset in a stored state, refused when the state holds none (a state of files). */
  private static long[] storedOffsets(OpenState state, Path stateDir) {
    long[] offsets = new long[state.partitions().size()];
    for (int p = 0; p < offsets.length; p++) {
      OpenState.Partition part = state.partitions().get(p);
      if (!(part.position() instanceof OpenState.NextOffset next) || !part.id().equals(String.valueOf(p))) {
        throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": the state holds no Kafka offset for"
            + " partition " + p + " (it was written by a run over files, or by another source): give a Kafka run its"
            + " own state directory");
      }
      offsets[p] = next.nextOffset();
    }
    return offsets;
  }

  /** The DURATION of --until idle=DURATION, in milliseconds, more than 0. */
  private long idleMillis(String duration) {
    try {
      long millis = DurationText.parseMillis(duration);
      if (millis > 0) {
        return millis;
      }
    } catch (IllegalArgumentException | ArithmeticException e) {
      // refused below
    }
    throw badFlag("--until " + until + ": '" + duration + "' is not a positive duration: e.g. --until 'idle=30 SECOND'");
  }

  /** The --kafka-option values as properties, each KEY=VALUE. */
  private Map<String, String> kafkaOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    for (String o : kafkaOptions) {
      int eq = o.indexOf('=');
      if (eq <= 0) {
        throw badFlag("--kafka-option " + o + " is not KEY=VALUE: e.g. --kafka-option security.protocol=SSL");
      }
      options.put(o.substring(0, eq).trim(), o.substring(eq + 1));
    }
    return options;
  }

  /**
   * What a Kafka source on a Beam runner does not offer yet, refused before the run: it reads in one
   * embedded job whose rows the driver reads from this machine's files.
   */
  private void refuseKafkaOnBeam() {
    String topic = from.get(0).trim();
    if (flinkMaster != null) {
      throw badFlag("--flink-master with --from " + topic + " is not offered yet: the command reads the job's rows"
          + " from files on this machine, so the job runs on embedded Flink (drop --flink-master)");
    }
  }

  /** Runs the plan on a Beam runner, whose classes the launcher puts on the classpath for that runner only. */
  private void beam(QueryPlan plan, RunSettings settings, List<SourceFile> files, String runnerName,
      ResultWriter writer, Path stateDir) {
    String master = runnerName.equals("flink") ? flinkMaster : runnerName.equals("spark") ? sparkMaster : null;
    onBeam(runnerName, () -> io.eventtime.cli.beam.BeamRunner.run(plan, settings, files, runnerName, master, writer,
        stateDir), stateDir);
  }

  private void onBeam(String runnerName, Runnable run) {
    onBeam(runnerName, run, null);
  }

  /** Runs {@code run} on a Beam runner, its failures told in the command's words. */
  private void onBeam(String runnerName, Runnable run, Path stateDir) {
    try {
      run.run();
    } catch (StateException e) {
      throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      Throwable cause = e;
      while (!(cause instanceof CliException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof CliException said) {
        throw said; // a worker refused what it read, in the command's words (the runner wraps it)
      }
      if (cause instanceof ArithmeticException overflow) {
        // the runner failed the run where the local runner fails it: a whole-number sum overflowed
        throw new CliException(ErrorCode.TYPE_MISMATCH, overflow.getMessage(), e);
      }
      throw e;
    } catch (NoClassDefFoundError e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--runner " + runnerName + " cannot start: its classes are"
          + " not on the classpath (" + e.getMessage() + "); run the command through ./eventtime in a source checkout,"
          + " which puts each runner's classpath in place (the release archive carries the local runner only)");
    }
  }

  /** The --state directory, or null without one. */
  private Path stateDir() {
    if (state == null) {
      return null;
    }
    String dir = state.startsWith("file://") ? state.substring("file://".length()) : state;
    if (dir.isBlank()) {
      throw badFlag("--state '" + state + "' names no directory: give one, e.g. --state ./state (it is created when"
          + " missing)");
    }
    try {
      return Path.of(dir);
    } catch (InvalidPathException e) {
      throw badFlag("--state " + state + " is not a directory path: e.g. --state ./state");
    }
  }

  private static Schema inferSchema(List<byte[]> values, KafkaSource.Address address) {
    SchemaInference inference = new SchemaInference();
    long rows = 0;
    for (byte[] value : values) {
      try {
        inference.observe(NdjsonLines.parse(new String(value, StandardCharsets.UTF_8)));
        rows++;
      } catch (MalformedLineException e) {
        // rejected with its partition and offset when the run reaches it
      }
    }
    return new Schema(inference, rows, "the first " + rows + (rows == 1 ? " record" : " records") + " of "
        + address.uri());
  }

  private static Schema inferSchema(LineSource lines, int sample, List<SourceFile> files) {
    return inferSchema(lines, sample, files.get(0).displayName(), files.size() > 1);
  }

  private static Schema inferSchema(LineSource lines, int sample, String firstSource, boolean more) {
    return inferSchema(lines.sample(sample), firstSource, more);
  }

  private static Schema inferSchema(List<LineSource.Line> sampled, String firstSource, boolean more) {
    SchemaInference inference = new SchemaInference();
    long rows = 0;
    for (LineSource.Line line : sampled) {
      try {
        inference.observe(NdjsonLines.parse(new String(line.bytes(), StandardCharsets.UTF_8)));
        rows++;
      } catch (MalformedLineException e) {
        // rejected with its line number when the run reaches it
      }
    }
    String where = "the first " + rows + (rows == 1 ? " row" : " rows") + " of " + firstSource
        + (more ? " and the files after it" : "");
    return new Schema(inference, rows, where);
  }

  private long delayMillis() {
    long millis;
    try {
      millis = DurationText.parseMillis(watermarkDelay);
    } catch (DurationText.TooLongException e) {
      throw badFlag("--watermark-delay " + watermarkDelay + " is too long: give at most " + TimeRange.MAX_DURATION_TEXT);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw badFlag("--watermark-delay " + watermarkDelay + " is not a duration: write an amount and a unit,"
          + " e.g. --watermark-delay '5 MINUTE' (units MILLISECOND, SECOND, MINUTE, HOUR, DAY)");
    }
    if (millis < 0) {
      throw badFlag("--watermark-delay " + watermarkDelay + " is negative: give 0 or more, e.g. '5 MINUTE'");
    }
    return millis;
  }

  private int inferRows() {
    try {
      int n = Integer.parseInt(inferRows.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw badFlag("--infer-rows " + inferRows + " is not a positive whole number: e.g. --infer-rows 1000");
  }

  private static CliException badFlag(String message) {
    return new CliException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
