package io.eventtime.hop.fileoutput;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.eventtime.core.TimeText;
import io.eventtime.core.ndjson.JsonValues;
import io.eventtime.hop.HopValues;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import org.apache.hop.core.exception.HopValueException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.IValueMeta;

/**
 * Writes rows to an NDJSON or CSV stream one at a time, in the order they come. Dates and
 * timestamps are written as the core's {@link TimeText} ({@code 2026-07-18 10:00:00}, UTC);
 * numbers as JSON numbers. It needs no running transform, so any engine can write the files the
 * way the local engine does.
 */
public final class EventFileWriter implements Closeable {
  private static final JsonFactory JSON = new JsonFactory();
  private static final CsvMapper CSV = new CsvMapper();

  private final Writer out;
  private final IRowMeta layout;
  private final int[] columns;
  private final boolean csv;
  private final SequenceWriter csvWriter;
  private final String[] csvRow;

  /**
   * A writer of the fields at {@code columns} of rows of {@code layout}; for CSV with the given
   * delimiter, and a header line first when {@code header} is true.
   */
  public EventFileWriter(OutputStream stream, IRowMeta layout, int[] columns, boolean csv, char delimiter,
      boolean header) throws IOException {
    this.out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
    this.layout = layout;
    this.columns = columns.clone();
    this.csv = csv;
    if (csv) {
      CsvSchema schema = CsvSchema.emptySchema().withColumnSeparator(delimiter).withLineSeparator("\n");
      // quotes only the values that need it (a delimiter, a quote, a line break)
      csvWriter = CSV.writerFor(String[].class).with(schema).with(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
          .writeValues(out);
      csvRow = new String[columns.length];
      if (header) {
        String[] names = new String[columns.length];
        for (int i = 0; i < columns.length; i++) {
          names[i] = layout.getValueMeta(columns[i]).getName();
        }
        csvWriter.write(names);
      }
    } else {
      csvWriter = null;
      csvRow = null;
    }
  }

  public void write(Object[] row) throws IOException, HopValueException {
    if (csv) {
      for (int i = 0; i < columns.length; i++) {
        csvRow[i] = text(value(row, columns[i]));
      }
      csvWriter.write(csvRow);
      return;
    }
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.writeStartObject();
      for (int column : columns) {
        g.writeFieldName(layout.getValueMeta(column).getName());
        JsonValues.write(g, value(row, column));
      }
      g.writeEndObject();
    }
    out.write('\n');
  }

  private Object value(Object[] row, int column) throws HopValueException {
    IValueMeta meta = layout.getValueMeta(column);
    return HopValues.nativeValue(meta, column < row.length ? row[column] : null);
  }

  private static String text(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Date d) {
      return TimeText.format(d.getTime());
    }
    if (v instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return v.toString();
  }

  public void flush() throws IOException {
    if (csvWriter != null) {
      csvWriter.flush();
    }
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (csvWriter != null) {
      csvWriter.close();
    }
    out.close();
  }
}
