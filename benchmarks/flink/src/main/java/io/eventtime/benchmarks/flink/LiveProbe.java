package io.eventtime.benchmarks.flink;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * What the job's steps record for the harness, in this JVM (embedded Flink runs the job in it):
 * the wall time at which the first record and each window's closing record were read, and each
 * window row with the wall time it reached the sink; when the last expected row comes, the
 * process CPU time and wall time. Two DoFns write it, the same on both sides: {@link ReadTap}
 * right after the read, and the sinks' {@link #windowRow}.
 */
final class LiveProbe {
  private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** One window row as it reached the sink. */
  record Emitted(String key, long start, long count, long sum, long atNanos) {}

  static final Queue<Emitted> ROWS = new ConcurrentLinkedQueue<>();
  /** Read time (System.nanoTime) of each closing offset. */
  static final ConcurrentHashMap<Long, Long> READ_NANOS = new ConcurrentHashMap<>();
  static final AtomicLong FIRST_READ_NANOS = new AtomicLong();
  static final AtomicLong FIRST_READ_CPU_NANOS = new AtomicLong();
  static final AtomicLong DONE_NANOS = new AtomicLong();
  static final AtomicLong DONE_CPU_NANOS = new AtomicLong();
  /** Rows of the events' keys still to come; set before the run. */
  static final AtomicInteger TO_COME = new AtomicInteger(Integer.MAX_VALUE);
  static final CountDownLatch DONE = new CountDownLatch(1);
  /** Rows that must not come (late or rejected on the EventTimeWindow side). */
  static final AtomicLong UNEXPECTED = new AtomicLong();
  static final Queue<String> UNEXPECTED_TEXTS = new ConcurrentLinkedQueue<>();

  private LiveProbe() {}

  static long cpuNanos() {
    return OS.getProcessCpuTime();
  }

  static void windowRow(String key, long start, long count, long sum) {
    long now = System.nanoTime();
    ROWS.add(new Emitted(key, start, count, sum, now));
    if (!LiveEvents.CLOSING_KEY.equals(key) && TO_COME.decrementAndGet() == 0) {
      DONE_CPU_NANOS.set(cpuNanos());
      DONE_NANOS.set(now);
      DONE.countDown();
    }
  }

  static void unexpected(String what) {
    if (UNEXPECTED.incrementAndGet() <= 10) {
      UNEXPECTED_TEXTS.add(what);
    }
  }

  /**
   * Passes each element on and notes the wall time at which the first record and each closing
   * record (by offset) were read. The offsets are few and sorted: a binary search per element.
   */
  abstract static class ReadTap<T> extends DoFn<T, T> {
    private final long[] closing;

    ReadTap(long[] closingOffsets) {
      long[] sorted = closingOffsets.clone();
      Arrays.sort(sorted);
      this.closing = sorted;
    }

    abstract long offset(T element);

    @ProcessElement
    public void process(@Element T element, OutputReceiver<T> out) {
      long offset = offset(element);
      if (FIRST_READ_NANOS.get() == 0) {
        long cpu = cpuNanos();
        if (FIRST_READ_NANOS.compareAndSet(0, System.nanoTime())) {
          FIRST_READ_CPU_NANOS.set(cpu);
        }
      }
      if (Arrays.binarySearch(closing, offset) >= 0) {
        READ_NANOS.putIfAbsent(offset, System.nanoTime());
      }
      out.output(element);
    }
  }
}
