package io.eventtime.cli.local;

import io.eventtime.cli.RunSettings;
import io.eventtime.cli.output.ResultWriter;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.source.LineSource;
import io.eventtime.cli.source.LiveFeed;
import io.eventtime.core.OpenState;
import io.eventtime.core.PartitionedWindowProcessor;
import io.eventtime.core.Stats;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import java.util.Arrays;

/**
 * The {@code local} runner: one pass over the lines in arrival order through the core's
 * {@link WindowProcessor}, which holds only the open windows and hands each window over as soon
 * as the watermark closes it, so results stream out while the file is read. The lines are parsed
 * ahead on other threads ({@link ParsedLines}: only the fields the query uses) and folded here,
 * on one thread, in arrival order.
 */
public final class LocalRunner {
  private static final long FLUSH_NANOS = 200_000_000L;
  /** A live run with a state commits at least this often while rows come (design 4.2). */
  private static final long COMMIT_NANOS = 1_000_000_000L;

  private LocalRunner() {}

  /** What a run ends with: its stats, and the open windows it held back when it carries state. */
  public record Outcome(Stats stats, OpenState held) {}

  /**
   * Stores a live run's state: the open windows held and where each partition goes on (design
   * 4.2; null for a partition the source says nothing of yet).
   */
  @FunctionalInterface
  public interface Committer {
    void commit(OpenState held, OpenState.Position[] next);
  }

  /** What a live run ends with: its stats, the windows it held back (null without a state), where each partition goes on. */
  public record LiveOutcome(Stats stats, OpenState held, OpenState.Position[] next) {}

  /**
   * Runs the plan from {@code start} (the stored state, or {@link OpenState#empty()}); with
   * {@code hold}, the windows still open at the end are handed back instead of emitted. From
   * standard input, the window rows a batch closed are flushed at once, and {@code progress} (a
   * live run's line on stderr; {@link Progress#OFF} for files) is told after each batch.
   */
  public static Outcome run(QueryPlan plan, RunSettings settings, LineSource lines, ResultWriter out, OpenState start,
      boolean hold, Progress progress) {
    long[] emitted = new long[1];
    WindowProcessor processor = new WindowProcessor(
        plan.windowQuery(settings.delayMillis(), settings.latePolicy()), r -> {
          emitted[0]++;
          out.write(r);
        }, start);
    boolean live = lines.isLive(); // standard input: a window row is flushed as soon as it is written
    Object[] inputs = new Object[plan.aggregates().size()];
    boolean keepLate = settings.keepsLateRows(); // a late row's reason is worded only when it is written
    long lastFlush = System.nanoTime();
    try (ParsedLines parsed = ParsedLines.start(plan, lines)) {
      ParsedLines.Batch b;
      while ((b = parsed.next()) != null) {
        long emittedBefore = emitted[0];
        for (int i = 0; i < b.size; i++) {
          switch (b.outcomes[i]) {
            case REJECTED:
              processor.reject();
              settings.rejected(b.sources[i], -1, b.numbers[i], b.rejectedFields[i], b.rejectedReasons[i], b.bytes,
                  b.offsets[i], b.lengths[i], b.rejectedJson[i]);
              continue;
            case FILTERED:
              continue;
            default:
              break;
          }
          System.arraycopy(b.inputs, i * b.width, inputs, 0, b.width);
          long ts = b.times[i];
          if (!processor.process(b.keys[i], ts, inputs) && keepLate) {
            settings.late(b.sources[i], -1, b.numbers[i], ts, processor.lateReason(ts), b.bytes, b.offsets[i],
                b.lengths[i]);
          }
        }
        long now = System.nanoTime();
        if ((live && emitted[0] > emittedBefore) || now - lastFlush > FLUSH_NANOS) {
          out.flush();
          lastFlush = now;
        }
        if (progress != Progress.OFF) {
          Stats so = processor.stats();
          progress.update(so.rowsIn(), processor.watermark(), processor.openWindowCount(), so.lateDropped());
        }
      }
    } finally {
      progress.end();
    }
    if (hold) {
      OpenState held = processor.hold();
      return new Outcome(processor.stats(), held);
    }
    processor.finish();
    return new Outcome(processor.stats(), null);
  }

