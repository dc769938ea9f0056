package io.eventtime.beam;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * An idempotent sink for tests that restore a job: each output row goes to a file named after its
 * identity (a window by key, start and end; a late or rejected row by its partition and offset), so a row
 * emitted again after a restore lands on the same name. A second write of a name with different
 * content is recorded in the {@value #CONFLICTS} folder beside, for the test to fail on (a throw
 * here would only restart the job). Each file holds the identity line, then the row's text.
 */
final class RowFiles extends DoFn<Row, Void> {
  static final String CONFLICTS = "conflicts";

  /** How a row of this output is named and written. */
  enum Kind {
    /** A window row: named by its first {@code keys + 2} fields (keys, start, end). */
    WINDOW,
    /** A late or rejected row: named by its partition and offset, written with the reason (late) or alone (rejected). */
    LATE,
    REJECTED,
    /** A record KafkaRows rejected (its flat {@link KafkaRows#REJECTED_SCHEMA}): named by its partition and offset, written alone. */
    READ_REJECTED
  }

  private final String folder;
  private final Kind kind;
  private final int keys;

  RowFiles(Path folder, Kind kind, int keys) {
    this.folder = folder.toString();
    this.kind = kind;
    this.keys = keys;
  }

  @ProcessElement
  public void process(@Element Row row) throws IOException {
    String identity;
    String text;
    if (kind == Kind.WINDOW) {
      String[] fields = ConformanceSuite.formatRow(row).split("\\|", -1);
      StringJoiner id = new StringJoiner("|");
      for (int i = 0; i < keys + 2; i++) {
        id.add(fields[i]);
      }
      identity = id.toString();
      text = String.join("|", fields);
    } else if (kind == Kind.READ_REJECTED) {
      identity = identity(row.getInt32("partition"), row.getInt64("offset"));
      text = identity;
    } else {
      Row input = row.getRow(ProblemRows.ROW);
      identity = identity(input.getInt32(KafkaRows.PARTITION_FIELD), input.getInt64(EventTimeWindow.DEFAULT_ARRIVAL_FIELD));
      text = kind == Kind.LATE ? identity + "|" + row.getString(ProblemRows.REASON) : identity;
    }
    Path d = Files.createDirectories(Path.of(folder));
    String content = identity + "\n" + text;
    String name = UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)) + ".row";
    Path tmp = Files.writeString(d.resolve(UUID.randomUUID() + ".tmp"), content, StandardCharsets.UTF_8);
    try {
      Files.createLink(d.resolve(name), tmp);
    } catch (FileAlreadyExistsException again) {
      String before = Files.readString(d.resolve(name), StandardCharsets.UTF_8);
      if (!before.equals(content)) {
        Path conflicts = Files.createDirectories(d.resolveSibling(d.getFileName() + "-" + CONFLICTS));
        Files.writeString(conflicts.resolve(UUID.randomUUID() + ".txt"), before + "\n-- then --\n" + content,
            StandardCharsets.UTF_8);
      }
    } finally {
      Files.delete(tmp);
    }
  }

  /** The identity of a late or rejected row: its partition and offset. */
  static String identity(int partition, long offset) {
    return partition + "|" + offset;
  }

  /** The files of each folder so far: identity to text; a folder's conflicts under {@code folder + "-conflicts"}. */
  static Map<String, Map<String, String>> read(Path dir, List<String> folders) {
    Map<String, Map<String, String>> all = new HashMap<>();
    for (String folder : folders) {
      Map<String, String> files = new HashMap<>();
      Path d = dir.resolve(folder);
      if (Files.isDirectory(d)) {
        try (Stream<Path> list = Files.list(d)) {
          for (Path f : list.filter(f -> f.toString().endsWith(".row")).toList()) {
            String[] lines = Files.readString(f, StandardCharsets.UTF_8).split("\n", 2);
            files.put(lines[0], lines[1]);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      all.put(folder, files);
    }
    return all;
  }

  /** The conflicts recorded for these folders: each a text with the first content and the second. */
  static List<String> conflicts(Path dir, List<String> folders) {
    return folders.stream().map(f -> dir.resolve(f + "-" + CONFLICTS)).filter(Files::isDirectory).flatMap(d -> {
      try (Stream<Path> list = Files.list(d)) {
        return list.map(f -> {
          try {
            return Files.readString(f, StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }).toList().stream();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).toList();
  }
}
