package io.eventtime.hop.beam;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.hop.fileinput.EventFileInputMeta;
import io.eventtime.hop.fileinput.EventFileReader;
import io.eventtime.hop.fileinput.InputSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.transforms.Create;
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

  private static final class ReadFn extends HopReadFn<KV<Integer, String>> {
    private transient InputSettings settings;

    ReadFn(HopContext context, String transformName, RowLayout rows, RowLayout errors) {
      super(context, transformName, rows, errors, ROWS, ERRORS);
    }

    @Setup
    public void setup() {
      List<String> problems = new ArrayList<>();
      settings = resolved(((EventFileInputMeta) transform().getTransform()).resolve(context.variables(), problems),
          problems);
    }

    @ProcessElement
    public void process(@Element KV<Integer, String> file, MultiOutputReceiver out) throws IOException, HopException {
      FileObject fileObject = HopVfs.getFileObject(file.getValue(), context.variables());
      try (EventFileReader reader = new EventFileReader(settings, List.of(fileObject))) {
        for (EventFileReader.Record r; (r = reader.next()) != null; ) {
          handOn(r.isRejected(), r.values(), r.error(), r.errorField(), ArrivalPosition.of(file.getKey(), r.line()), out);
        }
      }
    }
  }
}
