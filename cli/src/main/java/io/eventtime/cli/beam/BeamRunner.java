package io.eventtime.cli.beam;

import io.eventtime.beam.BeamValues;
import io.eventtime.beam.EventTimeMetrics;
import io.eventtime.beam.EventTimeState;
import io.eventtime.beam.EventTimeWindow;
import io.eventtime.beam.EventTimeWindowResult;
import io.eventtime.beam.ProblemRows;
import io.eventtime.beam.RunnerDefaults;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.RunSettings;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.plan.InputColumn;
import io.eventtime.cli.plan.PlanRows;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.LineSource;
import io.eventtime.cli.source.SourceFile;
import io.eventtime.core.ArrivalPosition;
import io.eventtime.core.WindowResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The {@code direct}, {@code flink} and {@code spark} runners: the same plan as a Beam pipeline.
 * Each file is read by one worker in line order, through the same {@link PlanRows} as the local
 * runner, into rows that carry their arrival position (file index and line); the project's
 * {@link EventTimeWindow} transform decides lateness from those positions, so every runner gives
 * the contract's windows however it splits the work. The windows, late rows and rejected rows are
 * written to a scratch folder, read back by the driver, and printed in close order (windows) and
 * arrival order (late and rejected rows), exactly as the local runner prints them.
 */
public final class BeamRunner {
  private static final String ARRIVAL = EventTimeWindow.DEFAULT_ARRIVAL_FIELD;
  static final String LINE = "_line";
  private static final String START = "_window_start";
  private static final String END = "_window_end";

  private BeamRunner() {}

  /** The pipeline options of a runner: {@code direct}, {@code flink} or {@code spark}. */
  static PipelineOptions options(String runner, String master) {
    switch (runner) {
      case "direct":
        // immutability and encodability checks walk the whole pipeline for every bundle: minutes on a small file
        return PipelineOptionsFactory.fromArgs("--runner=DirectRunner", "--targetParallelism=2",
            "--enforceImmutability=false", "--enforceEncodability=false").create();
      case "flink": {
        String flinkMaster = master == null ? RunnerDefaults.EMBEDDED_FLINK : master;
        List<String> args = new ArrayList<>(List.of("--runner=FlinkRunner", "--flinkMaster=" + flinkMaster));
        RunnerDefaults.flinkParallelism(flinkMaster).ifPresent(n -> args.add("--parallelism=" + n));
        return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
      }
      case "spark":
        return PipelineOptionsFactory.fromArgs("--runner=SparkRunner",
            "--sparkMaster=" + (master == null ? RunnerDefaults.SPARK_MASTER : master),
            "--storageLevel=" + RunnerDefaults.SPARK_STORAGE_LEVEL).create();
      default:
        throw new IllegalArgumentException("not a Beam runner: " + runner);
    }
  }

