package io.eventtime.hop.beam;

import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.EventFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.vfs.HopVfs;

/**
 * The Beam write of an Event File Output: one worker writes the whole file with the Hop
 * transform's own writer, the rows sorted by arrival position, so the file has the lines, in the
 * order, that the local engine writes. The file is written even when no row comes (empty, or
 * with only the CSV header), as on the local engine.
 *
 * <p>On a live stream (an unbounded input, which has no end to wait for) one worker appends each
 * row as it comes, and the lines of a bundle are on disk when the bundle ends ({@link
 * LiveWriteFn}); the file is made with its first row. Rows ranked with no gap (an Event Time
 * Window's, in close order) are written in rank order, each once the rows ranked before it are,
 * so the file has the local engine's lines in its order; other rows in the order they come.
 */
final class EventFileWrite extends PTransform<PCollection<Row>, PCollection<Void>> {
  private final HopContext context;
  private final String transformName;
  private final RowLayout layout;
  /** Whether the rows' arrival positions are ranks with no gap, which a live write puts back in order. */
  private final boolean ranked;

  EventFileWrite(HopContext context, String transformName, RowLayout layout, boolean ranked) {
    this.context = context;
    this.transformName = transformName;
    this.layout = layout;
    this.ranked = ranked;
  }

  /** The arrival position of the row that makes the writer run even when no row comes; never written. */
  private static final long NO_ROW = Long.MIN_VALUE;

  @Override
  public PCollection<Void> expand(PCollection<Row> rows) {
    if (rows.isBounded() == PCollection.IsBounded.UNBOUNDED) {
      return rows
          .apply("OneFile", WithKeys.<Integer, Row>of(0).withKeyType(TypeDescriptors.integers()))
          .apply("WriteAsTheyCome", ParDo.of(new LiveWriteFn(context, transformName, layout, ranked)));
    }
    List<Object> none = new ArrayList<>(Collections.nCopies(layout.size(), null));
    none.add(NO_ROW);
    PCollection<Row> marker = rows.getPipeline()
        .apply("TheFile", Create.of(Row.withSchema(layout.schema()).attachValues(none)).withRowSchema(layout.schema()));
    return PCollectionList.of(rows).and(marker)
        .apply("RowsAndTheFile", Flatten.pCollections())
        .setRowSchema(layout.schema())
        .apply("OneFile", WithKeys.<Integer, Row>of(0).withKeyType(TypeDescriptors.integers()))
        .apply("AllRows", GroupByKey.create())
        .apply("Write", ParDo.of(new WriteFn(context, transformName, layout)));
  }

  private static final class WriteFn extends DoFn<KV<Integer, Iterable<Row>>, Void> {
    private final HopContext context;
    private final String transformName;
    private final RowLayout layout;
    private final Counter read;
    private final Counter output;
    private final Counter written;

    WriteFn(HopContext context, String transformName, RowLayout layout) {
      this.context = context;
      this.transformName = transformName;
      this.layout = layout;
      this.read = HopMetrics.counter(transformName, HopMetrics.Kind.READ);
      this.output = HopMetrics.counter(transformName, HopMetrics.Kind.OUTPUT);
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<Row>> all) throws IOException, HopException {
      List<Row> rows = new ArrayList<>();
      for (Row r : all.getValue()) {
        if (RowLayout.arrival(r) != NO_ROW) {
          rows.add(r);
        }
      }
      rows.sort(Comparator.comparingLong(RowLayout::arrival));
      try (EventFileWriter writer = open(context, transformName, layout, false)) {
        for (Row row : rows) {
          writer.write(layout.toHop(row));
        }
      }
      read.inc(rows.size());
      output.inc(rows.size());
      // the rows pass on unchanged, as the local engine passes them
      written.inc(rows.size());
    }
  }

