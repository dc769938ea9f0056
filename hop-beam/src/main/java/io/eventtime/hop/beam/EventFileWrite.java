package io.eventtime.hop.beam;

import io.eventtime.hop.fileoutput.EventFileOutputMeta;
import io.eventtime.hop.fileoutput.EventFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
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

  @Override
  public PCollection<Void> expand(PCollection<Row> rows) {
    TupleTag<Row> rowsTag = new TupleTag<>("rows");
    TupleTag<Integer> fileTag = new TupleTag<>("file");
    PCollection<KV<Integer, Row>> keyed = rows.apply("OneFile", WithKeys.<Integer, Row>of(0)
        .withKeyType(TypeDescriptors.integers()));
    // the one element that makes the writer run even when no row comes
    PCollection<KV<Integer, Integer>> file = rows.getPipeline()
        .apply("TheFile", Create.of(KV.of(0, 0)));
    return KeyedPCollectionTuple.of(rowsTag, keyed).and(fileTag, file)
        .apply("AllRows", CoGroupByKey.create())
        .apply("Write", ParDo.of(new WriteFn(context, transformName, layout, rowsTag)));
  }

  private static final class WriteFn extends DoFn<KV<Integer, CoGbkResult>, Void> {
    private final HopContext context;
    private final String transformName;
    private final RowLayout layout;
    private final TupleTag<Row> rowsTag;
    private final Counter read;
    private final Counter output;
    private final Counter written;

    WriteFn(HopContext context, String transformName, RowLayout layout, TupleTag<Row> rowsTag) {
      this.context = context;
      this.transformName = transformName;
      this.layout = layout;
      this.rowsTag = rowsTag;
      this.read = HopMetrics.counter(transformName, HopMetrics.Kind.READ);
      this.output = HopMetrics.counter(transformName, HopMetrics.Kind.OUTPUT);
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
    }

    @ProcessElement
    public void process(@Element KV<Integer, CoGbkResult> all) throws IOException, HopException {
      List<Row> rows = new ArrayList<>();
      all.getValue().getAll(rowsTag).forEach(rows::add);
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
