package io.eventtime.core.ndjson;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads an NDJSON file line by line, in order: each non-blank line becomes a {@link Line} with
 * its number and either its fields or the reason it could not be read (a line whose bytes are
 * not UTF-8 too: {@link Utf8Lines}). Nothing is skipped but blank lines.
 *
 * <pre>{@code
 * try (NdjsonReader r = NdjsonReader.open(path)) {
 *   for (NdjsonReader.Line line; (line = r.next()) != null; ) { ... }
 * }
 * }</pre>
 */
public final class NdjsonReader implements Closeable {

  /** One line: its 1-based number and its fields, or the reason it is malformed. */
  public record Line(String source, long number, Map<String, Object> fields, String error) {
    public boolean isMalformed() {
      return error != null;
    }
  }

  private final String source;
  private final Utf8Lines in;
  private long number;

  /** Reads the UTF-8 bytes of {@code in}, named {@code source}. */
  public NdjsonReader(String source, InputStream in) {
    this.source = source;
    this.in = new Utf8Lines(in);
  }

  public static NdjsonReader open(Path path) throws IOException {
    return new NdjsonReader(path.toString(), Files.newInputStream(path));
  }

  /** The next line with a row in it, or null at the end of the file. */
  public Line next() {
    try {
      while (true) {
        String text;
        try {
          text = in.readLine();
        } catch (Utf8Lines.NotUtf8 e) {
          return new Line(source, ++number, null, e.getMessage());
        }
        if (text == null) {
          return null;
        }
        number++;
        if (NdjsonLines.isBlank(text)) {
          continue;
        }
        try {
          return new Line(source, number, NdjsonLines.parse(text), null);
        } catch (MalformedLineException e) {
          return new Line(source, number, null, e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + source + " after line " + number + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
