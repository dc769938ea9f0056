package io.eventtime.hop.fileinput;

import io.eventtime.core.OpenState;
import io.eventtime.core.follow.FollowedFiles;
import io.eventtime.hop.Engines;
import io.eventtime.hop.ErrorCodes;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.SharedState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.pipeline.Pipeline;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransform;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * Reads NDJSON or CSV files row by row in arrival order (file after file in name order, line
 * after line). A line that is not valid, or a value that is not of its field's type, goes to
 * error handling with the file, line, field and reason. In follow mode it reads on as the last
 * file grows and new files land, until the pipeline is stopped (or the idle stop), and then ends
 * its output, so that the transforms after it finish as at the end of a bounded input. With an
 * Event Time Window after it that has a state folder, it goes on where the window's state says
 * (the file, line and byte after the last row the window took in).
 */
public class EventFileInput extends BaseTransform<EventFileInputMeta, EventFileInputData> {
  private static final Class<?> PKG = EventFileInputMeta.class;

  public EventFileInput(TransformMeta transformMeta, EventFileInputMeta meta, EventFileInputData data,
      int copyNr, PipelineMeta pipelineMeta, Pipeline pipeline) {
    super(transformMeta, meta, data, copyNr, pipelineMeta, pipeline);
  }

  @Override
  public boolean init() {
    if (!super.init() || !Engines.supportedAtInit(this, data, ON_HOPS_BEAM_ENGINES)) {
      return false;
    }
    data.settings = Settings.resolvedAtInit(this, problems -> {
      Settings.requireOneCopy(getTransformMeta(), this, EventFileInputMeta.copies(), problems);
      meta.checkStateAfterFollow(getPipelineMeta(), getTransformMeta(), this, problems);
      return meta.resolve(this, problems);
    });
    if (data.settings == null) {
      return false;
    }
    try {
      data.reader = data.settings.follow ? EventFileReader.following(data.settings, data.followed = followedFiles())
          : new EventFileReader(data.settings, meta.listFiles(this));
    } catch (HopException e) {
      logError(Settings.refusal(getTransformName(), List.of(e.getMessage().strip())));
      return false;
    }
    data.outputRowMeta = data.settings.layout().clone();
    data.outputRowMeta.getValueMetaList().forEach(v -> v.setOrigin(getTransformName()));
    return true;
  }

  /**
   * Follow mode: the listed files and folders listed anew while it waits (the folders must exist
   * now), read until the pipeline is stopped or, with an idle stop, until no line has come for
   * that long.
   */
  private FollowedFiles followedFiles() throws HopException {
    int there = meta.followedFiles(this).size();
    logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.Following", String.valueOf(there)));
    FollowedFiles files = new FollowedFiles(() -> {
      try {
        return meta.followedFiles(this);
      } catch (HopException e) {
        throw new IOException(e.getMessage().strip(), e);
      }
    }, () -> isStopped() || isSafeStopped());
    if (data.settings.followIdleStopMillis > 0) {
      files.endWhenIdleFor(data.settings.followIdleStopMillis);
    }
    if (EventFileInputMeta.windowsWithAState(getPipelineMeta(), getTransformMeta(), this).isEmpty()) {
      // no run goes on from where this one stops: at the stop it reads what a run without follow would
      files.readToTheEndAtStop();
    }
    return files;
  }

  /**
   * With an Event Time Window downstream whose state holds where the following goes on (its init
   * has loaded it by now), the files are read from there: the files before it in name order are
   * not read again. A stored file that is gone or shorter is an error naming it.
   */
  private void goOnFromTheState() throws HopException {
    for (TransformMeta t : PipelineGraph.downstream(getPipelineMeta(), getTransformMeta())) {
      if (PipelineGraph.running(getPipeline(), t.getName()) instanceof SharedState window
          && window.storedFollowPosition() != null) {
        OpenState.FileLine at = window.storedFollowPosition();
        Path file = Path.of(at.file());
        long size;
        try {
          size = Files.size(file);
        } catch (IOException e) {
          throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.StoredFileGone", t.getName(),
              at.file(), String.valueOf(at.line()), String.valueOf(at.byteOffset())), e);
        }
        if (size < at.byteOffset()) {
          throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.StoredFileShorter",
              t.getName(), at.file(), String.valueOf(at.line()), String.valueOf(at.byteOffset()), String.valueOf(size)));
        }
        logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.FromState", t.getName(), at.file(),
            String.valueOf(at.line()), String.valueOf(at.byteOffset())));
        data.followed.resumeAt(file, at.line(), at.byteOffset());
        return;
      }
    }
  }

  /** What would go wrong on Hop's own Beam engines, for the refusal. */
  private static final String ON_HOPS_BEAM_ENGINES =
      BaseMessages.getString(PKG, "EventFileInput.Problem.OnHopsBeamEngines");

  /** The bytes the following left after its last whole line: read by a run that goes on from a state, else by none. */
  private void tellUnread() {
    FollowedFiles.Unread unread;
    try {
      unread = data.followed.unreadAtStop();
    } catch (IOException e) {
      return; // the file is gone: nothing is left to tell of
    }
    if (unread != null) {
      logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.NotRead", String.valueOf(unread.bytes()),
          unread.file().toString()));
    }
  }

  @Override
  public boolean processRow() throws HopException {
    Engines.refuseHopsOwnBeamEngines(this, data, ON_HOPS_BEAM_ENGINES);
    if (first) {
      first = false;
      if (data.followed != null) {
        goOnFromTheState();
      }
    }
    EventFileReader.Record record;
    try {
      record = data.reader.next();
    } catch (IOException | UncheckedIOException e) {
      throw new HopException(e.getMessage(), e); // a followed file that shrank, too: said once, naming it
    }
    if (record == null) {
      if (data.settings.follow) {
        logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.FollowEnded", getLinesInput()));
        tellUnread();
      }
      setOutputDone(); // in follow mode too: the transforms after it see the end of the input
      return false;
    }
    incrementLinesInput();
    if (!record.isRejected()) {
      putRow(data.outputRowMeta, record.values());
    } else if (getTransformMeta().isDoingErrorHandling()) {
      putError(data.outputRowMeta, record.values(), 1, record.error(),
          record.errorField() == null ? "" : record.errorField(), ErrorCodes.UNREADABLE);
    } else {
      incrementLinesRejected();
      logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.Rejected", record.error()));
    }
    if (checkFeedback(getLinesInput())) {
      logBasic(BaseMessages.getString(PKG, "EventFileInput.Log.Read", getLinesInput()));
    }
    return true;
  }

  @Override
  public void dispose() {
    if (data.reader != null) {
      try {
        data.reader.close();
      } catch (IOException e) {
        logError(BaseMessages.getString(PKG, "EventFileInput.Log.CloseFailed", e.getMessage()));
      }
    }
    super.dispose();
  }
}
