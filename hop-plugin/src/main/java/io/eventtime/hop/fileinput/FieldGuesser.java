package io.eventtime.hop.fileinput;

import io.eventtime.core.ValueType;
import io.eventtime.core.ndjson.NdjsonReader;
import io.eventtime.core.ndjson.SchemaInference;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.vfs.HopVfs;

/**
 * Proposes the fields of an Event File Input from the first lines of its first file, with the
 * core's schema inference: the dialog's Get fields button.
 */
public final class FieldGuesser {
  private FieldGuesser() {}

  /** The fields of the first {@code lines} rows of the first file the settings list, in order. */
  public static List<InputField> guess(EventFileInputMeta meta, IVariables variables, int lines) throws HopException {
    List<FileObject> files = meta.listFiles(variables);
    if (files.isEmpty()) {
      throw new HopException("No file matches the list: add a file before getting its fields");
    }
    SchemaInference inference = new SchemaInference();
    FileObject file = files.get(0);
    try (InputStream bytes = HopVfs.getInputStream(file)) {
      if ("csv".equalsIgnoreCase(variables.resolve(meta.getFormat()))) {
        observeCsv(HopVfs.getFilename(file), bytes, meta, variables, inference, lines);
      } else {
        NdjsonReader ndjson = new NdjsonReader(HopVfs.getFilename(file), bytes);
        NdjsonReader.Line line;
        for (int n = 0; n < lines && (line = ndjson.next()) != null; n++) {
          if (!line.isMalformed()) {
            inference.observe(line.fields());
          }
        }
      }
    } catch (IOException e) {
      throw new HopException("Cannot read " + HopVfs.getFilename(file) + ": " + e.getMessage(), e);
    }
    List<InputField> fields = new ArrayList<>();
    inference.schema().forEach((name, type) -> fields.add(new InputField(name, hopType(type), null)));
    return fields;
  }

  private static void observeCsv(String source, InputStream bytes, EventFileInputMeta meta, IVariables variables,
      SchemaInference inference, int lines) throws IOException {
    String d = variables.resolve(meta.getCsvDelimiter());
    char delimiter = d == null || d.isEmpty() ? ',' : d.equals("\\t") ? '\t' : d.charAt(0);
    try (CsvRecords csv = new CsvRecords(source, bytes, delimiter)) {
      List<String> header = null;
      for (int n = 0; n < lines + 1; n++) {
        List<String> values = csv.next();
        if (values == null) {
          return;
        }
        if (csv.notUtf8() != null) {
          continue; // rejected with its reason when the file is read; it tells nothing of the types
        }
        if (header == null) {
          header = meta.isCsvHeader() ? values : columnNames(values.size());
          if (meta.isCsvHeader()) {
            continue;
          }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
          row.put(header.get(i), i < values.size() ? typed(values.get(i)) : null);
        }
        inference.observe(row);
      }
    }
  }

  private static List<String> columnNames(int n) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      names.add("field_" + i);
    }
    return names;
  }

  /** A CSV text as the value JSON would have given: a number, a boolean, or the text. */
  private static Object typed(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      return null;
    }
    if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(t);
    }
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException notWhole) {
      try {
        return Double.parseDouble(t);
      } catch (NumberFormatException notNumber) {
        return text;
      }
    }
  }

  /** The Hop type of the fields that hold values the core's inference found of {@code type}. */
  public static String hopType(ValueType type) {
    switch (type) {
      case INT64:
        return "Integer";
      case DOUBLE:
        return "Number";
      case BOOLEAN:
        return "Boolean";
      case TIMESTAMP:
        return "Timestamp";
      default:
        return "String";
    }
  }
}
