package io.eventtime.cli.source;

import io.eventtime.core.OpenState;

/**
 * A source that {@code LocalRunner.runLive} reads as it comes, in partitions of the contract,
 * storing where each partition goes on with the state (design 4.2): a Kafka topic
 * ({@link KafkaSource}, a partition per Kafka partition, offsets) or followed files
 * ({@link FollowSource}, one partition, a file, line and byte).
 */
public interface LiveFeed extends LineFeed {
  /** How many partitions: 0 to this less one. */
  int partitions();

  /** Where each partition starts in this run (null for one whose start the source does not say). */
  OpenState.Position[] startPositions();

  /** Where partition {@code partition} goes on after its line {@code line} of {@code source}, ending at {@code byteEnd}. */
  OpenState.Position positionAfter(int partition, String source, long line, long byteEnd);

  /**
   * Whether late and rejected rows are named by partition and offset (Kafka), not by file and
   * line (followed files, named as a bounded run over the same files names them).
   */
  boolean namedByPartition();
}
