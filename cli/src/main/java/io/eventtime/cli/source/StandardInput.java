package io.eventtime.cli.source;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Standard input ({@code --from -}) as a stream that a stop signal can end: a daemon thread reads
 * the process's input into chunks as they come, and {@link #read} hands them on, or ends as at the
 * end of the input once {@link #stop} is called (a read blocked on a pipe cannot be woken
 * otherwise). {@link #available} says whether bytes are at hand without waiting, so that the
 * reader hands each batch on when the writer pauses (design 1.1: one partition, in line order).
 */
public final class StandardInput extends InputStream {
  private static final int CHUNK = 1 << 16;
  private static final byte[] END = new byte[0];
  private static final long WAIT_MILLIS = 100;

  private final BlockingQueue<Object> chunks = new LinkedBlockingQueue<>(64); // bounded: the reader waits when behind
  private volatile boolean stopped;
  private byte[] chunk = new byte[0];
  private int pos;
  private boolean ended;

  private StandardInput(InputStream in) {
    Thread reader = new Thread(() -> pump(in), "eventtime-stdin");
    reader.setDaemon(true); // left blocked on the input when the run ends on a stop signal
    reader.start();
  }

  /** Starts reading {@code in} (the process's standard input). */
  public static StandardInput of(InputStream in) {
    return new StandardInput(in);
  }

  private void pump(InputStream in) {
    try {
      while (true) {
        byte[] buf = new byte[CHUNK];
        int n = in.read(buf);
        if (n < 0) {
          chunks.put(END);
          return;
        }
        if (n > 0) {
          chunks.put(n == buf.length ? buf : java.util.Arrays.copyOf(buf, n));
        }
      }
    } catch (IOException e) {
      chunks.offer(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Ends the input at the next read (from any thread): what a stop signal does. */
  public void stop() {
    stopped = true;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (pos >= chunk.length) {
      if (ended || stopped) {
        return -1;
      }
      Object next;
      try {
        next = chunks.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
      if (next instanceof IOException e) {
        throw e;
      }
      if (next == END) {
        ended = true;
      } else if (next != null) {
        chunk = (byte[]) next;
        pos = 0;
      }
    }
    int n = Math.min(len, chunk.length - pos);
    System.arraycopy(chunk, pos, b, off, n);
    pos += n;
    return n;
  }

  /** The bytes at hand now: the rest of the current chunk, or the next one's when it has come. */
  @Override
  public int available() {
    if (pos < chunk.length) {
      return chunk.length - pos;
    }
    return chunks.peek() instanceof byte[] next ? next.length : 0;
  }
}