  /**
   * The file's writer, as the local engine opens it: the parent folder made if asked, a header
   * unless appending to a file that has lines; {@code goOn}: append to what this run wrote before.
   */
  private static EventFileWriter open(HopContext context, String transformName, RowLayout layout, boolean goOn)
      throws HopException, IOException {
    EventFileOutputMeta meta = (EventFileOutputMeta) context.transform(transformName).getTransform();
    List<String> problems = new ArrayList<>();
    EventFileOutputMeta.OutputSettings settings = meta.resolve(context.variables(), layout.rowMeta(), problems);
    if (settings == null) {
      throw new IllegalStateException(String.join("; ", problems));
    }
    FileObject file = HopVfs.getFileObject(settings.filename(), context.variables());
    if (meta.isCreateParentFolder() && file.getParent() != null && !file.getParent().exists()) {
      file.getParent().createFolder();
    }
    boolean append = goOn || meta.isAppend();
    // as the local engine: no second header when appending to a file that has lines
    boolean header = meta.isCsvHeader() && !(append && file.exists() && file.getContent().getSize() > 0);
    OutputStream stream = HopVfs.getOutputStream(file, append);
    return new EventFileWriter(stream, layout.rowMeta(), settings.columns(), settings.csv(), settings.delimiter(),
        settings.csv() && header);
  }

  /**
   * The rows of a live stream, written as they come: one key, so one writer at a time appends to
   * the file; the first row of the run opens it as the local engine does (truncating, with the
   * header), the writer is closed at the end of each bundle so that its lines are on disk. Ranked
   * rows that come before one ranked ahead of them wait in state for it.
   */
  private static final class LiveWriteFn extends DoFn<KV<Integer, Row>, Void> {
    private final HopContext context;
    private final String transformName;
    private final RowLayout layout;
    private final Counter read;
    private final Counter output;
    private final Counter written;
    private final boolean ranked;
    private transient EventFileWriter writer;

    @StateId("opened")
    private final StateSpec<ValueState<Boolean>> opened = StateSpecs.value(BooleanCoder.of());

    /** With ranked rows: the rank of the next row to write. */
    @StateId("nextRank")
    private final StateSpec<ValueState<Long>> nextRank = StateSpecs.value(VarLongCoder.of());

    /** With ranked rows: the rows that came before the next one to write. */
    @StateId("waiting")
    private final StateSpec<BagState<Row>> waiting;

    LiveWriteFn(HopContext context, String transformName, RowLayout layout, boolean ranked) {
      this.context = context;
      this.transformName = transformName;
      this.layout = layout;
      this.ranked = ranked;
      this.waiting = StateSpecs.bag(RowCoder.of(layout.schema()));
      this.read = HopMetrics.counter(transformName, HopMetrics.Kind.READ);
      this.output = HopMetrics.counter(transformName, HopMetrics.Kind.OUTPUT);
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Integer, Row> row, @StateId("opened") ValueState<Boolean> opened,
        @StateId("nextRank") ValueState<Long> nextRank, @StateId("waiting") BagState<Row> waiting)
        throws IOException, HopException {
      if (!ranked) {
        write(row.getValue(), opened);
        return;
      }
      long next = nextRank.read() == null ? 0 : nextRank.read();
      if (RowLayout.arrival(row.getValue()) != next) {
        waiting.add(row.getValue());
        return;
      }
      write(row.getValue(), opened);
      next++;
      TreeMap<Long, Row> ahead = new TreeMap<>();
      waiting.read().forEach(r -> ahead.put(RowLayout.arrival(r), r));
      if (!ahead.isEmpty()) {
        while (!ahead.isEmpty() && ahead.firstKey() == next) {
          write(ahead.pollFirstEntry().getValue(), opened);
          next++;
        }
        waiting.clear();
        ahead.values().forEach(waiting::add);
      }
      nextRank.write(next);
    }

    private void write(Row row, ValueState<Boolean> opened) throws IOException, HopException {
      if (writer == null) {
        writer = open(context, transformName, layout, Boolean.TRUE.equals(opened.read()));
        opened.write(true);
      }
      writer.write(layout.toHop(row));
      read.inc();
      output.inc();
      written.inc();
    }

    @FinishBundle
    public void finishBundle() throws IOException {
      close();
    }

    @Teardown
    public void teardown() throws IOException {
      close();
    }

    private void close() throws IOException {
      if (writer != null) {
        EventFileWriter w = writer;
        writer = null;
        w.close();
      }
    }
  }
}
