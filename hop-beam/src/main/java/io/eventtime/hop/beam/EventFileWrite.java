package io.eventtime.hop.beam;

import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.EventFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.vfs.HopVfs;

/**
 * The Beam write of an Event File Output: one worker writes the whole file with the Hop
 * transform's own writer, the rows sorted by arrival position, so the file has the lines, in the
 * order, that the local engine writes. The file is written even when no row comes (empty, or
 * with only the CSV header), as on the local engine.
 */
final class EventFileWrite extends PTransform<PCollection<Row>, PCollection<Void>> {
  private final HopContext context;
  private final String transformName;
  private final RowLayout layout;

  EventFileWrite(HopContext context, String transformName, RowLayout layout) {
    this.context = context;
    this.transformName = transformName;
    this.layout = layout;
  }

  /** The arrival position of the row that makes the writer run even when no row comes; never written. */
  private static final long NO_ROW = Long.MIN_VALUE;

  @Override
  public PCollection<Void> expand(PCollection<Row> rows) {
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
      // as the local engine: no second header when appending to a file that has lines
      boolean header = meta.isCsvHeader() && !(meta.isAppend() && file.exists() && file.getContent().getSize() > 0);
      OutputStream stream = HopVfs.getOutputStream(file, meta.isAppend());
      try (EventFileWriter writer = new EventFileWriter(stream, layout.rowMeta(), settings.columns(), settings.csv(),
          settings.delimiter(), settings.csv() && header)) {
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
}