  /**
   * Runs the plan and prints its rows and stats. With a state directory the pipeline starts from
   * the stored state and the new one is committed only after the output is written. The late and
   * rejected files are opened once the state is locked, and written by the driver once the
   * pipeline has finished: a pipeline that fails leaves them empty (it counted nothing the driver
   * saw), a failure while they are written leaves in them the rows written so far.
   */
  public static void run(QueryPlan plan, RunSettings settings, List<SourceFile> files, String runner, String master,
      ResultWriter out, Path stateDir) {
    PipelineOptions options;
    try {
      options = options(runner, master);
    } catch (IllegalArgumentException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, "--runner " + runner + " cannot start: " + e.getMessage()
          + " (is the runner's classpath there? run the command through ./eventtime or bin/eventtime)", e);
    }
    Path scratch;
    try {
      scratch = Files.createTempDirectory("eventtime-" + runner + "-");
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot make a scratch folder: " + e.getMessage(), e);
    }
    EventTimeState state = null;
    try {
      Schema schema = rowSchema(plan, settings.keepsLateRows());
      Pipeline p = Pipeline.create(options);
      List<KV<Long, String>> indexed = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        indexed.add(KV.of((long) i, files.get(i).path()));
      }
      TupleTag<Row> rowsTag = new TupleTag<>() {};
      TupleTag<String> rejectedTag = new TupleTag<>() {};
      PCollectionTuple read = p
          .apply("Files", Create.of(indexed).withCoder(KvCoder.of(VarLongCoder.of(), StringUtf8Coder.of())))
          .apply("SpreadFiles", Reshuffle.viaRandomKey())
          .apply("ReadLines", ParDo.of(new ReadFileFn(plan, schema, files, rowsTag, rejectedTag))
              .withOutputTags(rowsTag, TupleTagList.of(rejectedTag)));
      PCollection<Row> rows = read.get(rowsTag).setRowSchema(schema);
      EventTimeWindow window = EventTimeWindow.of(plan.windowQuery(settings.delayMillis(), settings.latePolicy()))
          .withTimeField(plan.timeColumn())
          .withWindowFieldNames(START, END);
      state = stateDir == null ? null : EventTimeState.open(stateDir, window);
      EventTimeWindowResult windows = rows.apply("Window", state == null ? window : window.withState(state));
      int keys = plan.keyInputs().size();
      write(windows.windows().apply("Results", MapElements.into(TypeDescriptors.strings())
          .via((Row r) -> encode(BeamValues.windowResult(r, keys)))), scratch, "windows");
      write(windows.late().apply("LateRows", MapElements.into(TypeDescriptors.strings())
          .via((Row r) -> encode(lateRow(r, plan.timeColumn(), files)))), scratch, "late");
      write(read.get(rejectedTag).setCoder(StringUtf8Coder.of()), scratch, "rejected");
      settings.openOutputs();
      PipelineResult result = p.run();
      result.waitUntilFinish();

