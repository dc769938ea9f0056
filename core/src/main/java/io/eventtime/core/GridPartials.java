package io.eventtime.core;

/**
 * The partials of one open grid window, one per key, in an open-addressing table: count(*),
 * count and sum kept as primitive slots beside the key, every other aggregate as its
 * {@link Accumulator}. They are the same values as the accumulators' ({@link #accumulators} and
 * {@link #results} give them as those would), without an {@code Accumulator[]}, an object per
 * aggregate and a map node made for each key of each window: with a few rows per key and window,
 * making those was most of the cost of folding a row.
 */
final class GridPartials {

  /** How the aggregates of a query are kept in a key's slots: made once per query. */
  static final class Layout {
    private static final byte COUNT_ALL = 0;
    private static final byte COUNT = 1;
    private static final byte SUM = 2;
    private static final byte OBJECT = 3;

    private final AggregateKind[] kinds;
    private final byte[] ops;
    /** Per aggregate: its first long (count; sum: its flags, then its whole-number sum) or its object. */
    private final int[] at;
    /** Per aggregate: a sum's floating-point part. */
    private final int[] doubleAt;
    private final int longs;
    private final int doubles;
    private final int objects;

    Layout(Aggregates aggregates) {
      int n = aggregates.size();
      this.kinds = new AggregateKind[n];
      this.ops = new byte[n];
      this.at = new int[n];
      this.doubleAt = new int[n];
      int l = 0;
      int d = 0;
      int o = 0;
      for (int i = 0; i < n; i++) {
        kinds[i] = aggregates.specs().get(i).kind();
        switch (kinds[i]) {
          case COUNT_ALL -> {
            ops[i] = COUNT_ALL;
            at[i] = l++;
          }
          case COUNT -> {
            ops[i] = COUNT;
            at[i] = l++;
          }
          case SUM -> {
            ops[i] = SUM;
            at[i] = l;
            l += 2;
            doubleAt[i] = d++;
          }
          default -> {
            ops[i] = OBJECT;
            at[i] = o++;
          }
        }
      }
      this.longs = l;
      this.doubles = d;
      this.objects = o;
    }
  }

  /** A sum's flags, as {@link Accumulator.Sum}'s fields: a value was added; the sum went on in floating point. */
  private static final long ANY = 1;
  private static final long FLOATING = 2;

  private final Layout layout;
  private Key[] keys;
  /** A key's slots at {@code slot * layout.longs} (and so on): beside its key, not in an object of their own. */
  private long[] longs;
  private double[] doubles;
  private Accumulator[] objects;
  private int mask;
  private int size;

  /**
   * Most keys a new window is made ready for: beyond, it grows as they come, so that a window of
   * few keys after one of very many does not take as much memory.
   */
  private static final int MOST_EXPECTED = 1 << 14;

  /** An empty window, made large enough for {@code expectedKeys} keys (up to a bound) without growing. */
  GridPartials(Layout layout, int expectedKeys) {
    this.layout = layout;
    int expected = Math.min(MOST_EXPECTED, Math.max(8, expectedKeys));
    allocate(Integer.highestOneBit(expected * 2 - 1) * 2);
  }

  private void allocate(int capacity) {
    keys = new Key[capacity];
    longs = new long[capacity * layout.longs];
    doubles = new double[capacity * layout.doubles];
    objects = new Accumulator[capacity * layout.objects];
    mask = capacity - 1;
  }

  /** How many keys the window holds. */
  int size() {
    return size;
  }

  /** The table's length: slots run from 0 to it, {@link #keyAt} null where no key is. */
  int capacity() {
    return keys.length;
  }

  Key keyAt(int slot) {
    return keys[slot];
  }

  /** The slot of {@code key}, or -1 when the window does not hold it. */
  int slotOf(Key key) {
    Key[] ks = keys;
    for (int s = home(key); ; s = (s + 1) & mask) {
      Key k = ks[s];
      if (k == key) {
        return s;
      }
      if (k == null) {
        return -1;
      }
      if (k.equals(key)) {
        return s;
      }
    }
  }

  /**
   * The slot of {@code key}, made empty (no row yet) when the window did not hold it; then
   * {@code -1 - slot}, so that the caller knows the key is new.
   */
  int slotFor(Key key) {
    Key[] ks = keys;
    int s = home(key);
    for (; ; s = (s + 1) & mask) {
      Key k = ks[s];
      if (k == key) {
        return s;
      }
      if (k == null) {
        break;
      }
      if (k.equals(key)) {
        return s;
      }
    }
    if (2 * (size + 1) > ks.length) {
      grow();
      return slotFor(key);
    }
    // a slot is never emptied, so a free one is still zero (no row yet)
    ks[s] = key;
    size++;
    int o = 0;
    for (int i = 0; i < layout.ops.length; i++) {
      if (layout.ops[i] == Layout.OBJECT) {
        objects[s * layout.objects + o++] = layout.kinds[i].newAccumulator();
      }
    }
    return -1 - s;
  }

