package io.eventtime.cli.local;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.plan.PlanRows;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.plan.RowConverter;
import io.eventtime.cli.source.LineFeed;
import io.eventtime.core.Key;
import io.eventtime.core.RecentKeys;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;

/**
 * The lines of a source, parsed on other threads and handed over in arrival order: a reader
 * thread cuts the lines into batches (copies of their bytes, with where each came from), a pool
 * of one thread per core but one parses the batches (only the fields the plan uses, converted,
 * WHERE applied, the key and the aggregate inputs taken), and {@link #next} gives the batches back
 * in the order they were read. So the caller folds every row in arrival order on one thread, as
 * before, while the parsing of the next lines goes on beside it. The core left over is the
 * caller's: while it waits for the next batch, it parses the batches no parse thread has begun
 * (on two cores, a parse thread per core, beside the reader and the caller, was a seventh slower
 * over a large file, and the caller's folding was what waited). At most a few batches are in
 * flight, so memory stays bounded whatever the file size; a batch the caller is done with (at its
 * next call of {@link #next}) is filled again rather than a new one made, as a batch's arrays are
 * most of what the run would allocate otherwise. A live source's lines are sent on as
 * soon as it has no more at hand ({@link LineFeed#lastAtHand}), not when a batch is full. An error while reading (an unreadable
 * file) comes out of {@link #next} after the batches read before it.
 */
final class ParsedLines implements AutoCloseable {
  private static final int BATCH_LINES = 2048;
  private static final int BATCH_BYTES = 1 << 18;

  /** One batch of lines: their bytes and origin, and once parsed, each line's outcome and values. */
  static final class Batch {
    int size;
    byte[] bytes = new byte[BATCH_BYTES];
    int used;
    final int[] offsets = new int[BATCH_LINES];
    final int[] lengths = new int[BATCH_LINES];
    final String[] sources = new String[BATCH_LINES];
    final long[] numbers = new long[BATCH_LINES];
    /** The byte of its file after each line (followed files), else -1. */
    final long[] byteEnds = new long[BATCH_LINES];
    /** The partition of the contract each line belongs to (0 for files). */
    final int[] partitions = new int[BATCH_LINES];
    /** False for a Kafka record without a value, rejected as such. */
    final boolean[] hasValue = new boolean[BATCH_LINES];
    final PlanRows.Outcome[] outcomes = new PlanRows.Outcome[BATCH_LINES];
    final Key[] keys = new Key[BATCH_LINES];
    final long[] times = new long[BATCH_LINES];
    /** The aggregate inputs of line i at [i * width, (i + 1) * width). */
    final Object[] inputs;
    final String[] rejectedFields = new String[BATCH_LINES];
    final String[] rejectedReasons = new String[BATCH_LINES];
    final boolean[] rejectedJson = new boolean[BATCH_LINES];
    final int width;

    Batch(int width) {
      this.width = width;
      this.inputs = new Object[BATCH_LINES * width];
    }

    /** Empties a batch handed back, to be filled anew. */
    private Batch reset() {
      size = 0;
      used = 0;
      if (bytes.length > BATCH_BYTES) {
        bytes = new byte[BATCH_BYTES]; // it had a line longer than a batch: not kept for good
      }
      return this;
    }

    private boolean add(LineFeed lines) {
      int len = lines.length();
      if (size == BATCH_LINES || (size > 0 && used + len > bytes.length)) {
        return false;
      }
      if (used + len > bytes.length) {
        bytes = Arrays.copyOf(bytes, len); // a line longer than a batch: a batch of its own
      }
      System.arraycopy(lines.buffer(), lines.offset(), bytes, used, len);
      offsets[size] = used;
      lengths[size] = len;
      sources[size] = lines.source();
      numbers[size] = lines.lineNumber();
      byteEnds[size] = lines.byteEnd();
      partitions[size] = lines.partition();
      hasValue[size] = lines.hasValue();
      used += len;
      size++;
      return true;
    }

    private Batch parse(PlanRows rows) {
      RowConverter converter = rows.converter();
      try {
        parseLines(rows, converter);
      } finally {
        rows.endLines();
      }
      return this;
    }

