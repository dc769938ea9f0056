package io.eventtime.core;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The keys made lately, by hash: a row whose key equals a recent one gets that same object, and
 * no key is made for it. So the open windows' look-ups of a key mostly find the very object their
 * maps hold, without comparing values. Shared by every thread that reads one stream (the command's
 * parse threads): a table per thread would hand out one copy per thread, and every look-up with
 * the other copy compares the values. Bounded: memory stays flat whatever the number of keys.
 *
 * <pre>{@code
 * RecentKeys recent = new RecentKeys();   // one per stream
 * Object[] values = new Object[1];        // reused from row to row
 * values[0] = Values.canonical(merchant);
 * Key key = recent.of(values);
 * }</pre>
 *
 * <p>Thread-safe: a slot holds an immutable {@link Key}, written with release and read with
 * acquire, so a thread sees either the old key or a whole new one (plain loads and stores on x86).
 */
public final class RecentKeys {
  /** Room for several thousand keys with few of them sharing a slot; 32 KiB of references. */
  private static final int SLOTS = 8192;

  private final AtomicReferenceArray<Key> slots = new AtomicReferenceArray<>(SLOTS);

  /**
   * The recent key of {@code values} (in {@link Values#canonical} form, which
   * the caller may reuse), made only when no recent key has them: most rows make no key at all.
   */
  public Key of(Object[] values) {
    int hash = Key.hashOf(values);
    int slot = slotOf(hash);
    Key recent = slots.getAcquire(slot);
    if (recent != null && recent.hashCode() == hash && recent.hasValues(values)) {
      return recent;
    }
    Key key = Key.of(values);
    slots.setRelease(slot, key);
    return key;
  }

  private static int slotOf(int h) {
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
