package io.eventtime.hop;

import io.eventtime.core.DurationText;
import io.eventtime.core.bind.OutputNames;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hop.core.CheckResult;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Helpers the transforms share to read their settings: variables resolved, durations parsed,
 * fields looked up, and every problem collected with how to fix it, so that the designer's check
 * and the run refuse the same settings with the same words.
 */
public final class Settings {
  private static final Class<?> PKG = Settings.class;

  private Settings() {}

  /** The setting with variables resolved and trimmed; null when blank. */
  public static String resolve(IVariables variables, String text) {
    if (text == null) {
      return null;
    }
    String r = variables == null ? text : variables.resolve(text);
    return r == null || r.isBlank() ? null : r.trim();
  }

  /**
   * A duration setting in milliseconds ({@code 10 MINUTE}, {@code 30 s}, {@code PT5M}), or null
   * with a problem naming the setting when it cannot be read or is not positive.
   */
  public static Long positiveDuration(String label, String text, List<String> problems) {
    Long millis = duration(label, text, problems);
    if (millis != null && millis <= 0) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.DurationNotPositive", label, text));
      return null;
    }
    return millis;
  }

  /** A duration setting in milliseconds that may be zero, or null with a problem. */
  public static Long duration(String label, String text, List<String> problems) {
    if (text == null) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.NoDuration", label));
      return null;
    }
    if (undefinedVariable(label, text, problems)) {
      return null;
    }
    try {
      long millis = DurationText.parseMillis(text);
      if (millis < 0) {
        problems.add(BaseMessages.getString(PKG, "Settings.Problem.DurationNegative", label, text));
        return null;
      }
      return millis;
    } catch (IllegalArgumentException | ArithmeticException e) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.Setting", label, e.getMessage()));
      return null;
    }
  }

  /** The index of a field in the input, or -1 with a problem that lists the fields there are. */
  public static int fieldIndex(String label, String field, IRowMeta input, List<String> problems) {
    if (field == null) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.NoField", label));
      return -1;
    }
    if (undefinedVariable(label, field, problems)) {
      return -1;
    }
    if (input == null) {
      return -1;
    }
    int index = input.indexOfValue(field);
    if (index < 0) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.FieldNotInInput", label, field,
          String.join(", ", input.getFieldNames())));
    }
    return index;
  }

  /**
   * Adds a problem, and returns true, when a resolved setting still holds a {@code ${NAME}} that
   * no variable defines (Hop leaves such a reference as it is), so that the user is told which
   * variable to define rather than that the value is malformed.
   */
  public static boolean undefinedVariable(String label, String resolved, List<String> problems) {
    Matcher m = UNDEFINED_VARIABLE.matcher(resolved == null ? "" : resolved);
    if (!m.find()) {
      return false;
    }
    problems.add(BaseMessages.getString(PKG, "Settings.Problem.UndefinedVariable", label, m.group()));
    return true;
  }

  private static final Pattern UNDEFINED_VARIABLE = Pattern.compile("\\$\\{[^}]*}");

  /**
   * Adds a problem when the transform is set to run in more than one copy; {@code why} says
   * what the copies would do (check() and the run refuse with the same words).
   */
  public static void requireOneCopy(TransformMeta transformMeta, IVariables variables, String why,
      List<String> problems) {
    int copies = transformMeta.getCopies(variables);
    if (copies > 1) {
      problems.add(BaseMessages.getString(PKG, "Settings.Problem.Copies", copies, why));
    }
  }

  /**
   * The layout of the rows coming into the transform, as the pipeline's design gives it, for
   * checking the fields at init() before any row is written anywhere; null when the design
   * cannot tell (the fields are then checked against the first row).
   */
  public static IRowMeta previousLayout(BaseTransform<?, ?> transform) {
    try {
      IRowMeta layout = transform.getPipelineMeta().getPrevTransformFields(transform, transform.getTransformMeta());
      return layout == null || layout.isEmpty() ? null : layout;
    } catch (HopException | RuntimeException e) {
      return null;
    }
  }

  /** Adds a problem for each output name given more than once, by the core's rule ({@link OutputNames}). */
  public static void requireDistinct(Collection<String> outputNames, List<String> problems) {
    OutputNames.clashes(new ArrayList<>(outputNames)).forEach(p -> problems.add("Output fields: " + p.message()));
  }

  /** Check results for the designer: one error per problem, or one OK. */
  public static void report(List<ICheckResult> remarks, TransformMeta transformMeta, List<String> problems,
      String okMessage) {
    if (problems.isEmpty()) {
      remarks.add(new CheckResult(ICheckResult.TYPE_RESULT_OK, okMessage, transformMeta));
    }
    for (String p : problems) {
      remarks.add(new CheckResult(ICheckResult.TYPE_RESULT_ERROR, p, transformMeta));
    }
  }

  /** Why a transform refuses to run: the problems, one a line. */
  public static String refusal(String transformName, List<String> problems) {
    return BaseMessages.getString(PKG, "Settings.Refusal", transformName, String.join("\n  - ", problems));
  }

  public static List<String> problems() {
    return new ArrayList<>();
  }

  /**
   * For a transform's init(): the settings {@code resolve} gives, or null after the refusal,
   * naming the transform and each problem {@code resolve} added, is logged.
   */
  public static <S> S resolvedAtInit(BaseTransform<?, ?> transform, Function<List<String>, S> resolve) {
    List<String> problems = problems();
    S settings = resolve.apply(problems);
    if (!problems.isEmpty() || settings == null) {
      transform.logError(refusal(transform.getTransformName(), problems));
      return null;
    }
    return settings;
  }

  /** For a transform's first row: the settings {@code resolve} gives, or the refusal as an exception. */
  public static <S> S resolvedOrRefused(String transformName, Function<List<String>, S> resolve)
      throws HopException {
    List<String> problems = problems();
    S settings = resolve.apply(problems);
    if (!problems.isEmpty()) {
      throw new HopException(refusal(transformName, problems));
    }
    return settings;
  }
}
