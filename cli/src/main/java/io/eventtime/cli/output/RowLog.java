package io.eventtime.cli.output;

import com.fasterxml.jackson.core.JsonGenerator;
import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.core.TimeText;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An NDJSON file of the rows a run left out, each with where it came from and why: late rows
 * ({@code --late-output}) and rejected rows ({@code --rejected-output}). Each record is
 * {@code {"source":..,"line":..,[event_time|field],"reason":..,"row":{...}}}; a line that is not
 * JSON is kept as {@code "text"} instead of {@code "row"}.
 */
public final class RowLog implements Closeable {
  private final String flag;
  private final Path path;
  private final OutputStream out;
  private final JsonGenerator g;

  private RowLog(String flag, Path path) throws IOException {
    this.flag = flag;
    this.path = path;
    this.out = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16);
    this.g = JsonLines.generator(out);
  }

  /** Opens (creates or truncates) the file of a {@code file://} flag value. */
  public static RowLog open(String flag, String uri) {
    String p = uri.startsWith("file://") ? uri.substring(7) : uri.startsWith("file:") ? uri.substring(5) : uri;
    if (uri.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*") && !uri.startsWith("file://")) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, flag + " " + uri + ": only files are supported, e.g. "
          + flag + " file://late.ndjson");
    }
    Path path = Path.of(p);
    Path dir = path.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, flag + " " + uri + ": the directory " + dir
          + " does not exist; create it or write the file elsewhere");
    }
    if (Files.isDirectory(path)) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, flag + " " + uri + " is a directory: name a file, e.g. "
          + flag + " file://late.ndjson");
    }
    try {
      return new RowLog(flag, path);
    } catch (IOException e) {
      throw new CliException(ErrorCode.INVALID_ARGUMENT, flag + " " + uri + ": cannot write the file: " + e.getMessage(), e);
    }
  }

  /** A late row: its event time and why it missed its windows. */
  public void late(String source, long line, long eventTime, String reason, byte[] buf, int off, int len) {
    try {
      start(source, line);
      g.writeStringField("event_time", TimeText.format(eventTime));
      g.writeStringField("reason", reason);
      row(buf, off, len, true);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** A rejected row: the field at fault (null for a malformed line) and why. */
  public void rejected(String source, long line, String field, String reason, byte[] buf, int off, int len,
      boolean isJson) {
    try {
      start(source, line);
      if (field != null) {
        g.writeStringField("field", field);
      }
      g.writeStringField("reason", reason);
      row(buf, off, len, isJson);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private void start(String source, long line) throws IOException {
    g.writeStartObject();
    g.writeStringField("source", source);
    g.writeNumberField("line", line);
  }

  private void row(byte[] buf, int off, int len, boolean isJson) throws IOException {
    String text = new String(buf, off, len, StandardCharsets.UTF_8);
    if (isJson) {
      g.writeFieldName("row");
      g.writeRawValue(text);
    } else {
      g.writeStringField("text", text);
    }
    g.writeEndObject();
    JsonLines.endLine(g);
  }

  private CliException failed(IOException e) {
    return new CliException(ErrorCode.IO_ERROR, "cannot write " + flag + " " + path + ": " + e.getMessage(), e);
  }

  @Override
  public void close() {
    try {
      g.close();
      out.close();
    } catch (IOException e) {
      throw failed(e);
    }
  }
}
