package io.eventtime.core.follow;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;

/**
 * One file of {@link FollowedFiles}, as a stream of its whole lines: {@link #read} waits at the
 * end of the file for more, and ends once a later file has landed (the rest read, a last line
 * without a newline too) or the reading stops (a last line without its newline left unread, or
 * read too when the reading {@linkplain FollowedFiles#readToTheEndAtStop reads to the end at the stop}).
 * {@link #available} tells the whole lines at hand now, so a reader hands on what it has before
 * it waits.
 */
public final class FollowedFile extends InputStream {
  private static final int BUFFER = 1 << 16;

  private final FollowedFiles owner;
  private final Path path;
  private final FileChannel channel;
  private final Object fileKey;
  private final long startLine;
  private final long startByte;
  /** The bytes read from the file so far (from its start). */
  private long readTo;
  /** [handPos, handLimit) are whole lines to hand on; [handLimit, bufLimit) a line without its newline yet. */
  private byte[] buf = new byte[BUFFER];
  private int handPos;
  private int handLimit;
  private int bufLimit;
  /** A later file has landed: the rest of this one is read to its end, then the stream ends. */
  private boolean finished;
  private boolean ended;

  private FollowedFile(FollowedFiles owner, Path path, FileChannel channel, Object fileKey, long startLine,
      long startByte) {
    this.owner = owner;
    this.path = path;
    this.channel = channel;
    this.fileKey = fileKey;
    this.startLine = startLine;
    this.startByte = startByte;
    this.readTo = startByte;
  }

  static FollowedFile open(FollowedFiles owner, Path path, long startLine, long startByte) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      long size = channel.size();
      if (size < startByte) {
        throw new IOException(path + " has " + size + " bytes, fewer than the " + startByte + " already read from it:"
            + " it was cut or replaced since");
      }
      if (startByte > 0) {
        ByteBuffer before = ByteBuffer.allocate(1);
        channel.read(before, startByte - 1);
        // a finished file's last line without a newline was read whole, once a later file had landed: at its end
        boolean finishedLastLine = startByte == size && owner.laterListed(path);
        if (before.get(0) != '\n' && !finishedLastLine) {
          throw new IOException("byte " + startByte + " of " + path + ", where reading goes on, is not the start of a"
              + " line: the file was changed since it was read");
        }
      }
      return new FollowedFile(owner, path, channel, key, startLine, startByte);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The file. */
  public Path path() {
    return path;
  }

  /** The number of the first line this stream gives: 1, or where an earlier run stopped. */
  public long startLine() {
    return startLine;
  }

  /** The byte of the file this stream starts at: 0, or where an earlier run stopped. */
  public long startByte() {
    return startByte;
  }

  /** The byte of the file after the last one handed on. */
  public long position() {
    return readTo - (bufLimit - handPos);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    while (handPos >= handLimit) {
      if (ended) {
        return -1;
      }
      if (fill()) {
        continue;
      }
      if (finished) {
        if (bufLimit > handLimit) {
          handLimit = bufLimit; // the file is done: its last line needs no newline, as in a bounded run
          continue;
        }
        ended = true;
        return -1;
      }
      checkUnchanged();
      if (owner.laterListed(path)) {
        finished = true; // read on to the end as it is now
        continue;
      }
      if (owner.shouldStop()) {
        ended = true;
        if (owner.readsToTheEndAtStop()) {
          // what the file holds now, its last line without a newline too; nothing written after
          long size = channel.size();
          boolean more = true;
          while (more && readTo < size) {
            more = fill();
          }
          handLimit = bufLimit;
          continue;
        }
        return -1; // a line without its newline stays unread: its rest may still come
      }
      owner.pause();
    }
    int n = Math.min(len, handLimit - handPos);
    System.arraycopy(buf, handPos, b, off, n);
    handPos += n;
    owner.progressed();
    return n;
  }

  /** The bytes of whole lines at hand now, without waiting. */
  @Override
  public int available() throws IOException {
    if (handLimit == handPos && !ended) {
      fill();
    }
    return handLimit - handPos;
  }

  /** Reads what the file has beyond what was read; false when it has nothing more now. */
  private boolean fill() throws IOException {
    if (handPos > 0) {
      System.arraycopy(buf, handPos, buf, 0, bufLimit - handPos);
      handLimit -= handPos;
      bufLimit -= handPos;
      handPos = 0;
    }
    if (bufLimit == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2); // a line longer than the buffer
    }
    int n = channel.read(ByteBuffer.wrap(buf, bufLimit, buf.length - bufLimit), readTo);
    if (n <= 0) {
      return false;
    }
    readTo += n;
    int from = bufLimit;
    bufLimit += n;
    for (int i = bufLimit - 1; i >= from; i--) {
      if (buf[i] == '\n') {
        handLimit = i + 1;
        break;
      }
    }
    return true;
  }

  /** A followed file may only grow: one cut, replaced or removed is an error naming it. */
  private void checkUnchanged() throws IOException {
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new IOException(path + " was removed or renamed while it was followed: a followed file may only grow");
    }
    if (fileKey != null && !fileKey.equals(now.fileKey())) {
      throw new IOException(path + " was replaced by another file of the same name while it was followed: a followed"
          + " file may only grow (write a new file with a later name instead)");
    }
    if (now.size() < readTo) {
      throw new IOException(path + " shrank from " + readTo + " to " + now.size() + " bytes while it was followed: a"
          + " followed file may only grow (it was truncated or rewritten)");
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
