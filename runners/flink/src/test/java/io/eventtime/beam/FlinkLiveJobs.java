package io.eventtime.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * What the tests of jobs on embedded Flink streaming from Kafka share: the options (checkpoints
 * into a folder, a fixed-delay restart), one stream's part of
 * a pipeline (KafkaRows, an optional planned failure, EventTimeWindow, {@link RowFiles}), finding
 * the last completed checkpoint, and waiting for the outputs.
 */
final class FlinkLiveJobs {
  static final List<String> FOLDERS = List.of("windows", "late", "rejected");
  /** How long the outputs may take to come; a bound on waiting, not an assertion on speed. */
  static final long WAIT_MILLIS = 120_000;
  static final long CHECKPOINT_MILLIS = 500;

  private FlinkLiveJobs() {}

  /**
   * Embedded Flink, streaming, detached, two tasks wide, a checkpoint every {@value
   * #CHECKPOINT_MILLIS} ms into {@code checkpoints}, restarts 500 ms after a failure, up to three.
   */
  static FlinkPipelineOptions options(Path checkpoints) {
    FlinkPipelineOptions o = PipelineOptionsFactory.create().as(FlinkPipelineOptions.class);
    o.setRunner(FlinkRunner.class);
    o.setFlinkMaster("[local]");
    o.setParallelism(2);
    o.setStreaming(true);
    o.setAttachedMode(false);
    o.setCheckpointingInterval(CHECKPOINT_MILLIS);
    o.setStateBackend("filesystem");
    o.setStateBackendStoragePath(checkpoints.toUri().toString());
    o.setExternalizedCheckpointsEnabled(true); // a completed checkpoint is a folder with its _metadata
    o.setNumberOfExecutionRetries(3);
    o.setExecutionRetryDelay(500L);
    return o;
  }

  /**
   * Adds one stream to {@code p}: its topic read by KafkaRows from the first offset, the planned
   * failure when {@code failAt} is given (offset and marker), its EventTimeWindow (over the topic's
   * partitions when the stream has several), and the outputs
   * into {@code out}'s folders.
   */
  static void addStream(Pipeline p, String name, String bootstrapServers, String topic, RandomKafkaStream stream,
      Optional<FailOnce> failAt, Path out) {
    addStream(p, name, bootstrapServers, topic, stream, failAt, out, UnaryOperator.identity());
  }

  /** {@link #addStream} with the read set further by {@code read}, such as {@link KafkaRows#withLiveUntilAvailable()}. */
  static void addStream(Pipeline p, String name, String bootstrapServers, String topic, RandomKafkaStream stream,
      Optional<FailOnce> failAt, Path out, UnaryOperator<KafkaRows> read) {
    KafkaRows.Result in = p.apply(name + "-Read", read.apply(KafkaRows.read().withBootstrapServers(bootstrapServers)
        .withTopic(topic).withStartPosition(KafkaRows.EARLIEST).withSchema(RandomKafkaStream.SCHEMA)));
    assertThat(in.rows().isBounded()).isEqualTo(PCollection.IsBounded.UNBOUNDED);
    PCollection<Row> rows = in.rows();
    if (failAt.isPresent()) {
      rows = rows.apply(name + "-FailOnce", ParDo.of(failAt.get())).setRowSchema(in.rows().getSchema());
    }
    EventTimeWindowResult r = rows.apply(name, stream.transform(in.partitions()));
    int keys = stream.query().keyFields().size();
    r.windows().apply(name + "-Windows", ParDo.of(new RowFiles(out.resolve("windows"), RowFiles.Kind.WINDOW, keys)));
    r.late().apply(name + "-Late", ParDo.of(new RowFiles(out.resolve("late"), RowFiles.Kind.LATE, keys)));
    r.rejected().apply(name + "-Rejected", ParDo.of(new RowFiles(out.resolve("rejected"), RowFiles.Kind.REJECTED, keys)));
    in.rejected().apply(name + "-ReadRejected", ParDo.of(new RowFiles(out.resolve("read-rejected"),
        RowFiles.Kind.READ_REJECTED, keys)));
  }

  /**
   * Passes rows on, but throws once, at the row of offset {@code offset}, the first time it comes:
   * the marker file records that it has thrown, so the row passes after the restore.
   */
  static final class FailOnce extends DoFn<Row, Row> {
    private final long offset;
    private final String marker;

    FailOnce(long offset, Path marker) {
      this.offset = offset;
      this.marker = marker.toString();
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) throws IOException {
      if (row.getInt64(KafkaRows.OFFSET_FIELD) == offset && !Files.exists(Path.of(marker))) {
        Files.createFile(Path.of(marker));
        throw new IllegalStateException("the test's planned failure at offset " + offset);
      }
      out.output(row);
    }
  }

  /** The newest completed checkpoint under {@code checkpoints} (a {@code chk-N} folder with its {@code _metadata}). */
  static Optional<Path> lastCheckpoint(Path checkpoints) {
    if (!Files.isDirectory(checkpoints)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(checkpoints, 3)) {
      return files.filter(f -> f.getFileName().toString().equals("_metadata"))
          .map(Path::getParent)
          .filter(d -> d.getFileName().toString().startsWith("chk-"))
          .max((a, b) -> Long.compare(number(a), number(b)));
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty(); // a checkpoint folder went away while listed (Flink keeps only the last): look again
    }
  }

  static long number(Path checkpoint) {
    return Long.parseLong(checkpoint.getFileName().toString().substring("chk-".length()));
  }

  /**
   * Cancels {@code job} and waits (bounded) until Flink has stopped it: {@link PipelineResult#cancel}
   * returns once Flink has taken the request, and the job may then still write a checkpoint into
   * the test's folder while JUnit removes it. The embedded cluster shuts down once its job has
   * stopped; asked for the job's state then, it says it is not running.
   */
  static void stop(PipelineResult job) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    try {
      job.cancel();
      while (!job.getState().isTerminal() && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
    } catch (IllegalStateException clusterShutDown) {
      // the job stopped, and its cluster with it
    }
  }

  /** Waits (bounded) until {@code done}, failing with {@code what} and the job's state. */
  static void await(String what, BooleanSupplier done, PipelineResult job) throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline || job.getState().isTerminal()) {
        throw new AssertionError("within " + WAIT_MILLIS / 1000 + " s, with the job " + job.getState() + ": " + what);
      }
      Thread.sleep(200);
    }
  }

  /** Whether every expected file has come (each identity with any content: the assertion compares the texts). */
  static boolean allCame(Map<String, Map<String, String>> expected, Map<String, Map<String, String>> came) {
    return expected.entrySet().stream().allMatch(e -> came.get(e.getKey()).keySet().containsAll(e.getValue().keySet()));
  }
}
