package io.eventtime.cli.beam;

import io.eventtime.beam.BeamValues;
import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.beam.EventTimeState;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.KafkaRows;
import io.eventtime.beam.ProblemRows;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.RunSettings;
import io.eventtime.cli.StopSignal;
import io.eventtime.cli.output.OutputFile;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.output.RowsFile;
import io.eventtime.cli.plan.PlanRows;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.KafkaSource;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowResult;
import io.eventtime.core.state.CommittedOutputs;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.StreamingOptions;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * A {@code kafka://} topic on the {@code direct} or embedded {@code flink} runner, in streaming
 * mode, with {@code --until available} or until a stop signal: {@link
 * KafkaRows#withLiveUntilAvailable()} reads each partition up to the end offset found at start as
 * a live stream, {@link KafkaRows#withLiveUntil} reads it as it comes until the stop signal ends
 * every partition's read where it is. Each value is read by the command's own {@link PlanRows}
 * (the local runner's types, WHERE and rejections), and {@link EventTimeWindow}'s live path folds
 * each partition by its own watermark, as the local runner's processor does. The job ends by
 * itself when every read has ended and drains the windows still open. The workers hand their rows
 * to the driver through files in a scratch folder (so the runner must share this machine's file
 * system: embedded Flink), and the driver prints them as they come: the window rows ranked in close
 * order ({@link EventTimeWindow#withCloseOrder}), each printed once every row ranked before it is,
 * so that they come in the local runner's order soon after they close; late and rejected rows by
 * partition and offset within each bundle the workers hand on (a run until available: all of them
 * at the end). With a state directory, each partition starts
 * at the stored next offset and the job hands the windows still open, each partition's watermark
 * and next offset to the state ({@link EventTimeWindow#withState}), committed once the rows are
 * printed: the format the local runner's Kafka runs store, so either runner goes on from the
 * other's state.
 */
public final class BeamKafkaRunner {
  private static final String PARTITION = KafkaRows.PARTITION_FIELD;
  private static final String START = "_window_start";
  private static final String END = "_window_end";

  private BeamKafkaRunner() {}

  /** Consumer properties the read sets itself from the command's flags, not from {@code --kafka-option}. */
  private static final List<String> READ_OWN = List.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
      ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
      ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
      // the group is only told offsets, for monitoring: the reads start where the state or --kafka-start says
      ConsumerConfig.GROUP_ID_CONFIG);

  /**
   * Runs the plan over the topic up to the end offsets found at start ({@code untilAvailable}) or
   * until a stop signal or, when {@code idleMillis} is positive, until no record has come for that
   * long ({@code --until idle}), and prints its rows (to {@code output}, or stdout when null, through the
   * writer {@code writerFor} makes) and stats; {@code consumer} are the command's consumer
   * properties ({@link KafkaSource#properties}).
   */
  public static void run(QueryPlan plan, RunSettings settings, KafkaSource.Address address, Map<Object, Object> consumer,
      String runner, OutputFile output, Function<RowsFile, ResultWriter> writerFor, Path stateDir,
      boolean untilAvailable, long idleMillis) {
    PipelineOptions options;
    try {
      options = BeamRunner.options(runner, null);
    } catch (IllegalArgumentException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--runner " + runner + " cannot start: " + e.getMessage()
          + " (is the runner's classpath there? run the command through ./eventtime or bin/eventtime)", e);
    }
    options.as(StreamingOptions.class).setStreaming(true);
    Path scratch;
    try {
      scratch = Files.createTempDirectory("eventtime-" + runner + "-kafka-");
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot make a scratch folder: " + e.getMessage(), e);
    }
    Path stopFile = scratch.resolve("stop");
    Path activity = scratch.resolve("last-record"); // its time: when a worker last read a record
    Path reading = scratch.resolve("reading"); // made when the workers first poll: the job has started reading
    EventTimeWindow window = EventTimeWindow.of(plan.windowQuery(settings.delayMillis(), settings.latePolicy()))
        .withTimeField(plan.timeColumn()).withWindowFieldNames(START, END).withCloseOrder();
    EventTimeState state = null;
    try {
      Pipeline p = Pipeline.create(options);
      KafkaRows read = KafkaRows.read().withBootstrapServers(address.servers()).withTopic(address.topic())
          .withStartPosition(String.valueOf(consumer.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG)))
          .withRawValues();
      read = untilAvailable ? read.withLiveUntilAvailable() : read.withLiveUntil(new StopFile(stopFile, reading));
      if (stateDir != null) {
        state = EventTimeState.open(stateDir, window, KafkaSource.stateSource(address));
        read = read.withStartOffsets(storedOffsets(state.loaded(), stateDir));
      } else if (consumer.containsKey(ConsumerConfig.GROUP_ID_CONFIG)) {
        // no state to tell the group at the end: the reads tell it the offsets read, as the local runner does
        read = read.withOffsetsCommittedTo(String.valueOf(consumer.get(ConsumerConfig.GROUP_ID_CONFIG)));
      }
      for (Map.Entry<Object, Object> c : consumer.entrySet()) {
        if (!READ_OWN.contains(String.valueOf(c.getKey()))) {
          read = read.withConsumerProperty(String.valueOf(c.getKey()), c.getValue());
        }
      }
      KafkaRows.Result raw = p.apply("ReadTopic", read);
      Schema schema = rowSchema(plan, settings.keepsLateRows());
      TupleTag<Row> rowsTag = new TupleTag<>() {};
      TupleTag<String> rejectedTag = new TupleTag<>() {};
      PCollectionTuple planned = raw.rows().apply("ReadValues",
          ParDo.of(new ReadValueFn(plan, schema, rowsTag, rejectedTag, idleMillis > 0 ? activity.toString() : null))
              .withOutputTags(rowsTag, TupleTagList.of(rejectedTag)));
      PCollection<Row> rows = planned.get(rowsTag).setRowSchema(schema);
      window = window.withPartitionField(PARTITION).withPartitions(raw.partitions());
      EventTimeWindowResult windows = rows.apply("Window", state == null ? window : window.withState(state));
      int keys = plan.keyInputs().size();
      toScratch(windows.windowsInCloseOrder().apply("Results", MapElements.into(TypeDescriptors.strings())
          .via((KV<Long, Row> r) -> BeamRunner.encode(new Ranked(r.getKey(), BeamValues.windowResult(r.getValue(), keys))))),
          scratch, "windows");
      String source = address.uri();
      String timeColumn = plan.timeColumn();
      toScratch(windows.late().apply("LateRows", MapElements.into(TypeDescriptors.strings())
          .via((Row r) -> BeamRunner.encode(lateRow(r, timeColumn, source)))), scratch, "late");
      toScratch(planned.get(rejectedTag), scratch, "rejected");
      // as the local runner: the files a state names are cut back to their committed lengths, then appended to
      Map<String, Long> committed = state == null ? Map.of() : state.loaded().outputs();
      CommittedOutputs.cutBack(committed);
      if (state == null) {
        settings.openOutputs();
      } else {
        settings.openOutputsInPlace(committed);
      }
      RowsFile rowsFile = output == null ? null : RowsFile.open(output, committed.containsKey(RunSettings.path(output)));
      ResultWriter out = writerFor.apply(rowsFile);
      try (rowsFile) {
        // a run until available writes its late and rejected rows at the end, all in partition and offset order
        Printer printer = new Printer(scratch, settings, source, out, !untilAvailable);
        PipelineResult result = runPrinting(p, untilAvailable ? null : stopFile, idleMillis, reading, activity, printer);
        if (result.waitUntilFinish() != PipelineResult.State.DONE) {
          throw new CliException(ErrorCode.IO_ERROR, "the " + runner + " job ended " + result.getState()
              + ", not done: its windows are not all printed and no state is stored");
        }
        printer.printNew(true);
        printer.requireAllPrinted();
        EventTimeState stored = state;
        settings.finish(out, EventTimeMetrics.stats(result), stored == null ? null : () -> {
          out.flush();
          Map<String, Long> lengths = new TreeMap<>();
          if (rowsFile != null) {
            lengths.put(rowsFile.path(), rowsFile.committedLength());
          }
          settings.committedLengths(lengths);
          stored.commit(result, lengths);
          KafkaSource.commitToGroup(groupProperties(consumer), address.topic(), stored.committed());
        });
      } catch (RuntimeException | Error e) {
        out.flushAfterFailure(); // the rows printed before the failure come before its error line
        throw e;
      }
    } finally {
      settings.keepAfterFailure(); // while the state is still locked
      if (state != null) {
        state.close();
      }
      BeamRunner.delete(scratch);
    }
  }

  /**
   * Runs the job, printing the rows the workers hand on as they come: {@code run()} waits for the
   * job's end on a thread of its own (attached, so that the job's counters come back with it) while
   * this one prints. With a {@code stopFile} (a run until stopped) the first stop signal makes it,
   * which ends every partition's read where it is, and the job drains (or hands on) and ends; a run
   * until available (null) ends by itself and leaves the signals as they are.
   */
  private static PipelineResult runPrinting(Pipeline p, Path stopFile, long idleMillis, Path reading, Path activity,
      Printer printer) {
    FutureTask<PipelineResult> job = new FutureTask<>(p::run);
    Thread runner = new Thread(job, "eventtime-job");
    runner.setDaemon(true);
    try (StopSignal.Watch stop = stopFile == null ? () -> { } : StopSignal.onStop(() -> touch(stopFile))) {
      runner.start();
      while (!job.isDone()) {
        Thread.sleep(200);
        printer.printNew(printer.problemsAsTheyCome);
        long lastRecord = lastRecordAt(reading, activity);
        if (stopFile != null && idleMillis > 0 && lastRecord > 0
            && System.currentTimeMillis() - lastRecord >= idleMillis) {
          touch(stopFile); // --until idle: no record for that long, counted from the first poll and from each record
        }
      }
      return job.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (stopFile != null) {
        touch(stopFile);
      }
      throw new CliException(ErrorCode.IO_ERROR, "interrupted while the job ran; its reads were told to stop", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** A window row and its rank in close order, as the workers hand it to the driver. */
  record Ranked(long rank, WindowResult window) implements Serializable {}

  /**
   * Prints what the workers hand on through the scratch folder: rejected and late records by
   * partition and offset within each call that prints them, window rows in rank order, each once
   * every row ranked before it is printed (the ranks have no gap, so a row waits only for rows still
   * on their way).
   */
  private static final class Printer {
    private final Path scratch;
    private final RunSettings settings;
    private final String source;
    private final ResultWriter out;
    /** Whether the late and rejected rows are printed as they come, or only at the end. */
    final boolean problemsAsTheyCome;
    private final Set<Path> printed = new HashSet<>();
    private final RankOrder<WindowResult> windows = new RankOrder<>();

    Printer(Path scratch, RunSettings settings, String source, ResultWriter out, boolean problemsAsTheyCome) {
      this.scratch = scratch;
      this.problemsAsTheyCome = problemsAsTheyCome;
      this.settings = settings;
      this.source = source;
      this.out = out;
    }

    /**
     * Prints the window rows next in rank, and with {@code problems} the late and rejected rows
     * handed on since the last call that printed them.
     */
    void printNew(boolean problems) {
      if (problems) {
        printProblems();
      }
      for (Ranked w : BeamRunner.<Ranked>readNew(scratch, "windows", printed)) {
        windows.add(w.rank(), w.window());
      }
      windows.drain(out::write);
      out.flush();
    }

    private void printProblems() {
      List<KafkaProblem> rejected = BeamRunner.readNew(scratch, "rejected", printed);
      rejected.sort(KafkaProblem.ARRIVAL);
      for (KafkaProblem r : rejected) {
        settings.rejected(source, r.partition(), r.offset(), r.field(), r.reason(), r.text(), 0, r.text().length,
            r.json());
      }
      List<KafkaProblem> late = BeamRunner.readNew(scratch, "late", printed);
      late.sort(KafkaProblem.ARRIVAL);
      for (KafkaProblem l : late) {
        settings.late(source, l.partition(), l.offset(), l.eventTime(), l.reason(), l.text(), 0, l.text().length);
      }
    }

    /** Fails the run if a ranked row is missing once the job is done: a row lost, never printed. */
    void requireAllPrinted() {
      windows.requireNoGap();
    }
  }

  /** The command's consumer properties as a {@code Properties}, for a consumer of the group's commit. */
  private static java.util.Properties groupProperties(Map<Object, Object> consumer) {
    java.util.Properties p = new java.util.Properties();
    p.putAll(consumer);
    return p;
  }

  /**
   * When a worker last read a record (the activity file's time), or when the workers first polled
   * before the first record: the job's start-up does not count as the topic being quiet; 0 before
   * the first poll.
   */
  private static long lastRecordAt(Path reading, Path activity) {
    long at = 0;
    for (Path f : List.of(reading, activity)) {
      try {
        at = Math.max(at, Files.getLastModifiedTime(f).toMillis());
      } catch (IOException notYet) {
        // not made yet
      }
    }
    return at;
  }

  private static void touch(Path file) {
    try {
      Files.createFile(file);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // a second signal: the reads are already told
    } catch (IOException e) {
      throw new UncheckedIOException("cannot tell the job to stop (" + file + "): " + e.getMessage(), e);
    }
  }

  /**
   * Ends every partition's read once the stop file exists: the workers share this machine's files.
   * Asked before each poll, it also makes the reading file at the first, so that the driver knows
   * when the reads began.
   */
  static final class StopFile implements SerializableFunction<Integer, Boolean> {
    private final String file;
    private final String reading;
    private transient boolean told;

    StopFile(Path file, Path reading) {
      this.file = file.toString();
      this.reading = reading.toString();
    }

    @Override
    public Boolean apply(Integer partition) {
      if (!told) {
        told = true;
        try {
          Files.createFile(Path.of(reading));
        } catch (java.nio.file.FileAlreadyExistsException another) {
          // another partition's read came first
        } catch (IOException e) {
          throw new UncheckedIOException("cannot note that the reads began in " + reading + ": " + e.getMessage(), e);
        }
      }
      return Files.exists(Path.of(file));
    }
  }

  /**
   * Where each partition goes on: the next offsets {@code stored} holds; none for a partition no
   * record has been read from yet (a state before its first run, a partition that was empty), which
   * starts at the start position. A state of files is refused.
   */
  private static Map<Integer, Long> storedOffsets(OpenState stored, Path stateDir) {
    Map<Integer, Long> offsets = new TreeMap<>();
    for (OpenState.Partition part : stored.partitions()) {
      if (part.position() == null && part.maxEventTime() == null) {
        continue;
      }
      if (!(part.position() instanceof OpenState.NextOffset next)) {
        throw new CliException(ErrorCode.STATE_REFUSED, "--state " + stateDir + ": the state holds no Kafka offset for"
            + " partition " + part.id() + " (it was written by a run over files, or by another source): give a Kafka run"
            + " its own state directory");
      }
      offsets.put(Integer.parseInt(part.id()), next.nextOffset());
    }
    return offsets;
  }

  /** The rows the transform takes: the plan's input columns, the partition, the offset, the value's text. */
  static Schema rowSchema(QueryPlan plan, boolean withLine) {
    Schema files = BeamRunner.rowSchema(plan, withLine);
    Schema.Builder b = Schema.builder();
    for (Schema.Field f : files.getFields()) {
      if (f.getName().equals(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)) {
        b.addInt32Field(PARTITION);
      }
      b.addField(f);
    }
    return b.build();
  }

  /** A late or rejected record on its way from the workers to the driver. */
  record KafkaProblem(int partition, long offset, String field, String reason, long eventTime, byte[] text, boolean json)
      implements Serializable {
    static final Comparator<KafkaProblem> ARRIVAL =
        Comparator.comparingInt(KafkaProblem::partition).thenComparingLong(KafkaProblem::offset);
  }

  /** A late row of the transform, with its partition, offset and reason in the core's words. */
  static KafkaProblem lateRow(Row problem, String timeColumn, String source) {
    Row row = problem.getRow(ProblemRows.ROW);
    byte[] text = row.getSchema().hasField(BeamRunner.LINE) ? row.getBytes(BeamRunner.LINE) : new byte[0];
    return new KafkaProblem(row.getInt32(PARTITION), row.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD), null,
        ProblemRows.liveLateReason(problem), row.getDateTime(timeColumn).getMillis(), text, true);
  }

  /** Reads each record's value by the plan, as the local runner does, into a row or a rejected record. */
  static final class ReadValueFn extends DoFn<Row, Row> {
    private final QueryPlan plan;
    private final Schema schema;
    private final TupleTag<Row> main;
    private final TupleTag<String> rejected;
    private final Counter rowsIn = Metrics.counter(EventTimeMetrics.NAMESPACE, EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = Metrics.counter(EventTimeMetrics.NAMESPACE, EventTimeMetrics.ROWS_REJECTED);
    /** With --until idle: the file whose time says when a record was last read, else null. */
    private final String activity;
    private transient PlanRows rows;
    private transient long toldAt;

    ReadValueFn(QueryPlan plan, Schema schema, TupleTag<Row> main, TupleTag<String> rejected, String activity) {
      this.plan = plan;
      this.schema = schema;
      this.main = main;
      this.rejected = rejected;
      this.activity = activity;
    }

    @Setup
    public void setup() {
      rows = new PlanRows(plan, "value");
    }

    @ProcessElement
    public void process(@Element Row record, MultiOutputReceiver out) {
      if (activity != null) {
        tellARecordCame();
      }
      byte[] value = record.getBytes(KafkaRows.VALUE_FIELD);
      int partition = record.getInt32(PARTITION);
      long offset = record.getInt64(KafkaRows.OFFSET_FIELD);
      if (value == null) {
        reject(out, partition, offset, null, PlanRows.NO_VALUE, new byte[0], false);
        return;
      }
      switch (rows.read(value, 0, value.length)) {
        case REJECTED:
          reject(out, partition, offset, rows.rejectedField(), rows.rejectedReason(), value, rows.rejectedJson());
          return;
        case FILTERED:
          return;
        default:
          Row.Builder b = BeamRunner.planRow(plan, schema, rows).addValue(partition).addValue(offset);
          if (schema.hasField(BeamRunner.LINE)) {
            b.addValue(value);
          }
          out.get(main).output(b.build());
      }
    }

    /** Sets the activity file's time to now, at most every 100 ms: the workers share this machine's files. */
    private void tellARecordCame() {
      long now = System.currentTimeMillis();
      if (now - toldAt < 100) {
        return;
      }
      toldAt = now;
      try {
        Path file = Path.of(activity);
        if (!Files.exists(file)) {
          Files.createFile(file);
        }
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(now));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // another worker made it
      } catch (IOException e) {
        throw new UncheckedIOException("cannot note the time of the last record in " + activity + ": " + e.getMessage(), e);
      }
    }

    private void reject(MultiOutputReceiver out, int partition, long offset, String field, String reason, byte[] text,
        boolean json) {
      rowsIn.inc();
      rowsRejected.inc();
      out.get(rejected).output(BeamRunner.encode(new KafkaProblem(partition, offset, field, reason, 0,
          Arrays.copyOf(text, text.length), json)));
    }
  }

  private static void toScratch(PCollection<String> lines, Path scratch, String name) {
    lines.apply("Write" + name, ParDo.of(new ScratchFileFn(scratch.resolve(name).toString())));
  }

  /**
   * Writes the lines of each bundle into a file of their own in a folder of the scratch folder,
   * once the bundle is done: a streaming job has no end at which to write one file, and the driver
   * reads the folder while the job runs (a run until stopped) or once it has ended.
   */
  static final class ScratchFileFn extends DoFn<String, Void> {
    private final String folder;
    private transient List<String> bundle;

    ScratchFileFn(String folder) {
      this.folder = folder;
    }

    @StartBundle
    public void start() {
      bundle = new ArrayList<>();
    }

    @ProcessElement
    public void process(@Element String line) {
      bundle.add(line);
    }

    @FinishBundle
    public void finish() {
      if (bundle.isEmpty()) {
        return;
      }
      try {
        Path dir = Files.createDirectories(Path.of(folder));
        String name = UUID.randomUUID() + ".txt";
        // written aside, then renamed: the driver reads the parts while the job runs, never a part half written
        Path aside = Files.write(dir.resolve("writing-" + name), bundle, StandardCharsets.UTF_8);
        Files.move(aside, dir.resolve("part-" + name), StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot hand the rows to the driver in " + folder + ": " + e.getMessage(), e);
      }
      bundle = new ArrayList<>();
    }
  }
}
