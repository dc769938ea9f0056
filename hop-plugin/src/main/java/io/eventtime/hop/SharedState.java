package io.eventtime.hop;

import io.eventtime.core.OpenState;
import java.util.Map;

/**
 * An Event Time Window whose state folder is shared with the transforms around it (design
 * docs/design/live-streams.md 4.2): Event Kafka Input upstream starts each partition at the next
 * offset the state holds, a followed Event File Input upstream goes on at the stored file, line
 * and byte, and each Event File Output directly downstream registers its file, whose
 * committed length the window stores with every commit.
 *
 * <pre>{@code
 * // Event Kafka Input, on its first row:
 * Map<Integer, Long> next = window.storedNextOffsets(); // partition -> offset to read next
 * // Event File Input following its files, on its first row:
 * OpenState.FileLine at = window.storedFollowPosition(); // null: from the start
 * // Event File Output, when it opens its file:
 * Long kept = window.committedLength(path); // append after it, or null to start the file
 * }</pre>
 */
public interface SharedState {
  /** Whether this run records each partition's position and commits it (a partition field and a state folder). */
  boolean keepsPositions();

  /** How many partitions the window has (its Partitions setting). */
  int partitionCount();

  /** The next offset of each partition the stored state holds a position for; empty before the first commit. */
  Map<Integer, Long> storedNextOffsets();

  /** The length of {@code path} the stored state holds as written, or null when it holds none for it. */
  Long committedLength(String path);

  /**
   * Where the followed files go on (the file, next line and its byte) as the stored state holds
   * it, after an Event File Input that follows its files; null before the first commit.
   */
  OpenState.FileLine storedFollowPosition();

  /** Whether the window has sent its last row of this run (its final state is taken). */
  boolean emittingDone();
}
