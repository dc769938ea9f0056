package io.eventtime.hop;

/**
 * Where the transforms' pages are: the Help button of each transform's dialog opens its page
 * (the {@code documentationUrl} of its {@code @Transform}).
 */
public final class Documentation {
  /** The folder docs/hop/ of the project's repository. */
  public static final String PAGES = "https://github.com/eventtime/eventtime/blob/main/docs/hop/";

  private Documentation() {}
}
