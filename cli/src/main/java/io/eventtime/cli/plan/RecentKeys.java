package io.eventtime.cli.plan;

import io.eventtime.core.Key;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys made lately, by hash, shared by every thread that parses one stream: a row whose key
 * equals a recent one gets that same object. So the folding thread's look-ups of a key mostly
 * find the very object its maps hold, without comparing values; a table per parsing thread would
 * hand it one copy per thread, and every look-up with the other copy compares the values.
 * Bounded: memory stays flat whatever the number of keys.
 *
 * <pre>{@code
 * RecentKeys recent = new RecentKeys();   // one per run, given to each thread's RowConverter
 * Key key = recent.canonical(Key.of("m1"));
 * }</pre>
 *
 * <p>Thread-safe: a slot holds an immutable {@link Key}, written with release and read with
 * acquire, so a thread sees either the old key or a whole new one (plain loads and stores on x86).
 */
public final class RecentKeys {
  /** Room for several thousand keys with few of them sharing a slot; 32 KiB of references. */
  private static final int SLOTS = 8192;

  private final AtomicReferenceArray<Key> slots = new AtomicReferenceArray<>(SLOTS);

  /** The recent key equal to {@code key}, or {@code key} itself, which then becomes the recent one of its slot. */
  public Key canonical(Key key) {
    int h = key.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    Key recent = slots.getAcquire(slot);
    if (key.equals(recent)) {
      return recent;
    }
    slots.setRelease(slot, key);
    return key;
  }
}
