package io.eventtime.hop.fileinput;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of a CSV text, one at a time, with the line each starts on: quoted values may hold
 * the delimiter, quotes and line breaks; blank lines are skipped.
 */
final class CsvRecords implements Closeable {
  private static final CsvMapper CSV = new CsvMapper();

  private final String source;
  private final CsvParser parser;
  private long line;

  CsvRecords(String source, Reader reader, char delimiter) throws IOException {
    this.source = source;
    this.parser = CSV.getFactory().createParser(reader);
    parser.setSchema(CsvSchema.emptySchema().withColumnSeparator(delimiter));
  }

  /** The values of the next record, or null at the end. */
  List<String> next() throws IOException {
    while (true) {
      JsonToken t = parser.nextToken();
      if (t == null) {
        return null;
      }
      // Jackson counts the lines of a CSV text from 0
      long at = parser.currentTokenLocation().getLineNr() + 1;
      if (t != JsonToken.START_ARRAY) {
        throw new IOException(source + " line " + at + ": not a CSV record");
      }
      List<String> values = new ArrayList<>();
      while ((t = parser.nextToken()) != JsonToken.END_ARRAY && t != null) {
        values.add(parser.getText());
      }
      if (values.size() > 1 || (values.size() == 1 && !values.get(0).isEmpty())) {
        line = at;
        return values;
      }
    }
  }

  /** The line the last record started on, from 1. */
  long line() {
    return line;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