      List<Problem> rejected = readAll(scratch, "rejected");
      rejected.sort(Comparator.comparingLong(Problem::position));
      for (Problem r : rejected) {
        settings.rejected(r.source(), -1, r.line(), r.field(), r.reason(), r.text(), 0, r.text().length, r.json());
      }
      List<Problem> late = readAll(scratch, "late");
      late.sort(Comparator.comparingLong(Problem::position));
      for (Problem l : late) {
        settings.late(l.source(), -1, l.line(), l.eventTime(), l.reason(), l.text(), 0, l.text().length);
      }
      List<WindowResult> results = readAll(scratch, "windows");
      results.sort(WindowResult.CLOSE_ORDER);
      results.forEach(out::write);
      settings.finish(out, EventTimeMetrics.stats(result), state == null ? null : state::commit);
    } finally {
      settings.keepAfterFailure(); // while the state is still locked: no other run writes these files now
      if (state != null) {
        state.close();
      }
      delete(scratch);
    }
  }

  /** The rows the transform takes: the plan's input columns, the arrival position, the line's text. */
  static Schema rowSchema(QueryPlan plan, boolean withLine) {
    Schema.Builder b = Schema.builder();
    for (int i = 0; i < plan.inputs().size(); i++) {
      InputColumn c = plan.inputs().get(i);
      b.addNullableField(c.name(), i == plan.timeInput() ? FieldType.DATETIME : BeamValues.beamType(c.type()));
    }
    b.addInt64Field(ARRIVAL);
    if (withLine) {
      b.addNullableField(LINE, FieldType.BYTES);
    }
    return b.build();
  }

  /** Reads one file, line by line in order, as the local runner does. */
  static final class ReadFileFn extends DoFn<KV<Long, String>, Row> {
    private final QueryPlan plan;
    private final Schema schema;
    private final List<SourceFile> files;
    private final TupleTag<Row> main;
    private final TupleTag<String> rejected;
    private final Counter rowsIn = Metrics.counter(EventTimeMetrics.NAMESPACE, EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = Metrics.counter(EventTimeMetrics.NAMESPACE, EventTimeMetrics.ROWS_REJECTED);

    ReadFileFn(QueryPlan plan, Schema schema, List<SourceFile> files, TupleTag<Row> main, TupleTag<String> rejected) {
      this.plan = plan;
      this.main = main;
      this.schema = schema;
      this.files = files;
      this.rejected = rejected;
    }

    @ProcessElement
    public void process(@Element KV<Long, String> file, MultiOutputReceiver out) throws IOException {
      int fileIndex = file.getKey().intValue();
      SourceFile source = files.get(fileIndex);
      PlanRows rows = new PlanRows(plan);
      boolean withLine = schema.hasField(LINE);
      try (LineSource lines = new LineSource(List.of(source))) {
        while (lines.next()) {
          byte[] buf = lines.buffer();
          int off = lines.offset();
          int len = lines.length();
          long position = ArrivalPosition.of(fileIndex, lines.lineNumber());
          switch (rows.read(buf, off, len)) {
            case REJECTED:
              rowsIn.inc();
              rowsRejected.inc();
              out.get(rejected).output(encode(new Problem(position, source.displayName(), lines.lineNumber(),
                  rows.rejectedField(), rows.rejectedReason(), 0, java.util.Arrays.copyOfRange(buf, off, off + len),
                  rows.rejectedJson())));
              break;
            case FILTERED:
              break;
            default:
              Row.Builder b = planRow(plan, schema, rows);
              b.addValue(position);
              if (withLine) {
                b.addValue(java.util.Arrays.copyOfRange(buf, off, off + len));
              }
              out.get(main).output(b.build());
          }
        }
      }
    }
  }

  /** A row of {@code schema} begun with the plan's input columns of the line {@code rows} read last. */
  static Row.Builder planRow(QueryPlan plan, Schema schema, PlanRows rows) {
    Object[] values = rows.row();
    Row.Builder b = Row.withSchema(schema);
    for (int i = 0; i < values.length; i++) {
      b.addValue(i == plan.timeInput() ? new org.joda.time.Instant(rows.eventTime())
          : BeamValues.toBeam(values[i], schema.getField(i).getType()));
    }
    return b;
  }

  /** A late row of the transform, with its source, line and reason. */
  static Problem lateRow(Row problem, String timeColumn, List<SourceFile> files) {
    Row row = problem.getRow(ProblemRows.ROW);
    long position = row.getInt64(ARRIVAL);
    String reason = ProblemRows.lateReason(problem, position);
    byte[] text = row.getSchema().hasField(LINE) ? row.getBytes(LINE) : new byte[0];
    return new Problem(position, files.get(ArrivalPosition.file(position)).displayName(), ArrivalPosition.line(position),
        null, reason, row.getDateTime(timeColumn).getMillis(), text, true);
  }

  /** A late or rejected row on its way from the workers to the driver. */
  record Problem(long position, String source, long line, String field, String reason, long eventTime, byte[] text,
      boolean json) implements Serializable {}

  private static void write(PCollection<String> lines, Path scratch, String name) {
    lines.apply("Write" + name, TextIO.write().to(scratch.resolve(name).toString() + "/part").withSuffix(".txt"));
  }

  static String encode(Serializable value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  static <T> List<T> readAll(Path scratch, String name) {
    return readNew(scratch, name, new HashSet<>());
  }

  /** The rows of the parts in folder {@code name} of {@code scratch} not in {@code done}, which gains them. */
  @SuppressWarnings("unchecked")
  static <T> List<T> readNew(Path scratch, String name, Set<Path> done) {
    List<T> all = new ArrayList<>();
    Path dir = scratch.resolve(name);
    if (!Files.isDirectory(dir)) {
      return all;
    }
    try (DirectoryStream<Path> parts = Files.newDirectoryStream(dir, "part*")) {
      for (Path part : parts) {
        if (!done.add(part)) {
          continue;
        }
        for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
          if (line.isEmpty()) {
            continue;
          }
          try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(line)))) {
            all.add((T) in.readObject());
          } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    } catch (IOException e) {
      throw new CliException(ErrorCode.IO_ERROR, "cannot read the pipeline's results in " + dir + ": " + e.getMessage(), e);
    }
    return all;
  }

  static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // a scratch folder left in the temp directory harms nothing
    }
  }
}
