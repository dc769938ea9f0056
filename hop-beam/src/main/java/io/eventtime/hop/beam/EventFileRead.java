package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.EventFileReader;
import io.eventtime.hop.fileinput.InputSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.pipeline.transform.TransformErrorMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The Beam read of an Event File Input: each file read whole by one worker with the Hop
 * transform's own reader (so the values, types and reasons are those of the local engine), every
 * row tagged with its arrival position (file index, line: {@link ArrivalPosition#of}). Unreadable lines go to the error
 * output when the transform has error handling.
 */
final class EventFileRead extends PTransform<PBegin, PCollectionTuple> {
  static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
  static final TupleTag<Row> ERRORS = new TupleTag<>("errors") {};

  private final HopContext context;
  private final String transformName;
  private final List<String> files;
  private final RowLayout rows;
  private final RowLayout errors;

  /** {@code files} in arrival order; {@code errors} the layout of error rows, or null without error handling. */
  EventFileRead(HopContext context, String transformName, List<String> files, RowLayout rows, RowLayout errors) {
    this.context = context;
    this.transformName = transformName;
    this.files = files;
    this.rows = rows;
    this.errors = errors;
  }

  @Override
  public PCollectionTuple expand(PBegin begin) {
    ArrivalPosition.requireFiles(files.size());
    List<KV<Integer, String>> indexed = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      indexed.add(KV.of(i, files.get(i)));
    }
    PCollectionTuple out = begin
        .apply("Files", Create.of(indexed).withCoder(KvCoder.of(VarIntCoder.of(), StringUtf8Coder.of())))
        .apply("SpreadFiles", Reshuffle.viaRandomKey())
        .apply("ReadFiles", ParDo.of(new ReadFn(context, transformName, rows, errors))
            .withOutputTags(ROWS, TupleTagList.of(ERRORS)));
    out.get(ROWS).setRowSchema(rows.schema());
    out.get(ERRORS).setRowSchema((errors == null ? rows : errors).schema());
    return out;
  }

  private static final class ReadFn extends DoFn<KV<Integer, String>, Row> {
    private final HopContext context;
    private final String transformName;
    private final RowLayout rows;
    private final RowLayout errors;
    private final Counter input;
    private final Counter written;
    private final Counter rejected;
    private transient InputSettings settings;
    private transient TransformErrorMeta errorMeta;

    ReadFn(HopContext context, String transformName, RowLayout rows, RowLayout errors) {
      this.context = context;
      this.transformName = transformName;
      this.rows = rows;
      this.errors = errors;
      this.input = HopMetrics.counter(transformName, HopMetrics.Kind.INPUT);
      this.written = HopMetrics.counter(transformName, HopMetrics.Kind.WRITTEN);
      this.rejected = HopMetrics.counter(transformName, HopMetrics.Kind.REJECTED);
    }

    @Setup
    public void setup() {
      TransformMeta transform = context.transform(transformName);
      List<String> problems = new ArrayList<>();
      settings = ((EventFileInputMeta) transform.getTransform()).resolve(context.variables(), problems);
      if (settings == null) {
        throw new IllegalStateException(String.join("; ", problems));
      }
      errorMeta = errors == null ? null : transform.getTransformErrorMeta();
    }

    @ProcessElement
    public void process(@Element KV<Integer, String> file, MultiOutputReceiver out) throws IOException, HopException {
      FileObject fileObject = HopVfs.getFileObject(file.getValue(), context.variables());
      try (EventFileReader reader = new EventFileReader(settings, List.of(fileObject))) {
        for (EventFileReader.Record r; (r = reader.next()) != null; ) {
          input.inc();
          long position = ArrivalPosition.of(file.getKey(), r.line());
          if (!r.isRejected()) {
            written.inc();
            out.get(ROWS).output(rows.toBeam(r.values(), position));
            continue;
          }
          rejected.inc();
          if (errorMeta != null) {
            Object[] error = ErrorRows.of(errorMeta, context.variables(), r.values(), rows.size(), errors.size(),
                r.error(), r.errorField(), ErrorCodes.UNREADABLE);
            out.get(ERRORS).output(errors.toBeam(error, position));
          }
        }
      }
    }
  }
}