  /**
   * Runs the plan over a live source (a Kafka topic, each partition a partition of the contract;
   * followed files, one partition), folded by core's {@link PartitionedWindowProcessor}: from
   * {@code start} (the stored state, null for none), until the source ends ({@code --until}, or a
   * stop). Window rows are flushed as soon as a batch closes any. With {@code committer} (a state),
   * after every batch that emitted windows and at least once a second while rows come, the open
   * windows and where each partition goes on are committed (design 4.2), and the windows still
   * open at the end are handed back; without one, they are emitted at the end (a drain, design 1.6).
   */
  public static LiveOutcome runLive(QueryPlan plan, RunSettings settings, LiveFeed source, ResultWriter out,
      OpenState start, Committer committer, Progress progress) {
    WindowQuery query = plan.windowQuery(settings.delayMillis(), settings.latePolicy());
    long[] emitted = new long[1];
    WindowProcessor.Sink sink = r -> {
      emitted[0]++;
      out.write(r);
    };
    PartitionedWindowProcessor processor = start == null
        ? new PartitionedWindowProcessor(query, source.partitions(), sink)
        : PartitionedWindowProcessor.resume(query, sink, start);
    OpenState.Position[] next = source.startPositions();
    int[] lastOfPartition = new int[next.length];
    boolean byPartition = source.namedByPartition(); // else late and rejected rows are named by file and line
    Object[] inputs = new Object[plan.aggregates().size()];
    boolean keepLate = settings.keepsLateRows();
    Stats before = new Stats(0, 0, 0, 0, 0, 0); // the stats of the processors a commit handed on from
    long lastFlush = System.nanoTime();
    long lastCommit = lastFlush;
    boolean uncommitted = false;
    try (ParsedLines parsed = ParsedLines.start(plan, source)) {
      ParsedLines.Batch b;
      while ((b = parsed.next()) != null) {
        long emittedBefore = emitted[0];
        Arrays.fill(lastOfPartition, -1);
        for (int i = 0; i < b.size; i++) {
          int p = b.partitions[i];
          lastOfPartition[p] = i;
          uncommitted = true;
          switch (b.outcomes[i]) {
            case REJECTED:
              processor.reject(p);
              settings.rejected(b.sources[i], byPartition ? p : -1, b.numbers[i], b.rejectedFields[i], b.rejectedReasons[i], b.bytes,
                  b.offsets[i], b.lengths[i], b.rejectedJson[i]);
              continue;
            case FILTERED:
              continue;
            default:
              break;
          }
          System.arraycopy(b.inputs, i * b.width, inputs, 0, b.width);
          long ts = b.times[i];
          if (!processor.process(p, b.keys[i], ts, inputs) && keepLate) {
            settings.late(b.sources[i], byPartition ? p : -1, b.numbers[i], ts, processor.lateReason(p, ts), b.bytes, b.offsets[i],
                b.lengths[i]);
          }
        }
        for (int p = 0; p < next.length; p++) {
          int i = lastOfPartition[p];
          if (i >= 0) {
            next[p] = source.positionAfter(p, b.sources[i], b.numbers[i], b.byteEnds[i]);
          }
        }
        long now = System.nanoTime();
        boolean closedSome = emitted[0] > emittedBefore;
        if (committer != null && uncommitted && (closedSome || now - lastCommit >= COMMIT_NANOS)) {
          before = plus(before, processor.stats());
          OpenState held = processor.hold();
          committer.commit(held, next.clone());
          processor = PartitionedWindowProcessor.resume(query, sink, held);
          uncommitted = false;
          lastCommit = now;
          lastFlush = now;
        } else if (closedSome || now - lastFlush > FLUSH_NANOS) {
          out.flush();
          lastFlush = now;
        }
        if (progress != Progress.OFF) {
          Stats so = plus(before, processor.stats());
          progress.update(so.rowsIn(), processor.watermark(), processor.openWindowCount(), so.lateDropped());
        }
      }
    } finally {
      progress.end();
    }
    if (committer != null) {
      Stats stats = plus(before, processor.stats());
      return new LiveOutcome(stats, processor.hold(), next);
    }
    processor.finish();
    return new LiveOutcome(processor.stats(), null, next);
  }

  private static Stats plus(Stats a, Stats b) {
    return new Stats(a.rowsIn() + b.rowsIn(), a.rowsOut() + b.rowsOut(), a.lateDropped() + b.lateDropped(),
        a.windowsClosed() + b.windowsClosed(), a.rowsFolded() + b.rowsFolded(), a.rowsRejected() + b.rowsRejected());
  }
}
