package io.eventtime.core.ndjson;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link FieldReader#readNext} (one parser over the lines of a batch) gives every line what
 * {@link FieldReader#read} (a parser per line) gives it: the same values, or the same error.
 * Batches of random lines, good and bad, side by side: the parser of a batch must neither take a
 * line that read() refuses nor let a bad line change what the lines after it read.
 */
class FieldReaderNextTest {
  private static final List<String> FIELDS = List.of("merchant", "amount", "event_time", "tags");

  /** What reading one line came to: its values, or the field and the wording of its error. */
  private static String outcome(FieldReader reader, byte[] buf, int off, int len, int end, boolean next) {
    Object[] out = new Object[FIELDS.size()];
    try {
      if (next) {
        reader.readNext(buf, off, len, end, out);
      } else {
        reader.read(buf, off, len, out);
      }
      return "values " + Arrays.toString(out);
    } catch (MalformedLineException e) {
      return "error " + e.field() + ": " + e.getMessage();
    }
  }

  @Test
  void eachLineOfABatchReadsAsItDoesAlone() {
    Random random = new Random(20261204);
    FieldReader alone = new FieldReader(FIELDS);
    FieldReader batch = new FieldReader(FIELDS);
    int taken = 0;
    int refused = 0;
    for (int b = 0; b < 400; b++) {
      List<byte[]> lines = new ArrayList<>();
      int n = 1 + random.nextInt(60);
      for (int i = 0; i < n; i++) {
        if (random.nextInt(20) == 0) {
          // a good object split in two lines: joined, they are one object
          String good = object(random);
          int cut = 1 + random.nextInt(good.length() - 1);
          lines.add(good.substring(0, cut).getBytes(StandardCharsets.UTF_8));
          lines.add(good.substring(cut).getBytes(StandardCharsets.UTF_8));
        } else if (random.nextInt(40) == 0) {
          // UTF-16 or 32: Jackson picks the encoding from the first bytes of what it is given
          lines.add(object(random).getBytes(Charset.forName(pick(random, "UTF-16BE", "UTF-16LE", "UTF-16", "UTF-32BE"))));
        } else {
          lines.add(line(random));
        }
      }
      n = lines.size();
      ByteArrayOutputStream joined = new ByteArrayOutputStream();
      int[] offsets = new int[n];
      for (int i = 0; i < n; i++) {
        offsets[i] = joined.size();
        joined.writeBytes(lines.get(i));
      }
      byte[] buf = joined.toByteArray();
      for (int i = 0; i < n; i++) {
        int len = lines.get(i).length;
        String expected = outcome(alone, buf, offsets[i], len, buf.length, false);
        String actual = outcome(batch, buf, offsets[i], len, buf.length, true);
        assertThat(actual).as("batch %d, line %d: %s", b, i, new String(lines.get(i), StandardCharsets.UTF_8))
            .isEqualTo(expected);
        if (expected.startsWith("values")) {
          taken++;
        } else {
          refused++;
        }
      }
      batch.endLines();
    }
    // both kinds came up often enough to mean something
    assertThat(taken).isGreaterThan(4000);
    assertThat(refused).isGreaterThan(2000);
  }

  @Test
  void aBlankLineAndAnUnclosedObjectAreNotTakenFromTheLinesAfterThem() {
    // four lines: blank, an object without its end, the end alone, a good object
    byte[] buf = " {\"amount\":5}{\"amount\":6}".getBytes(StandardCharsets.UTF_8);
    FieldReader reader = new FieldReader(FIELDS);
    assertThat(outcome(reader, buf, 0, 1, buf.length, true)).startsWith("error null: ");
    assertThat(outcome(reader, buf, 1, 11, buf.length, true)).startsWith("error null: ");
    assertThat(outcome(reader, buf, 12, 1, buf.length, true)).startsWith("error null: ");
    assertThat(outcome(reader, buf, 13, 12, buf.length, true)).isEqualTo("values [MISSING, 6, MISSING, MISSING]");
  }

  @Test
  void aLineThatGoesOnIntoTheNextIsReadAloneAndTheNextIsStillRead() {
    byte[] buf = "{\"merchant\":\"m1\",\"tags\":\"x{\"amount\":5}{\"amount\":6}".getBytes(StandardCharsets.UTF_8);
    FieldReader reader = new FieldReader(FIELDS);
    // the three lines: an unclosed string that, joined, would swallow the next line; then two good ones
    int first = "{\"merchant\":\"m1\",\"tags\":\"x".length();
    int second = "{\"amount\":5}".length();
    assertThat(outcome(reader, buf, 0, first, buf.length, true)).startsWith("error null: malformed JSON");
    assertThat(outcome(reader, buf, first, second, buf.length, true))
        .isEqualTo("values [MISSING, 5, MISSING, MISSING]");
    assertThat(outcome(reader, buf, first + second, buf.length - first - second, buf.length, true))
        .isEqualTo("values [MISSING, 6, MISSING, MISSING]");
  }

  /** A random line: mostly good objects, some cut, spoiled, padded, doubled or not objects at all. */
  private static byte[] line(Random random) {
    String good = object(random);
    String text;
    switch (random.nextInt(16)) {
      case 0:
        text = good.substring(0, random.nextInt(good.length())); // cut anywhere, even inside a string
        break;
      case 1:
        text = good + pick(random, " x", "1", "{}", " {\"a\":1}", "]", "\"", " ", "\t\r", "/", "\u00a0");
        break;
      case 2:
        text = pick(random, " ", "\t", "", "\r") + good + pick(random, " ", "", "  \t");
        break;
      case 3:
        text = pick(random, "", " ", "[1,2]", "12", "\"s\"", "null", "{", "}", "\ufeff" + good, "\u00ef" + good);
        break;
      case 4:
        text = good.replaceFirst("\"amount\"", "\"merchant\""); // a wanted field twice, when there
        break;
      case 5:
        text = good.replaceFirst("\"amount\":-?[0-9.eE+]+", "\"amount\":" + pick(random, "1e400", "-1e999",
            "9".repeat(400), "01", "1.", "-", "+1", "NaN", "1e-400", "123456789012345678901234567890"));
        break;
      case 6: {
        // one byte changed anywhere
        char[] chars = good.toCharArray();
        chars[random.nextInt(chars.length)] = pick(random, "{", "}", "\"", ":", ",", "\\", "x", " ", "\n").charAt(0);
        text = new String(chars);
        break;
      }
      default:
        text = good;
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String object(Random random) {
    List<String> fields = new ArrayList<>();
    // a name written with an escape is the same name: readNext guesses names by their bytes
    String merchant = random.nextInt(15) == 0 ? "\"merch\\u0061nt\":" : "\"merchant\":";
    fields.add(merchant + pick(random, "\"m" + random.nextInt(50) + "\"", "\"caf\u00e9\"", "\"a\\\"b\\n\"", "null",
        "7", "true", "{\"x\":[1,{\"y\":2}]}"));
    fields.add("\"amount\":" + pick(random, String.valueOf(random.nextInt(1000) - 500), "2.5", "-0.0", "1e3",
        String.valueOf(Long.MAX_VALUE), "\"12\"", "[1,2]", "false"));
    fields.add("\"event_time\":\"2026-07-18 10:00:" + (10 + random.nextInt(50)) + "\"");
    if (random.nextBoolean()) {
      fields.add("\"other\":" + pick(random, "{\"tags\":1,\"merchant\":2}", "[\"}\",\"{\"]", "\"\\u007b\"", "0"));
    }
    if (random.nextInt(3) == 0) {
      fields.add("\"tags\":" + pick(random, "[\"a\",\"b\"]", "{}", "[]", "\"t\""));
    }
    if (random.nextInt(30) == 0) {
      fields.add("\"amount\":1");
    }
    if (random.nextBoolean()) {
      // else the fields come in the same order as on most lines, the order readNext guesses
      java.util.Collections.shuffle(fields, random);
    }
    return "{" + String.join(pick(random, ",", ", ", " ,\t"), fields) + "}";
  }

  private static String pick(Random random, String... choices) {
    return choices[random.nextInt(choices.length)];
  }
}
