package io.eventtime.hop.fileinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.eventtime.hop.HopTestEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hop.core.variables.Variables;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Get fields button of the Event File Input dialog, without the dialog. */
class FieldGuesserTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  @Test
  void ndjsonFieldsAndTypesFromTheFirstLines() throws Exception {
    Files.writeString(dir.resolve("a.ndjson"), String.join("\n",
        "{\"merchant\":\"acme\",\"amount\":250,\"event_time\":\"2026-07-18 10:00:03\",\"ok\":true}",
        "{\"merchant\":\"globex\",\"amount\":4.5,\"event_time\":\"2026-07-18 10:00:07\",\"note\":null}") + "\n");
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFiles(List.of(new InputFile(dir.toString(), ".*\\.ndjson")));
    assertThat(FieldGuesser.guess(m, new Variables(), 100)).extracting(InputField::getName, InputField::getType)
        .containsExactly(tuple("merchant", "String"), tuple("amount", "Number"), tuple("event_time", "Timestamp"),
            tuple("ok", "Boolean"), tuple("note", "String"));
  }

  @Test
  void csvFieldsFromTheHeaderOrByPosition() throws Exception {
    Files.writeString(dir.resolve("a.csv"), "merchant;amount;event_time\nacme;250;2026-07-18 10:00:03\n\nglobex;42;2026-07-18T10:00:07Z\n");
    EventFileInputMeta m = new EventFileInputMeta();
    m.setDefault();
    m.setFormat("csv");
    m.setCsvDelimiter(";");
    m.setFiles(List.of(new InputFile(dir.resolve("a.csv").toString(), null)));
    assertThat(FieldGuesser.guess(m, new Variables(), 100)).extracting(InputField::getName, InputField::getType)
        .containsExactly(tuple("merchant", "String"), tuple("amount", "Integer"), tuple("event_time", "Timestamp"));
    m.setCsvHeader(false);
    assertThat(FieldGuesser.guess(m, new Variables(), 100)).extracting(InputField::getName, InputField::getType)
        .containsExactly(tuple("field_1", "String"), tuple("field_2", "String"), tuple("field_3", "String"));
  }
}
