package io.eventtime.beam;

import io.eventtime.core.OpenState;
import io.eventtime.core.state.StateCodec;
import io.eventtime.core.state.StateException;
import io.eventtime.core.state.StateStore;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;

/**
 * A state kept in a directory of any Beam file system (HDFS, GCS, S3), in the file and format of
 * core's {@link StateStore}: read and checked when opened, replaced on commit by a temporary file
 * renamed over it. Nothing locks it; the rename is as atomic as the file system's (a copy and a
 * delete on object stores), and a commit cut off in between leaves the new state in its temporary
 * file, which is kept.
 */
final class FileSystemState implements EventTimeState.StoredState {
  private final ResourceId directory;
  private final ResourceId file;
  private final StateCodec codec;
  private byte[] current;

  private FileSystemState(ResourceId directory, StateCodec codec, byte[] current) {
    this.directory = directory;
    this.file = stateFile(directory);
    this.codec = codec;
    this.current = current;
  }

  /**
   * Opens the state in {@code directory}: refuses, before the run, a directory that cannot be
   * written, and a stored state that is damaged or written for another query.
   */
  static FileSystemState open(ResourceId directory, StateCodec codec) {
    ResourceId probe = temporary(directory);
    try {
      EventTimeState.write(probe, new byte[0]);
      FileSystems.delete(List.of(probe));
    } catch (IOException e) {
      throw new StateException("the state directory " + directory + " is not writable (" + e.getMessage()
          + "): the state of this run could not be saved there; make it writable, or give another state directory", e);
    }
    ResourceId file = stateFile(directory);
    byte[] current = null;
    try {
      if (!FileSystems.match(file.toString(), EmptyMatchTreatment.ALLOW).metadata().isEmpty()) {
        current = EventTimeState.read(file);
      }
    } catch (IOException e) {
      throw new StateException("cannot read the state file " + file + " (" + e.getMessage() + ")", e);
    }
    if (current != null) {
      codec.decode(current, file.toString()); // all refusals happen here, before the run starts
    }
    return new FileSystemState(directory, codec, current);
  }

  private static ResourceId stateFile(ResourceId directory) {
    return directory.resolve(StateStore.STATE_FILE, StandardResolveOptions.RESOLVE_FILE);
  }

  private static ResourceId temporary(ResourceId directory) {
    return directory.resolve(StateStore.STATE_FILE + "." + UUID.randomUUID() + ".tmp", StandardResolveOptions.RESOLVE_FILE);
  }

  @Override
  public OpenState load() {
    return current == null ? OpenState.empty() : codec.decode(current, file.toString());
  }

  @Override
  public void commit(OpenState next) {
    byte[] bytes = codec.encode(next);
    ResourceId temp = temporary(directory);
    try {
      EventTimeState.write(temp, bytes);
      FileSystems.rename(List.of(temp), List.of(file));
    } catch (IOException e) {
      EventTimeState.deleteQuietly(List.of(temp));
      throw new StateException("cannot replace the state " + file + " (" + e.getMessage()
          + "): the stored state is kept as it was", e);
    }
    current = bytes;
  }

  @Override
  public void close() {}
}