    private void parseLines(PlanRows rows, RowConverter converter) {
      for (int i = 0; i < size; i++) {
        if (!hasValue[i]) {
          outcomes[i] = PlanRows.Outcome.REJECTED;
          rejectedFields[i] = null;
          rejectedReasons[i] = PlanRows.NO_VALUE;
          rejectedJson[i] = false;
          continue;
        }
        // the batch's lines lie one after another in bytes: one JSON parser reads them all
        PlanRows.Outcome outcome = rows.read(bytes, offsets[i], lengths[i], used);
        outcomes[i] = outcome;
        if (outcome == PlanRows.Outcome.REJECTED) {
          rejectedFields[i] = rows.rejectedField();
          rejectedReasons[i] = rows.rejectedReason();
          rejectedJson[i] = rows.rejectedJson();
        } else if (outcome == PlanRows.Outcome.ROW) {
          Object[] values = rows.row();
          times[i] = rows.eventTime();
          keys[i] = converter.key(values);
          converter.aggregateInputs(values, inputs, i * width);
        }
      }
    }
  }

  private final QueryPlan plan;
  private final LineFeed lines;
  private final ExecutorService parsers;
  private final ThreadLocal<PlanRows> planRows;
  private final BlockingQueue<FutureTask<Batch>> inFlight;
  /** Batches the caller is done with, for the reader to fill again. */
  private final BlockingQueue<Batch> spare;
  /** The batch {@link #next} gave last: the caller's until it asks for the next one. */
  private Batch handedOut;
  private final Thread reader;
  private volatile boolean closed;

  private ParsedLines(QueryPlan plan, LineFeed lines) {
    this.plan = plan;
    this.lines = lines;
    int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
    // a core is left to the folding thread, which parses the next batch itself when it waits for it
    this.parsers = Executors.newFixedThreadPool(Math.max(1, cores - 1), daemon("eventtime-parse"));
    // the parse threads hand the folding thread one object per recent key, not one per thread
    RecentKeys recentKeys = new RecentKeys();
    this.planRows = ThreadLocal.withInitial(() -> new PlanRows(plan, lines.unit(), recentKeys));
    this.inFlight = new ArrayBlockingQueue<>(2 * cores + 2);
    this.spare = new ArrayBlockingQueue<>(2 * cores + 4);
    this.reader = daemon("eventtime-read").newThread(this::read);
  }

  /** Starts reading and parsing {@code lines}; {@link #close} stops it. */
  static ParsedLines start(QueryPlan plan, LineFeed lines) {
    ParsedLines parsed = new ParsedLines(plan, lines);
    parsed.reader.start();
    return parsed;
  }

  /**
   * The next batch in arrival order, parsed; null after the last line. The batch is the caller's
   * until it calls this again: then it is filled with other lines.
   */
  Batch next() {
    if (handedOut != null) {
      spare.offer(handedOut);
      handedOut = null;
    }
    try {
      FutureTask<Batch> head = inFlight.take();
      // run() parses a batch here unless a parse thread has begun it (or done it): then it returns at
      // once; so while the head is parsed elsewhere, the batches after it that no thread has begun are
      head.run();
      for (FutureTask<Batch> later : inFlight) {
        if (head.isDone()) {
          break;
        }
        later.run();
      }
      handedOut = head.get();
      return handedOut;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ErrorCode.IO_ERROR, "interrupted while reading the sources", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** The reader thread: batches of lines to the parsers, in order; null at the end. */
  private void read() {
    int width = plan.aggregates().size();
    try {
      Batch batch = empty(width);
      while (lines.next()) {
        if (!batch.add(lines)) {
          submit(batch);
          batch = empty(width);
          batch.add(lines);
        }
        if (lines.lastAtHand()) {
          // a live source may wait now: what is read goes on to be folded, so that windows close meanwhile
          submit(batch);
          batch = empty(width);
        }
      }
      if (batch.size > 0) {
        submit(batch);
      }
      inFlight.put(ranAlready(() -> null));
    } catch (InterruptedException e) {
      // closed: the caller reads no further
    } catch (RuntimeException | Error e) {
      if (!closed) {
        try {
          inFlight.put(ranAlready(() -> {
            throw e;
          }));
        } catch (InterruptedException stopped) {
          // closed meanwhile
        }
      }
    }
  }

  /** A batch handed back by the caller, emptied, or a new one while none is. */
  private Batch empty(int width) {
    Batch b = spare.poll();
    return b == null ? new Batch(width) : b.reset();
  }

  private void submit(Batch batch) throws InterruptedException {
    FutureTask<Batch> parse = new FutureTask<>(() -> batch.parse(planRows.get()));
    inFlight.put(parse);
    parsers.execute(parse);
  }

  /** A task run at once, for what comes in the batches' order but needs no parsing: the end, a failure. */
  private static FutureTask<Batch> ranAlready(Callable<Batch> outcome) {
    FutureTask<Batch> task = new FutureTask<>(outcome);
    task.run();
    return task;
  }

  /** Stops the reader and the parsers (at once, when the caller stopped before the end). */
  @Override
  public void close() {
    closed = true;
    reader.interrupt();
    parsers.shutdownNow();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
