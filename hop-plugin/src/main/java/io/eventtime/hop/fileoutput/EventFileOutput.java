package io.eventtime.hop.fileoutput;

import io.eventtime.hop.CommittedFile;
import io.eventtime.hop.Engines;
import io.eventtime.hop.Settings;
import io.eventtime.hop.SharedState;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.apache.commons.vfs2.FileObject;
import org.apache.hop.core.IRowSet;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Writes each row to an NDJSON or CSV file as it comes, and passes it on. The file is flushed
 * whenever no more rows are waiting, so that the rows of a live stream reach it without delay.
 * Directly downstream of an Event Time Window with a partition field and a state folder, the
 * file is committed with the window's state ({@link CommittedFile}): a restart cuts it back to
 * the committed length and appends after it, so each window row is in it once.
 */
public class EventFileOutput extends BaseTransform<EventFileOutputMeta, EventFileOutputData>
    implements CommittedFile {
  private static final Class<?> PKG = EventFileOutputMeta.class;
  /** How long a stop waits for the window upstream to send its last rows. */
  private static final long STOP_WAIT_SECONDS = 15;


  public EventFileOutput(TransformMeta transformMeta, EventFileOutputMeta meta, EventFileOutputData data,
      int copyNr, PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  @Override
  public boolean init() {
    if (!super.init() || !Engines.supportedAtInit(this, data, ON_HOPS_BEAM_ENGINES)) {
      return false;
    }
    // the fields too where the design tells them: nothing is opened before all is checked
    IRowMeta layout = Settings.previousLayout(this);
    EventFileOutputMeta.OutputSettings resolved = Settings.resolvedAtInit(this, problems -> {
      Settings.requireOneCopy(getTransformMeta(), this, EventFileOutputMeta.copies(), problems);
      return meta.resolve(this, layout, problems);
    });
    if (resolved == null) {
      return false;
    }
    data.path = localPath(resolved.filename());
    return true;
  }

  /** The absolute path of a local file, as a state names it; null for a file of another file system. */
  private String localPath(String name) {
    try {
      FileObject file = HopVfs.getFileObject(name, this);
      return "file".equals(file.getName().getScheme())
          ? Path.of(file.getName().getPath()).toAbsolutePath().normalize().toString() : null;
    } catch (HopException e) {
      return null;
    }
  }

  /** What would go wrong on Hop's own Beam engines, for the refusal. */
  private static final String ON_HOPS_BEAM_ENGINES =
      BaseMessages.getString(PKG, "EventFileOutput.Problem.OnHopsBeamEngines");

  @Override
  public boolean processRow() throws HopException {
    Engines.refuseHopsOwnBeamEngines(this, data, ON_HOPS_BEAM_ENGINES);
    Object[] row = getRow();
    synchronized (data.ledger) {
      if (first) {
        first = false;
        // with no rows at all the file is still written: empty, or with only the CSV header
        open(row == null ? previousLayout() : getInputRowMeta());
      }
      if (row == null) {
        if (data.committer != null && isStopped()) {
          return false; // dispose() writes what the window sent
        }
        end();
        setOutputDone();
        return false;
      }
      write(row);
    }
    putRow(getInputRowMeta(), row);
    return true;
  }

  private void write(Object[] row) throws HopException {
    try {
      data.writer.write(row);
      incrementLinesOutput();
      data.written++;
      if (noRowsWaiting()) {
        data.writer.flush();
      }
    } catch (IOException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.CannotWrite", data.settings.filename(),
          e.getMessage()), e);
    }
    if (data.committer != null) {
      data.ledger.notifyAll();
    }
  }

  /**
   * On a stop, writes the rows the window sent before it took its last state (those waiting in
   * the hop), so that the state stored at the stop holds them: once the window says it sent its
   * last row, or after a while.
   */
  private void writeWhatTheWindowSent() throws HopException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS);
    boolean last = false;
    while (true) {
      last = data.committer.emittingDone() || System.nanoTime() > deadline;
      for (IRowSet rows : getInputRowSets()) {
        for (Object[] row; (row = rows.getRowImmediate()) != null; ) {
          write(row);
        }
      }
      if (last) {
        return;
      }
      try {
        data.ledger.wait(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public String committedPath() {
    return data.path;
  }

  @Override
  public void commitWith(SharedState window) {
    data.committer = window;
  }

  @Override
  public long lengthAfter(long rows) {
    synchronized (data.ledger) {
      while (data.written < rows && !data.ended) {
        try {
          data.ledger.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return -1;
        }
      }
      if (data.written != rows) {
        return -1;
      }
      Path file = Path.of(data.path);
      try {
        if (data.writer != null) {
          data.writer.flush();
        } else if (!data.ended && !appends()) {
          return 0; // not opened yet: it starts the file when it opens
        }
        if (!Files.exists(file)) {
          return 0;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
          channel.force(true);
          return channel.size();
        }
      } catch (IOException e) {
        logError(BaseMessages.getString(PKG, "EventFileOutput.Problem.CannotWrite", data.path, e.getMessage()));
        return -1;
      }
    }
  }

  /** Whether the file is appended to: as set, or after the bytes a stored state holds as written. */
  private boolean appends() {
    return meta.isAppend() || data.committer != null && data.committer.committedLength(data.path) != null;
  }

  private void end() throws HopException {
    try {
      close();
    } finally {
      data.ended = true;
      data.ledger.notifyAll();
    }
  }

  private IRowMeta previousLayout() throws HopException {
    IRowMeta layout = getPipelineMeta().getPrevTransformFields(this, getTransformMeta());
    return layout == null ? new RowMeta() : layout;
  }

  private void open(IRowMeta input) throws HopException {
    data.settings = Settings.resolvedOrRefused(getTransformName(), problems -> meta.resolve(this, input, problems));
    String name = data.settings.filename();
    if (data.committer != null && data.path == null) {
      throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.NotLocal", name));
    }
    try {
      FileObject file = HopVfs.getFileObject(name, this);
      if (file.isFolder()) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.IsFolder", name));
      }
      if (meta.isCreateParentFolder() && file.getParent() != null && !file.getParent().exists()) {
        file.getParent().createFolder();
      }
      boolean append = appends();
      boolean writeHeader = meta.isCsvHeader() && !(append && file.exists() && file.getContent().getSize() > 0);
      OutputStream stream = outputStream(file, append);
      data.writer = new EventFileWriter(stream, input, data.settings.columns(), data.settings.csv(),
          data.settings.delimiter(), data.settings.csv() && writeHeader);
    } catch (IOException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.CannotOpen", name, e.getMessage()), e);
    }
  }

  /**
   * Hop's VFS replaces an existing file by deleting it first: a device or a named pipe
   * (/dev/stdout, a FIFO) would be deleted and a plain file made in its place, so a local file
   * that is neither a regular file nor a folder is written to as it is.
   */
  private static OutputStream outputStream(FileObject file, boolean append) throws IOException {
    if ("file".equals(file.getName().getScheme())) {
      Path path = Path.of(file.getName().getPath());
      if (Files.exists(path) && !Files.isRegularFile(path) && !Files.isDirectory(path)) {
        return new FileOutputStream(path.toFile(), append);
      }
    }
    return HopVfs.getOutputStream(file, append);
  }

  private boolean noRowsWaiting() {
    for (IRowSet rowSet : getInputRowSets()) {
      if (rowSet.size() > 0) {
        return false;
      }
    }
    return true;
  }

  private void close() throws HopException {
    if (data.writer != null) {
      try {
        data.writer.close();
      } catch (IOException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.CannotClose",
            data.settings.filename(), e.getMessage()), e);
      } finally {
        data.writer = null;
      }
    }
  }

  @Override
  public void dispose() {
    synchronized (data.ledger) {
      try {
        if (data.committer != null && isStopped() && !data.ended) {
          if (first) {
            first = false;
            open(previousLayout());
          }
          writeWhatTheWindowSent();
        }
        end();
      } catch (HopException e) {
        logError(e.getMessage());
      }
    }
    super.dispose();
  }
}
