package io.eventtime.hop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each transform package's message bundle, and the one of the helpers they share (Settings,
 * EventTimeReader, Engines), holds exactly the keys its sources use: read from the
 * sources, the way they name keys (a {@code BaseMessages.getString(PKG, "key")}, an {@code i18n::}
 * key of the plugin annotation, an injection description, and in a dialog the keys its helpers
 * compose from the dialog's prefix). Every message is also one that Hop's MessageFormat renders as
 * written: an apostrophe doubled, a brace either a placeholder or quoted.
 */
class MessageBundlesTest {
  private static final Path SOURCES = Path.of("src/main/java/io/eventtime/hop");
  private static final Path RESOURCES = Path.of("src/main/resources/io/eventtime/hop");

  private static final Pattern GET_STRING = Pattern.compile("BaseMessages\\.getString\\(\\s*PKG,\\s*\"([^\"]+)\"");
  private static final Pattern PLUGIN_TEXT = Pattern.compile("\"i18n::([^\"]+)\"");
  private static final Pattern INJECTION = Pattern.compile("injection(?:Key|Group)Description\\s*=\\s*\"([^\"]+)\"");
  private static final Pattern DIALOG_PREFIX = Pattern.compile("super\\([^;]*PKG,\\s*\"(\\w+Dialog)\"\\)");
  /** {@code message("X")} and {@code tab("X")}: the key prefix.X. */
  private static final Pattern DIALOG_MESSAGE = Pattern.compile("\\b(?:message|tab)\\(\"([^\"]+)\"\\)");
  /** The labelled widgets of EventTransformDialog: prefix.X.Label and prefix.X.Tooltip. */
  private static final Pattern DIALOG_WIDGET =
      Pattern.compile("\\b(?:text|combo|checkbox|table)\\(\\s*\\w+,\\s*\"([^\"]+)\"");
  /** A Get fields button: prefix.X and prefix.X.Tooltip. */
  private static final Pattern DIALOG_BUTTON = Pattern.compile("\\bgetFieldsButton\\(\\s*\\w+,\\s*\"([^\"]+)\"\\)");
  /** What EventTransformDialog itself asks of every dialog's prefix. */
  private static final List<String> EVERY_DIALOG = List.of("Shell.Title");

  @ParameterizedTest
  @ValueSource(strings = {"", "fileinput", "kafkainput", "stamp", "window", "fileoutput"})
  void theBundleHoldsExactlyTheKeysTheSourcesUse(String pkg) throws IOException {
    Set<String> used = usedKeys(SOURCES.resolve(pkg));
    Map<String, String> bundle = bundle(RESOURCES.resolve(pkg).resolve("messages/messages_en_US.properties"));

    assertThat(new TreeSet<>(used)).as("keys the sources of " + pkg + " use that the bundle lacks")
        .isSubsetOf(bundle.keySet());
    assertThat(new TreeSet<>(bundle.keySet())).as("keys of the " + pkg + " bundle no source uses")
        .isSubsetOf(used);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "fileinput", "kafkainput", "stamp", "window", "fileoutput"})
  void everyMessageRendersAsWritten(String pkg) throws IOException {
    Map<String, String> bundle = bundle(RESOURCES.resolve(pkg).resolve("messages/messages_en_US.properties"));
    for (Map.Entry<String, String> e : bundle.entrySet()) {
      String text = e.getValue();
      // throws on a brace that is neither a placeholder nor quoted
      new MessageFormat(text);
      String unquoted = text.replace("''", "").replaceAll("'\\$\\{[^}']*}'", "");
      assertThat(unquoted).as(e.getKey() + ": an apostrophe MessageFormat would take for a quote").doesNotContain("'");
    }
  }

  /** The keys the package's sources use. */
  private static Set<String> usedKeys(Path packageDir) throws IOException {
    Set<String> keys = new TreeSet<>();
    try (Stream<Path> files = Files.list(packageDir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String source = Files.readString(file, StandardCharsets.UTF_8);
        all(GET_STRING, source).stream().filter(k -> !k.startsWith("System.")).forEach(keys::add);
        keys.addAll(all(PLUGIN_TEXT, source));
        keys.addAll(all(INJECTION, source));
        List<String> prefix = all(DIALOG_PREFIX, source);
        if (!prefix.isEmpty()) {
          String p = prefix.get(0) + ".";
          EVERY_DIALOG.forEach(k -> keys.add(p + k));
          all(DIALOG_MESSAGE, source).forEach(k -> keys.add(p + k));
          all(DIALOG_WIDGET, source).forEach(k -> keys.addAll(List.of(p + k + ".Label", p + k + ".Tooltip")));
          all(DIALOG_BUTTON, source).forEach(k -> keys.addAll(List.of(p + k, p + k + ".Tooltip")));
        }
      }
    }
    return keys;
  }

  private static List<String> all(Pattern pattern, String source) {
    List<String> found = new ArrayList<>();
    Matcher m = pattern.matcher(source);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  /** The bundle's keys and messages, refusing a key written twice (Properties would keep the last). */
  private static Map<String, String> bundle(Path file) throws IOException {
    Properties properties = new Properties();
    try (var reader = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      properties.load(reader);
    }
    List<String> written = Files.readAllLines(file, StandardCharsets.ISO_8859_1).stream()
        .filter(line -> !line.isBlank() && !line.startsWith("#"))
        .map(line -> line.substring(0, line.indexOf('=')).trim()).toList();
    assertThat(written).as("keys of " + file).doesNotHaveDuplicates();
    Map<String, String> bundle = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(k -> bundle.put(k, properties.getProperty(k)));
    return bundle;
  }
}