  private int home(Key key) {
    int h = key.hashCode() * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  private void grow() {
    Key[] oldKeys = keys;
    long[] oldLongs = longs;
    double[] oldDoubles = doubles;
    Accumulator[] oldObjects = objects;
    allocate(oldKeys.length * 2);
    int nl = layout.longs;
    int nd = layout.doubles;
    int no = layout.objects;
    for (int from = 0; from < oldKeys.length; from++) {
      Key k = oldKeys[from];
      if (k == null) {
        continue;
      }
      int to = home(k);
      while (keys[to] != null) {
        to = (to + 1) & mask;
      }
      keys[to] = k;
      System.arraycopy(oldLongs, from * nl, longs, to * nl, nl);
      System.arraycopy(oldDoubles, from * nd, doubles, to * nd, nd);
      System.arraycopy(oldObjects, from * no, objects, to * no, no);
    }
  }

  /**
   * Adds one row to the partial at {@code slot}, as {@link Aggregates#add(Accumulator[], Object[],
   * long, long)} adds it to accumulators.
   */
  void add(int slot, Object[] inputs, long arrival, long eventTime) {
    Layout l = layout;
    int lb = slot * l.longs;
    for (int i = 0; i < l.ops.length; i++) {
      switch (l.ops[i]) {
        case Layout.COUNT_ALL -> longs[lb + l.at[i]]++;
        case Layout.COUNT -> {
          if (inputs[i] != null) {
            longs[lb + l.at[i]]++;
          }
        }
        case Layout.SUM -> addToSum(inputs[i], lb + l.at[i], slot * l.doubles + l.doubleAt[i]);
        default -> objects[slot * l.objects + l.at[i]].add(inputs[i], arrival, eventTime);
      }
    }
  }

  /** {@link Accumulator.Sum#add}: exact over whole numbers, floating point from the first double or overflow on. */
  private void addToSum(Object value, int flagsAt, int doubleAt) {
    if (value == null) {
      return;
    }
    long flags = longs[flagsAt] | ANY;
    if (value instanceof Long l && (flags & FLOATING) == 0) {
      long sum = longs[flagsAt + 1];
      long r = sum + l;
      if (((sum ^ r) & (l ^ r)) < 0) { // overflow, as Math.addExact finds it
        flags |= FLOATING;
        doubles[doubleAt] += l;
      } else {
        longs[flagsAt + 1] = r;
      }
    } else {
      flags |= FLOATING;
      doubles[doubleAt] += ((Number) value).doubleValue();
    }
    longs[flagsAt] = flags;
  }

  /** The partial at {@code slot} as new accumulators, the query's aggregates in order. */
  Accumulator[] accumulators(int slot) {
    Layout l = layout;
    int lb = slot * l.longs;
    Accumulator[] accs = new Accumulator[l.ops.length];
    for (int i = 0; i < accs.length; i++) {
      switch (l.ops[i]) {
        case Layout.COUNT_ALL -> {
          Accumulator.CountAll a = new Accumulator.CountAll();
          a.count = longs[lb + l.at[i]];
          accs[i] = a;
        }
        case Layout.COUNT -> {
          Accumulator.Count a = new Accumulator.Count();
          a.count = longs[lb + l.at[i]];
          accs[i] = a;
        }
        case Layout.SUM -> {
          Accumulator.Sum a = new Accumulator.Sum();
          long flags = longs[lb + l.at[i]];
          a.any = (flags & ANY) != 0;
          a.floating = (flags & FLOATING) != 0;
          a.longSum = longs[lb + l.at[i] + 1];
          a.doubleSum = doubles[slot * l.doubles + l.doubleAt[i]];
          accs[i] = a;
        }
        default -> accs[i] = objects[slot * l.objects + l.at[i]];
      }
    }
    return accs;
  }

  /** The partial at {@code slot}'s results, as {@link Aggregates#results} gives those of its accumulators. */
  Object[] results(int slot) {
    Layout l = layout;
    int lb = slot * l.longs;
    Object[] out = new Object[l.ops.length];
    for (int i = 0; i < out.length; i++) {
      switch (l.ops[i]) {
        case Layout.COUNT_ALL, Layout.COUNT -> out[i] = longs[lb + l.at[i]];
        case Layout.SUM -> {
          long flags = longs[lb + l.at[i]];
          out[i] = Accumulator.Sum.resultOf((flags & ANY) != 0, (flags & FLOATING) != 0, longs[lb + l.at[i] + 1],
              doubles[slot * l.doubles + l.doubleAt[i]]);
        }
        default -> out[i] = objects[slot * l.objects + l.at[i]].result();
      }
    }
    return out;
  }

  /**
   * Puts back the partial of {@code key} from accumulators of the query's aggregates (a window a
   * previous run held), in place of any the window holds; returns whether the key is new here.
   * The count and sum accumulators are read, the others kept as they are.
   */
  boolean restore(Key key, Accumulator[] accs) {
    int found = slotFor(key);
    int slot = found < 0 ? -1 - found : found;
    Layout l = layout;
    int lb = slot * l.longs;
    for (int i = 0; i < accs.length; i++) {
      switch (l.ops[i]) {
        case Layout.COUNT_ALL -> longs[lb + l.at[i]] = ((Accumulator.CountAll) accs[i]).count;
        case Layout.COUNT -> longs[lb + l.at[i]] = ((Accumulator.Count) accs[i]).count;
        case Layout.SUM -> {
          Accumulator.Sum a = (Accumulator.Sum) accs[i];
          longs[lb + l.at[i]] = (a.any ? ANY : 0) | (a.floating ? FLOATING : 0);
          longs[lb + l.at[i] + 1] = a.longSum;
          doubles[slot * l.doubles + l.doubleAt[i]] = a.doubleSum;
        }
        default -> objects[slot * l.objects + l.at[i]] = accs[i];
      }
    }
    return found < 0;
  }
}
