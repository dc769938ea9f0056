package io.eventtime.hop.fileinput;

import io.eventtime.core.follow.FollowedFile;
import io.eventtime.core.follow.FollowedFiles;
import io.eventtime.core.ndjson.NdjsonReader;
import io.eventtime.core.ndjson.TextEncoding;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.row.RowDataUtil;
import org.apache.hop.core.vfs.HopVfs;

/**
 * Reads the rows of NDJSON or CSV files in arrival order: file after file, line after line (a
 * line whose bytes are not UTF-8 is rejected, by the core's rule, never read with U+FFFD in it).
 * Each record carries its file and line number, and either its values in the Hop types of the
 * fields, or the field and reason it could not be read. It needs no running transform, so any
 * engine can read the files the way the local engine does. {@linkplain #following Followed files}
 * (core's {@link FollowedFiles}) are read the same way, each as it grows and the next as it lands.
 */
public final class EventFileReader implements Closeable {
  /** One row: its values (file name and line number included when asked for) or why it is rejected. */
  public record Record(String file, long line, Object[] values, String errorField, String error) {
    public boolean isRejected() {
      return error != null;
    }
  }

  /** One file to read: its name, as rows and reasons give it, its bytes, and the number of their first line. */
  private record Input(String name, InputStream bytes, long firstLine) {}

  /** The files one after another; null after the last. */
  @FunctionalInterface
  private interface Inputs {
    Input next() throws IOException;
  }

  private final InputSettings settings;
  private final Inputs files;
  private final Closeable onClose;
  private String currentFile;
  /** What the current file's line numbers are ahead of the reader's, which count from where it started. */
  private long linesBefore;
  private NdjsonReader ndjson;
  private CsvRecords csv;
  private int[] columnOfField;

  public EventFileReader(InputSettings settings, List<FileObject> files) {
    this(settings, inputsOf(files.iterator()), () -> { });
  }

  private EventFileReader(InputSettings settings, Inputs files, Closeable onClose) {
    this.settings = settings;
    this.files = files;
    this.onClose = onClose;
  }

  /** Reads {@code files} as they land and grow: {@link #next} waits for rows, and gives null once they stop. */
  public static EventFileReader following(InputSettings settings, FollowedFiles files) {
    return new EventFileReader(settings, () -> {
      FollowedFile f = files.next();
      return f == null ? null : new Input(f.path().toString(), f, f.startLine());
    }, files);
  }

  private static Inputs inputsOf(Iterator<FileObject> files) {
    return () -> {
      if (!files.hasNext()) {
        return null;
      }
      FileObject file = files.next();
      return new Input(HopVfs.getFilename(file), HopVfs.getInputStream(file), 1);
    };
  }

  /** The next row, or null after the last line of the last file. */
  public Record next() throws IOException {
    while (true) {
      if (ndjson == null && csv == null) {
        Input input = files.next();
        if (input == null) {
          return null;
        }
        open(input);
        continue;
      }
      Record r = settings.csv ? nextCsv() : nextNdjson();
      if (r != null) {
        return r;
      }
      closeCurrent();
    }
  }

  private void open(Input input) throws IOException {
    currentFile = input.name();
    linesBefore = input.firstLine() - 1;
    BufferedInputStream bytes = new BufferedInputStream(input.bytes());
    try {
      TextEncoding.requireUtf8(bytes);
    } catch (IOException e) {
      // said once for the file, not as a misleading reason for each of its lines
      throw new IOException("cannot read " + currentFile + ": " + e.getMessage(), e);
    }
    if (!settings.csv) {
      // line by line, strictly: a line that is not UTF-8 is rejected, not read with U+FFFD in it
      ndjson = new NdjsonReader(currentFile, bytes);
      return;
    }
    csv = new CsvRecords(currentFile, bytes, settings.delimiter);
    int fields = settings.fields.size();
    columnOfField = new int[fields];
    if (!settings.header) {
      for (int i = 0; i < fields; i++) {
        columnOfField[i] = i;
      }
      return;
    }
    List<String> header = csv.next();
    if (header == null) {
      return;
    }
    if (csv.notUtf8() != null) {
      throw new IOException("cannot read the header of " + currentFile + ": " + csv.notUtf8());
    }
    for (int i = 0; i < fields; i++) {
      columnOfField[i] = header.indexOf(settings.fields.names().get(i));
      if (columnOfField[i] < 0) {
        throw new IOException("The file " + currentFile + " has no column '" + settings.fields.names().get(i)
            + "' in its header (" + String.join(", ", header) + "): fix the field name or the file");
      }
    }
  }

  private Record nextNdjson() {
    NdjsonReader.Line line = ndjson.next();
    if (line == null) {
      return null;
    }
    long number = linesBefore + line.number();
    Object[] row = newRow(number);
    if (line.isMalformed()) {
      return new Record(currentFile, number, row, null, where(number) + line.error());
    }
    TypedFields.Rejection rejection = settings.fields.readJson(line.fields(), row);
    if (rejection != null) {
      return new Record(currentFile, number, row, rejection.field(), where(number) + rejection.reason());
    }
    return new Record(currentFile, number, row, null, null);
  }

  private Record nextCsv() throws IOException {
    List<String> values = csv.next();
    if (values == null) {
      return null;
    }
    long number = linesBefore + csv.line();
    Object[] row = newRow(number);
    if (csv.notUtf8() != null) {
      return new Record(currentFile, number, row, null, csv.notUtf8());
    }
    for (int i = 0; i < settings.fields.size(); i++) {
      String name = settings.fields.names().get(i);
      int column = columnOfField[i];
      String text = column < values.size() ? values.get(column) : null;
      try {
        row[i] = settings.fields.read(i, text == null || text.isEmpty() ? null : text);
      } catch (IllegalArgumentException e) {
        return new Record(currentFile, number, row, name, where(number) + "field '" + name + "': " + e.getMessage());
      }
    }
    return new Record(currentFile, number, row, null, null);
  }

  private Object[] newRow(long lineNumber) {
    Object[] row = RowDataUtil.allocateRowData(settings.layout.size());
    if (settings.filenameIndex >= 0) {
      row[settings.filenameIndex] = currentFile;
    }
    if (settings.lineNumberIndex >= 0) {
      row[settings.lineNumberIndex] = lineNumber;
    }
    return row;
  }

  private String where(long line) {
    return currentFile + " line " + line + ": ";
  }

  private void closeCurrent() throws IOException {
    if (ndjson != null) {
      ndjson.close();
      ndjson = null;
    }
    if (csv != null) {
      csv.close();
      csv = null;
    }
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
    onClose.close();
  }
}
