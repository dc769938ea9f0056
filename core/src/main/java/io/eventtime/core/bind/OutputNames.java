package io.eventtime.core.bind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one rule for the names of output columns and for finding an input field by name: names
 * are compared ignoring case, with {@link Locale#ROOT} (so the outcome does not depend on the
 * machine's language). Hop looks fields up ignoring case, SQL's unquoted names are
 * case-insensitive, and a JSON reader may fold case, so {@code total} and {@code Total} are one
 * name on every surface.
 */
public final class OutputNames {
  private OutputNames() {}

  /** Whether two names are the same name. */
  public static boolean same(String a, String b) {
    return a != null && b != null && fold(a).equals(fold(b));
  }

  /** Each name that repeats an earlier one (ignoring case), as a problem naming it; null names are skipped. */
  public static List<BindProblem> clashes(List<String> names) {
    Map<String, String> seen = new HashMap<>();
    List<BindProblem> problems = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name == null) {
        continue;
      }
      String first = seen.putIfAbsent(fold(name), name);
      if (first != null) {
        problems.add(new BindProblem(BindProblem.Subject.OUTPUT_NAME, i, null, BindProblem.Kind.NAME_CLASH,
            clash(first, name)));
      }
    }
    return problems;
  }

  private static String clash(String first, String again) {
    String names = first.equals(again) ? "'" + again + "' is used twice"
        : "'" + again + "' is used twice (as '" + first + "' and '" + again + "': names are compared ignoring case)";
    return "the output name " + names + ": give each output column its own name";
  }

  private static String fold(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
