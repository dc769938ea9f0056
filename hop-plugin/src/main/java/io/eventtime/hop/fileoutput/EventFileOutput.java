package io.eventtime.hop.fileoutput;

import io.eventtime.hop.Engines;
import io.eventtime.hop.Settings;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public class EventFileOutput extends BaseTransform<EventFileOutputMeta, EventFileOutputData> {
  private static final Class<?> PKG = EventFileOutputMeta.class;


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
    return Settings.resolvedAtInit(this, problems -> {
      Settings.requireOneCopy(getTransformMeta(), this, EventFileOutputMeta.copies(), problems);
      return meta.resolve(this, layout, problems);
    }) != null;
  }

  /** What would go wrong on Hop's own Beam engines, for the refusal. */
  private static final String ON_HOPS_BEAM_ENGINES =
      BaseMessages.getString(PKG, "EventFileOutput.Problem.OnHopsBeamEngines");

  @Override
  public boolean processRow() throws HopException {
    Engines.refuseHopsOwnBeamEngines(this, data, ON_HOPS_BEAM_ENGINES);
    Object[] row = getRow();
    if (first) {
      first = false;
      // with no rows at all the file is still written: empty, or with only the CSV header
      open(row == null ? previousLayout() : getInputRowMeta());
    }
    if (row == null) {
      close();
      setOutputDone();
      return false;
    }
    try {
      data.writer.write(row);
      incrementLinesOutput();
      if (noRowsWaiting()) {
        data.writer.flush();
      }
    } catch (IOException e) {
      throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.CannotWrite", data.settings.filename(),
          e.getMessage()), e);
    }
    putRow(getInputRowMeta(), row);
    return true;
  }

  private IRowMeta previousLayout() throws HopException {
    IRowMeta layout = getPipelineMeta().getPrevTransformFields(this, getTransformMeta());
    return layout == null ? new RowMeta() : layout;
  }

  private void open(IRowMeta input) throws HopException {
    data.settings = Settings.resolvedOrRefused(getTransformName(), problems -> meta.resolve(this, input, problems));
    String name = data.settings.filename();
    try {
      FileObject file = HopVfs.getFileObject(name, this);
      if (file.isFolder()) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileOutput.Problem.IsFolder", name));
      }
      if (meta.isCreateParentFolder() && file.getParent() != null && !file.getParent().exists()) {
        file.getParent().createFolder();
      }
      boolean writeHeader = meta.isCsvHeader() && !(meta.isAppend() && file.exists() && file.getContent().getSize() > 0);
      OutputStream stream = outputStream(file, meta.isAppend());
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
    try {
      close();
    } catch (HopException e) {
      logError(e.getMessage());
    }
    super.dispose();
  }
}
