package io.eventtime.core.bind;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What {@link QueryBinder} found: the bound query when there is no problem, else every problem.
 * The {@link #draft()} is there either way, for a designer that shows the window rows' layout
 * while the settings are still wrong.
 */
public record Binding(BoundQuery draft, List<BindProblem> problems) {
  public Binding {
    problems = List.copyOf(problems);
  }

  public boolean isBound() {
    return problems.isEmpty();
  }

  /** The bound query; only when there is no problem. */
  public BoundQuery bound() {
    if (!isBound()) {
      throw new IllegalStateException("the query did not bind: " + message());
    }
    return draft;
  }

  /** The bound query, or an {@link IllegalArgumentException} whose message holds every problem, one a line. */
  public BoundQuery orElseThrow() {
    if (!isBound()) {
      throw new IllegalArgumentException(message());
    }
    return draft;
  }

  /** The problems' messages, one a line. */
  public String message() {
    return problems.stream().map(BindProblem::message).collect(Collectors.joining("\n"));
  }
}
