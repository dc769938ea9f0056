package io.eventtime.beam;

import io.eventtime.core.ArrivalPosition;
import io.eventtime.core.ndjson.Utf8Lines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.display.DisplayData;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Arrival positions: the order in which rows arrived, which {@link EventTimeWindow} decides
 * lateness from. A position is the core's {@link ArrivalPosition}: the index of the row's file
 * (the files in name order) above the bits of its line number (1-based). {@link NdjsonIO} writes
 * it, and {@link #ofLines} gives it to the lines of files of any other format (CSV, logs) for a
 * parser of one's own. A line whose bytes are not UTF-8 fails the run, naming the file, the line
 * and the bytes (this transform has no rejected output; {@link NdjsonIO} rejects such a line).
 *
 * <pre>{@code
 * PCollection<Row> lines = p.apply(ArrivalPositions.ofLines("orders-*.csv"));   // line, _arrival
 * PCollection<Row> rows = lines
 *     .apply(Filter.by(l -> ArrivalPosition.line(l.getInt64("_arrival")) > 1))   // the header
 *     .apply(MapElements.into(TypeDescriptors.rows()).via(l -> parse(l)))        // keep _arrival
 *     .setRowSchema(ordersWithArrival);
 * }</pre>
 *
 * <p>The rows' schema names the files in its option {@value #FILES_OPTION}; when the schema of
 * the rows given to {@link EventTimeWindow} keeps that option, late and rejected rows are told
 * by file and line rather than by the position's number.
 */
public final class ArrivalPositions {
  /** The schema option that lists the files whose lines the positions number, in index order. */
  public static final String FILES_OPTION = "eventtime_arrival_files";
  /** The field of each line's text in {@link #ofLines}'s rows. */
  public static final String LINE_FIELD = "line";

  private ArrivalPositions() {}

  /** Each line of the files that match {@code filepattern}, with its position in {@value EventTimeWindow#DEFAULT_ARRIVAL_FIELD}. */
  public static Lines ofLines(String filepattern) {
    return new Lines(filepattern);
  }

  /**
   * Where a position is, in words: {@code line 12 of /data/a.csv} when the files are known
   * ({@link #files}), else {@code arrival 12}.
   */
  static String describe(long position, List<String> files) {
    int file = ArrivalPosition.file(position);
    if (files == null || position < 0 || file >= files.size()) {
      return "arrival " + position;
    }
    return "line " + ArrivalPosition.line(position) + " of " + files.get(file);
  }

  /** The files a schema's positions number, or null when it does not say. */
  static List<String> files(Schema schema) {
    Schema.Options options = schema.getOptions();
    if (!options.hasOption(FILES_OPTION)) {
      return null;
    }
    List<String> files = new ArrayList<>();
    for (Object f : options.<Iterable<?>>getValue(FILES_OPTION)) {
      files.add(String.valueOf(f));
    }
    return files;
  }

  /** {@code fields} with the files named in the schema's options. */
  static Schema withFiles(Schema.Builder fields, List<String> files) {
    return fields.setOptions(Schema.Options.builder()
        .setOption(FILES_OPTION, FieldType.array(FieldType.STRING), files).build()).build();
  }

  /**
   * The files that match the patterns, each once, in name order; a pattern that matches none is
   * refused, and so are more files than positions number.
   */
  static List<String> matchFiles(List<String> patterns) {
    List<String> files = new ArrayList<>();
    for (String p : patterns) {
      try {
        MatchResult m = FileSystems.match(p);
        if (m.status() != MatchResult.Status.OK || m.metadata().isEmpty()) {
          throw new IllegalArgumentException("no file matches '" + p + "': check the path or pattern");
        }
        m.metadata().stream().map(md -> md.resourceId().toString()).forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list the files of '" + p + "': " + e.getMessage(), e);
      }
    }
    files.sort(Comparator.naturalOrder());
    List<String> distinct = files.stream().distinct().toList();
    ArrivalPosition.requireFiles(distinct.size());
    return distinct;
  }

  /** The files, each with its index, spread over the workers: one worker reads one file in order. */
  static PCollection<KV<Long, String>> indexedFiles(PBegin begin, List<String> files) {
    List<KV<Long, String>> indexed = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      indexed.add(KV.of((long) i, files.get(i)));
    }
    return begin
        .apply("Files", Create.of(indexed).withCoder(KvCoder.of(VarLongCoder.of(), StringUtf8Coder.of())))
        .apply("SpreadFiles", Reshuffle.viaRandomKey());
  }

  /** Reads the lines of files, each with its arrival position. */
  public static final class Lines extends PTransform<PBegin, PCollection<Row>> {
    private final String filepattern;

    private Lines(String filepattern) {
      this.filepattern = filepattern;
    }

    /** The settings a runner's UI shows for this step: the file pattern and the fields it writes. */
    @Override
    public void populateDisplayData(DisplayData.Builder builder) {
      super.populateDisplayData(builder);
      builder.add(DisplayData.item("filePattern", filepattern).withLabel("File pattern"));
      builder.add(DisplayData.item("lineField", LINE_FIELD).withLabel("Line field"));
      builder.add(DisplayData.item("arrivalField", EventTimeWindow.DEFAULT_ARRIVAL_FIELD).withLabel("Arrival position field"));
    }

    @Override
    public PCollection<Row> expand(PBegin begin) {
      List<String> files = matchFiles(List.of(filepattern));
      Schema schema = withFiles(Schema.builder().addStringField(LINE_FIELD)
          .addInt64Field(EventTimeWindow.DEFAULT_ARRIVAL_FIELD), files);
      return indexedFiles(begin, files).apply("ReadLines", ParDo.of(new ReadLinesFn(schema))).setRowSchema(schema);
    }
  }

  private static final class ReadLinesFn extends DoFn<KV<Long, String>, Row> {
    private final Schema schema;

    ReadLinesFn(Schema schema) {
      this.schema = schema;
    }

    @ProcessElement
    public void process(@Element KV<Long, String> file, OutputReceiver<Row> out) throws IOException {
      int fileIndex = file.getKey().intValue();
      try (Utf8Lines in = NdjsonIO.openToRead(file.getValue())) {
        long number = 0;
        while (true) {
          String line;
          try {
            line = in.readLine();
          } catch (Utf8Lines.NotUtf8 e) {
            // no rejected output here to send it to, and a line with its bytes replaced would be silently wrong
            throw new IOException("line " + (number + 1) + " of " + file.getValue() + ": " + e.getMessage()
                + "; ArrivalPositions.ofLines reads UTF-8 text only: convert the file, or read it with NdjsonIO,"
                + " which rejects such a line and goes on");
          }
          if (line == null) {
            break;
          }
          number++;
          out.output(Row.withSchema(schema).addValues(line, ArrivalPosition.of(fileIndex, number)).build());
        }
      }
    }
  }
}
