package io.eventtime.hop.fileinput;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.eventtime.core.ndjson.Utf8Lines;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The records of a CSV text, one at a time, with the line each starts on: quoted values may hold
 * the delimiter, quotes and line breaks; blank lines are skipped. The bytes are read line by line,
 * strictly, by the core's {@link Utf8Lines}: a record with a line that is not UTF-8 is returned
 * with {@link #notUtf8} saying so, for the caller to reject it (its values hold U+FFFD).
 */
final class CsvRecords implements Closeable {
  private static final CsvMapper CSV = new CsvMapper();

  private final String source;
  private final StrictLines lines;
  private final CsvParser parser;
  private long line;
  private String notUtf8;

  CsvRecords(String source, InputStream bytes, char delimiter) throws IOException {
    this.source = source;
    this.lines = new StrictLines(new Utf8Lines(bytes));
    this.parser = CSV.getFactory().createParser(lines);
    parser.setSchema(CsvSchema.emptySchema().withColumnSeparator(delimiter));
  }

  /** The values of the next record, or null at the end. */
  List<String> next() throws IOException {
    while (true) {
      JsonToken t = parser.nextToken();
      if (t == null) {
        return null;
      }
      // Jackson counts the lines of a CSV text from 0, except the first, which it gives as -1
      long at = Math.max(1, parser.currentTokenLocation().getLineNr() + 1);
      if (t != JsonToken.START_ARRAY) {
        throw new IOException(source + " line " + at + ": not a CSV record");
      }
      List<String> values = new ArrayList<>();
      long end = at; // a line break inside a quoted value is one more line of the record
      while ((t = parser.nextToken()) != JsonToken.END_ARRAY && t != null) {
        String value = parser.getText();
        end += value.chars().filter(c -> c == '\n').count();
        values.add(value);
      }
      if (values.size() > 1 || (values.size() == 1 && !values.get(0).isEmpty())) {
        line = at;
        var bad = lines.notUtf8.subMap(at, true, end, true).firstEntry();
        notUtf8 = bad == null ? null : source + " line " + bad.getKey() + ": " + bad.getValue();
        lines.notUtf8.headMap(end, true).clear();
        return values;
      }
    }
  }

  /** The line the last record started on, from 1. */
  long line() {
    return line;
  }

  /** Why the last record cannot be read ({@code FILE line N: the line is not UTF-8 text (...)}), or null. */
  String notUtf8() {
    return notUtf8;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }

  /** The text of the lines, each followed by a line break; the lines that are not UTF-8 noted by number. */
  private static final class StrictLines extends Reader {
    private final Utf8Lines in;
    private final TreeMap<Long, String> notUtf8 = new TreeMap<>();
    private long number;
    private String pending = "";
    private int pos;

    StrictLines(Utf8Lines in) {
      this.in = in;
    }

    @Override
    public int read(char[] cbuf, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      while (pos >= pending.length()) {
        String text;
        try {
          text = in.readLine();
        } catch (Utf8Lines.NotUtf8 e) {
          notUtf8.put(number + 1, e.getMessage());
          text = e.text();
        }
        if (text == null) {
          return -1;
        }
        number++;
        pending = text + "\n";
        pos = 0;
      }
      int n = Math.min(len, pending.length() - pos);
      pending.getChars(pos, pos + n, cbuf, off);
      pos += n;
      return n;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
