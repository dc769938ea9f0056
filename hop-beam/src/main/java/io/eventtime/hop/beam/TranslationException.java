package io.eventtime.hop.beam;

import java.util.List;
import org.apache.hop.core.exception.HopException;

/**
 * A Hop pipeline that cannot run on Beam, refused before anything runs: each problem names the
 * transform and says what to do.
 */
public class TranslationException extends HopException {
  private final List<String> problems;

  public TranslationException(String pipelineName, List<String> problems) {
    super("The pipeline '" + pipelineName + "' cannot run on Beam:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
