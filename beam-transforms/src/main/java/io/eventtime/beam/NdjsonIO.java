package io.eventtime.beam;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.ValueType;
import io.eventtime.core.ndjson.ColumnValues;
import io.eventtime.core.ndjson.MalformedLineException;
import io.eventtime.core.ndjson.NdjsonLines;
import io.eventtime.core.ndjson.SchemaInference;
import io.eventtime.core.ndjson.TextEncoding;
import io.eventtime.core.ndjson.Utf8Lines;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Reads newline-delimited JSON files as a replay of a stream: rows in arrival order, each with
 * its arrival position in the field {@value EventTimeWindow#DEFAULT_ARRIVAL_FIELD} (the files in
 * name order, then the lines of each: {@link ArrivalPosition}); the schema of the rows names the
 * files, so that late and rejected rows are told by file and line. Several files are one stream
 * only when they are read together: give one pattern (a glob) or add patterns with
 * {@link Read#and}, rather than flattening several reads, whose positions would collide. Lines
 * whose bytes are not UTF-8 ({@link Utf8Lines}), lines that are not JSON objects, values that do
 * not fit their column's type (by the core's {@link ColumnValues} rule) and a field missing or
 * null that a {@link Read#withSchema given schema} says is not nullable go to the rejected output
 * with the file, line, field and reason.
 *
 * <pre>{@code
 * NdjsonIO.Result read = pipeline.apply(NdjsonIO.read("events-*.ndjson"));
 * read.rows();      // Rows with the inferred (or given) schema and _arrival
 * read.rejected();  // source, line, field, text, reason
 * }</pre>
 *
 * <p>The schema is given with {@link Read#withSchema} or inferred, when the pipeline is built,
 * from the first {@link Read#withSampleSize lines} of the files: whole numbers are INT64, other
 * numbers DOUBLE, date-time strings DATETIME, other strings STRING.
 */
public final class NdjsonIO {
  /** The fields of a rejected line. */
  public static final Schema REJECTED_SCHEMA = Schema.builder()
      .addStringField("source")
      .addInt64Field("line")
      .addNullableField("field", FieldType.STRING)
      .addStringField("text")
      .addStringField("reason")
      .build();

  private NdjsonIO() {}

  /** The files that match {@code filepattern} (a path or a glob), in name order, as one stream. */
  public static Read read(String filepattern) {
    return new Read(List.of(filepattern), null, 1000);
  }

  /** The rows read and the lines rejected. */
  public static final class Result implements POutput {
    private final PCollectionTuple outputs;

    private Result(PCollectionTuple outputs) {
      this.outputs = outputs;
    }

    /** The rows, with the arrival position in {@value EventTimeWindow#DEFAULT_ARRIVAL_FIELD}. */
    public PCollection<Row> rows() {
      return outputs.get(Read.ROWS);
    }

    /** The rejected lines: source, line, field, text and reason ({@link #REJECTED_SCHEMA}). */
    public PCollection<Row> rejected() {
      return outputs.get(Read.REJECTED);
    }

    @Override
    public Pipeline getPipeline() {
      return outputs.getPipeline();
    }

    @Override
    public Map<TupleTag<?>, PValue> expand() {
      return outputs.expand();
    }

    @Override
    public void finishSpecifyingOutput(String name, PInput input, PTransform<?, ?> transform) {}
  }

  /** Reads files that match one or more patterns. */
  public static final class Read extends PTransform<PBegin, Result> {
    private final List<String> patterns;
    private final Schema schema;
    private final int sampleSize;

    private Read(List<String> patterns, Schema schema, int sampleSize) {
      this.patterns = patterns;
      this.schema = schema;
      this.sampleSize = sampleSize;
    }

    /** Also the files of another pattern; all files are read in name order. */
    public Read and(String filepattern) {
      List<String> all = new ArrayList<>(patterns);
      all.add(filepattern);
      return new Read(all, schema, sampleSize);
    }

    /** The schema of the rows, instead of inferring it (without the arrival field). */
    public Read withSchema(Schema s) {
      return new Read(patterns, s, sampleSize);
    }

    /** How many lines the schema is inferred from (default 1000). */
    public Read withSampleSize(int lines) {
      if (lines < 1) {
        throw new IllegalArgumentException("the sample size must be at least 1 line, got " + lines);
      }
      return new Read(patterns, schema, lines);
    }

    /** The settings a runner's UI shows for this step: the file patterns and the schema's source. */
    @Override
    public void populateDisplayData(DisplayData.Builder builder) {
      super.populateDisplayData(builder);
      builder.add(DisplayData.item("filePatterns", String.join(", ", patterns)).withLabel("File patterns"));
      if (schema != null) {
        builder.add(DisplayData.item("schema", schema.getFields().stream()
            .map(f -> f.getName() + " " + f.getType().getTypeName()).toList().toString()).withLabel("Schema"));
      } else {
        builder.add(DisplayData.item("schemaSampleSize", sampleSize).withLabel("Schema inferred from lines"));
      }
      builder.add(DisplayData.item("arrivalField", EventTimeWindow.DEFAULT_ARRIVAL_FIELD).withLabel("Arrival position field"));
    }

    static final TupleTag<Row> ROWS = new TupleTag<>("rows") {};
    static final TupleTag<Row> REJECTED = new TupleTag<>("rejected") {};

    @Override
    public Result expand(PBegin begin) {
      List<String> files = ArrivalPositions.matchFiles(patterns);
      Schema rowSchema = withArrival(schema != null ? schema : infer(files), files);
      PCollectionTuple out = ArrivalPositions.indexedFiles(begin, files)
          .apply("ReadLines", ParDo.of(new ReadFileFn(rowSchema)).withOutputTags(ROWS, TupleTagList.of(REJECTED)));
      out.get(ROWS).setRowSchema(rowSchema);
      out.get(REJECTED).setRowSchema(REJECTED_SCHEMA);
      return new Result(out);
    }

    private Schema infer(List<String> files) {
      SchemaInference inference = new SchemaInference();
      int seen = 0;
      for (String f : files) {
        try (Utf8Lines in = open(f)) {
          while (seen < sampleSize) {
            String line;
            try {
              line = in.readLine();
            } catch (Utf8Lines.NotUtf8 skipped) {
              continue; // rejected with its reason when the file is read; it tells nothing of the schema
            }
            if (line == null) {
              break;
            }
            if (NdjsonLines.isBlank(line)) {
              continue;
            }
            try {
              inference.observe(NdjsonLines.parse(line));
              seen++;
            } catch (MalformedLineException skipped) {
              // rejected with its reason when the file is read; it tells nothing of the schema
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
        }
        if (seen >= sampleSize) {
          break;
        }
      }
      Schema.Builder b = Schema.builder();
      inference.schema().forEach((name, type) -> b.addNullableField(name, BeamValues.beamType(type)));
      return b.build();
    }

    private static Schema withArrival(Schema s, List<String> files) {
      if (s.hasField(EventTimeWindow.DEFAULT_ARRIVAL_FIELD)) {
        throw new IllegalArgumentException("the rows already have a field named '" + EventTimeWindow.DEFAULT_ARRIVAL_FIELD
            + "', which the reader uses for the arrival position: rename that field in the data");
      }
      return ArrivalPositions.withFiles(
          Schema.builder().addFields(s.getFields()).addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD), files);
    }
  }

  /**
   * Opens a file as lines of UTF-8 text, each decoded strictly (a line that is not UTF-8 is
   * rejected, never read with U+FFFD in it); a UTF-16, UTF-32 or compressed file is refused as a
   * whole, saying so ({@link TextEncoding}).
   */
  static Utf8Lines open(String file) throws IOException {
    return new Utf8Lines(openBytes(file));
  }

  /**
   * {@link #open} for a worker's read of a whole file: a file that cannot be opened (or is refused)
   * fails the run with a message that names it, as the schema's sample does on the driver.
   */
  static Utf8Lines openToRead(String file) throws IOException {
    try {
      return open(file);
    } catch (IOException e) {
      throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The bytes of a file, once its first bytes show it is UTF-8 text (else refused, saying so). */
  static BufferedInputStream openBytes(String file) throws IOException {
    ResourceId id = FileSystems.matchNewResource(file, false);
    BufferedInputStream bytes = new BufferedInputStream(Channels.newInputStream(FileSystems.open(id)), 1 << 16);
    TextEncoding.requireUtf8(bytes);
    return bytes;
  }

  /** Reads one whole file, line by line, in order. */
  private static final class ReadFileFn extends DoFn<KV<Long, String>, Row> {
    private static final EventTimeParser TIMES = EventTimeParser.defaults();
    private final Schema schema;
    private final Counter rowsIn = EventTimeMetrics.counter(EventTimeMetrics.ROWS_IN);
    private final Counter rowsRejected = EventTimeMetrics.counter(EventTimeMetrics.ROWS_REJECTED);

    ReadFileFn(Schema schema) {
      this.schema = schema;
    }

    @ProcessElement
    public void process(@Element KV<Long, String> file, MultiOutputReceiver out) throws IOException {
      int fileIndex = file.getKey().intValue();
      String name = file.getValue();
      int fields = schema.getFieldCount() - 1;
      try (Utf8Lines in = openToRead(name)) {
        long number = 0;
        while (true) {
          String line;
          try {
            line = in.readLine();
          } catch (Utf8Lines.NotUtf8 e) {
            number++;
            reject(out, name, number, null, e.text(), e.getMessage());
            continue;
          }
          if (line == null) {
            break;
          }
          number++;
          if (NdjsonLines.isBlank(line)) {
            continue;
          }
          Map<String, Object> values;
          try {
            values = NdjsonLines.parse(line);
          } catch (MalformedLineException e) {
            reject(out, name, number, e.field(), line, (e.field() == null ? "" : "field " + e.field() + ": ")
                + e.getMessage());
            continue;
          }
          Row.Builder row = Row.withSchema(schema);
          String badField = null;
          String reason = null;
          for (int i = 0; i < fields && reason == null; i++) {
            Schema.Field f = schema.getField(i);
            try {
              Object value = convert(values.get(f.getName()), f.getType());
              if (value == null && !f.getType().getNullable()) {
                throw new IllegalArgumentException(ColumnValues.requiredReason(values.containsKey(f.getName())));
              }
              row.addValue(value);
            } catch (IllegalArgumentException e) {
              badField = f.getName();
              reason = e.getMessage();
            }
          }
          if (reason != null) {
            reject(out, name, number, badField, line, "field " + badField + ": " + reason);
            continue;
          }
          out.get(Read.ROWS).output(row.addValue(ArrivalPosition.of(fileIndex, number)).build());
        }
      }
    }

    private void reject(MultiOutputReceiver out, String source, long line, String field, String text, String reason) {
      rowsIn.inc();
      rowsRejected.inc();
      out.get(Read.REJECTED).output(Row.withSchema(REJECTED_SCHEMA)
          .addValues(source, line, field, text, "line " + line + " of " + source + ": " + reason).build());
    }

    /** A JSON value as a value of a field of {@code type}, by the core's rule for every surface. */
    private static Object convert(Object v, FieldType type) {
      ValueType target = BeamValues.coreType(type);
      if (target == null) {
        throw new IllegalArgumentException("fields of type " + type + " cannot be read from NDJSON");
      }
      try {
        Object value = ColumnValues.convert(v, target, target.name(), TIMES);
        return value instanceof Instant i ? new org.joda.time.Instant(i.toEpochMilli()) : value;
      } catch (ColumnValues.Mismatch e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
  }
}
