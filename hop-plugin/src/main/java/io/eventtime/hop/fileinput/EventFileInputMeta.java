package io.eventtime.hop.fileinput;

import io.eventtime.core.state.StateSource;
import io.eventtime.hop.Documentation;
import io.eventtime.hop.PipelineGraph;
import io.eventtime.hop.Settings;
import io.eventtime.hop.window.EventTimeWindowMeta;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.vfs2.FileObject;
import org.apache.commons.vfs2.FileSystemException;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.exception.HopTransformException;
import org.apache.hop.core.fileinput.FileInputList;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.vfs.HopVfs;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The settings of the Event File Input transform: the files (read in name order), their format
 * (NDJSON or CSV), the fields and their types, and optional fields for the file name and line
 * number of each row.
 */
@Transform(
    id = "EventFileInput",
    image = "io/eventtime/hop/fileinput/event-file-input.svg",
    name = "i18n::EventFileInput.Name",
    description = "i18n::EventFileInput.Description",
    categoryDescription = "i18n::EventTime.Category",
    keywords = "i18n::EventFileInput.Keywords",
    documentationUrl = Documentation.PAGES + "event-file-input.md")
public class EventFileInputMeta extends BaseTransformMeta<EventFileInput, EventFileInputData> {
  private static final Class<?> PKG = EventFileInputMeta.class;

  /** What copies would do, for the check and the run's refusal. */
  static String copies() {
    return BaseMessages.getString(PKG, "EventFileInputMeta.Problem.Copies");
  }

  @HopMetadataProperty(
      groupKey = "files",
      key = "file",
      injectionGroupKey = "FILES",
      injectionGroupDescription = "EventFileInputMeta.Injection.FILES")
  private List<InputFile> files;

  /** ndjson or csv. */
  @HopMetadataProperty(
      key = "format",
      injectionKey = "FORMAT",
      injectionKeyDescription = "EventFileInputMeta.Injection.FORMAT")
  private String format;

  @HopMetadataProperty(
      key = "csv_delimiter",
      injectionKey = "CSV_DELIMITER",
      injectionKeyDescription = "EventFileInputMeta.Injection.CSV_DELIMITER")
  private String csvDelimiter;

  @HopMetadataProperty(
      key = "csv_header",
      injectionKey = "CSV_HEADER",
      injectionKeyDescription = "EventFileInputMeta.Injection.CSV_HEADER")
  private boolean csvHeader;

  @HopMetadataProperty(
      groupKey = "fields",
      key = "field",
      injectionGroupKey = "FIELDS",
      injectionGroupDescription = "EventFileInputMeta.Injection.FIELDS")
  private List<InputField> fields;

  /** The zone of date-time text written without one. */
  @HopMetadataProperty(
      key = "time_zone",
      injectionKey = "TIME_ZONE",
      injectionKeyDescription = "EventFileInputMeta.Injection.TIME_ZONE")
  private String timeZone;

  @HopMetadataProperty(
      key = "filename_field",
      injectionKey = "FILENAME_FIELD",
      injectionKeyDescription = "EventFileInputMeta.Injection.FILENAME_FIELD")
  private String filenameField;

  @HopMetadataProperty(
      key = "line_number_field",
      injectionKey = "LINE_NUMBER_FIELD",
      injectionKeyDescription = "EventFileInputMeta.Injection.LINE_NUMBER_FIELD")
  private String lineNumberField;

  /**
   * Follow the files, as {@code tail -f}: after the files there are, read on as lines are
   * appended to the last one and as new files land (in name order), until the pipeline is stopped.
   */
  @HopMetadataProperty(
      key = "follow",
      injectionKey = "FOLLOW",
      injectionKeyDescription = "EventFileInputMeta.Injection.FOLLOW")
  private boolean follow;

  /** With follow: end the input once no new line has come for this long (e.g. 30 SECOND); blank: until stopped. */
  @HopMetadataProperty(
      key = "follow_idle_stop",
      injectionKey = "FOLLOW_IDLE_STOP",
      injectionKeyDescription = "EventFileInputMeta.Injection.FOLLOW_IDLE_STOP")
  private String followIdleStop;

  public EventFileInputMeta() {
    files = new ArrayList<>();
    fields = new ArrayList<>();
  }

  @Override
  public void setDefault() {
    files = new ArrayList<>();
    format = "ndjson";
    csvDelimiter = ",";
    csvHeader = true;
    fields = new ArrayList<>();
    timeZone = "UTC";
    filenameField = null;
    lineNumberField = null;
    follow = false;
    followIdleStop = null;
  }

  @Override
  public EventFileInputMeta clone() {
    EventFileInputMeta copy = (EventFileInputMeta) super.clone();
    copy.files = new ArrayList<>();
    files.forEach(f -> copy.files.add(new InputFile(f)));
    copy.fields = new ArrayList<>();
    fields.forEach(f -> copy.fields.add(new InputField(f)));
    return copy;
  }

  /**
   * The files to read, in arrival order: every listed file and every file of a listed folder
   * that matches its mask, sorted by path (name order within a folder). A listed file or folder
   * that does not exist is an error.
   */
  public List<FileObject> listFiles(IVariables variables) throws HopException {
    return listFiles(variables, "Y");
  }

  /** The listed files; {@code required} Y: every entry must have a file, N: a folder may have none. */
  private List<FileObject> listFiles(IVariables variables, String required) throws HopException {
    int n = files.size();
    String[] names = new String[n];
    String[] masks = new String[n];
    String[] excludes = new String[n];
    String[] requiredFiles = new String[n];
    for (int i = 0; i < n; i++) {
      names[i] = files.get(i).getName();
      masks[i] = files.get(i).getMask();
      requiredFiles[i] = required;
    }
    FileInputList list = FileInputList.createFileList(variables, names, masks, excludes, requiredFiles);
    if (!list.getNonExistentFiles().isEmpty() || !list.getNonAccessibleFiles().isEmpty()) {
      List<FileObject> missing = new ArrayList<>(list.getNonExistentFiles());
      missing.addAll(list.getNonAccessibleFiles());
      throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.CannotRead",
          FileInputList.getRequiredFilesDescription(missing).trim()));
    }
    List<FileObject> found = new ArrayList<>(list.getFiles());
    found.sort(Comparator.comparing(f -> f.getName().getPath()));
    return found;
  }

  /**
   * The files to follow, as {@link #listFiles} lists them now (any order: they are followed in
   * name order), a folder with none yet included; each listed file and folder must exist, and be
   * local: follow mode reads local files only.
   */
  public List<Path> followedFiles(IVariables variables) throws HopException {
    for (InputFile entry : files) {
      String name = Settings.resolve(variables, entry.getName());
      if (name == null) {
        continue;
      }
      FileObject listed = HopVfs.getFileObject(name, variables);
      if (!"file".equals(listed.getName().getScheme())) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowNotLocal", name));
      }
      try {
        if (!listed.exists()) {
          throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.CannotRead", name));
        }
      } catch (FileSystemException e) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.CannotRead", name), e);
      }
    }
    List<Path> paths = new ArrayList<>();
    for (FileObject f : listFiles(variables, "N")) {
      if (!"file".equals(f.getName().getScheme())) {
        throw new HopException(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowNotLocal",
            HopVfs.getFilename(f)));
      }
      paths.add(Path.of(HopVfs.getFilename(f)));
    }
    return paths;
  }

  /**
   * The Event Time Windows after this input that keep a state folder: a followed run with one goes
   * on next time where this one stopped; without one, no run does.
   */
  static List<String> windowsWithAState(PipelineMeta pipelineMeta, TransformMeta transformMeta, IVariables variables) {
    return PipelineGraph.downstream(pipelineMeta, transformMeta).stream()
        .filter(t -> t.getTransform() instanceof EventTimeWindowMeta w
            && Settings.resolve(variables, w.getStateFolder()) != null)
        .map(TransformMeta::getName).toList();
  }

  /**
   * Follow mode with a state folder on an Event Time Window after this transform: the window's
   * state stores where the following goes on (the file and line of the last row it took in), so
   * there must be one such window, the rows must carry their file and line (File name field and
   * Line number field), and the files must be NDJSON (a CSV record may span lines, and a CSV
   * file's header is at its start, before the position).
   */
  public void checkStateAfterFollow(PipelineMeta pipelineMeta, TransformMeta transformMeta, IVariables variables,
      List<String> problems) {
    if (!follow || pipelineMeta == null) {
      return;
    }
    List<String> windows = windowsWithAState(pipelineMeta, transformMeta, variables);
    if (windows.size() > 1) {
      problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowTwoStates", String.join(", ", windows)));
    } else if (windows.size() == 1) {
      if (Settings.resolve(variables, filenameField) == null || Settings.resolve(variables, lineNumberField) == null) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowStateNeedsFields", windows.get(0)));
      }
      if ("csv".equalsIgnoreCase(Settings.resolve(variables, format))) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowStateCsv", windows.get(0)));
      }
    }
  }

  /**
   * What follow mode reads, stored with a window's state so that a state written for other files
   * is refused: the listed files and folders, with their masks.
   */
  public StateSource followedSource(IVariables variables) {
    List<String> listed = new ArrayList<>();
    for (InputFile entry : files) {
      String name = Settings.resolve(variables, entry.getName());
      String mask = Settings.resolve(variables, entry.getMask());
      if (name != null) {
        listed.add(mask == null ? name : name + " matching " + mask);
      }
    }
    return StateSource.of("files", "from", String.join(", ", listed));
  }

  /** Why Hop on Beam cannot run follow mode, for its refusal. */
  public static String followOnBeam() {
    return BaseMessages.getString(PKG, "EventFileInputMeta.Problem.FollowOnBeam");
  }

  /** The settings resolved against variables, or null with the problems. */
  public InputSettings resolve(IVariables variables, List<String> problems) {
    return InputSettings.resolve(this, variables, problems);
  }

  @Override
  public void getFields(IRowMeta rowMeta, String origin, IRowMeta[] info, TransformMeta nextTransform,
      IVariables variables, IHopMetadataProvider metadataProvider) throws HopTransformException {
    IRowMeta layout = InputSettings.layout(this, variables);
    layout.getValueMetaList().forEach(v -> v.setOrigin(origin));
    rowMeta.clear();
    rowMeta.addRowMeta(layout);
  }

  @Override
  public void check(List<ICheckResult> remarks, PipelineMeta pipelineMeta, TransformMeta transformMeta,
      IRowMeta prev, String[] input, String[] output, IRowMeta info, IVariables variables,
      IHopMetadataProvider metadataProvider) {
    List<String> problems = Settings.problems();
    if (input.length > 0) {
      problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.Input"));
    }
    resolve(variables, problems);
    Settings.requireOneCopy(transformMeta, variables, copies(), problems);
    checkStateAfterFollow(pipelineMeta, transformMeta, variables, problems);
    if (problems.isEmpty()) {
      try {
        if (follow) {
          followedFiles(variables); // local files only; a followed folder may be empty at first
        } else if (listFiles(variables).isEmpty()) {
          problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.NoFileMatches"));
        }
      } catch (HopException e) {
        problems.add(e.getMessage().strip());
      }
    }
    Settings.report(remarks, transformMeta, problems, BaseMessages.getString(PKG, "EventFileInput.CheckResult.OK"));
  }

  @Override
  public boolean supportsErrorHandling() {
    return true;
  }

  /** One copy reads the files in arrival order; more copies would read them again. */
  @Override
  public boolean supportsMultiCopyExecution() {
    return false;
  }

  public List<InputFile> getFiles() {
    return files;
  }

  public void setFiles(List<InputFile> files) {
    this.files = files;
  }

  public String getFormat() {
    return format;
  }

  public void setFormat(String format) {
    this.format = format;
  }

  public String getCsvDelimiter() {
    return csvDelimiter;
  }

  public void setCsvDelimiter(String csvDelimiter) {
    this.csvDelimiter = csvDelimiter;
  }

  public boolean isCsvHeader() {
    return csvHeader;
  }

  public void setCsvHeader(boolean csvHeader) {
    this.csvHeader = csvHeader;
  }

  public List<InputField> getFields() {
    return fields;
  }

  public void setFields(List<InputField> fields) {
    this.fields = fields;
  }

  public String getTimeZone() {
    return timeZone;
  }

  public void setTimeZone(String timeZone) {
    this.timeZone = timeZone;
  }

  public String getFilenameField() {
    return filenameField;
  }

  public void setFilenameField(String filenameField) {
    this.filenameField = filenameField;
  }

  public boolean isFollow() {
    return follow;
  }

  public void setFollow(boolean follow) {
    this.follow = follow;
  }

  public String getFollowIdleStop() {
    return followIdleStop;
  }

  public void setFollowIdleStop(String followIdleStop) {
    this.followIdleStop = followIdleStop;
  }

  public String getLineNumberField() {
    return lineNumberField;
  }

  public void setLineNumberField(String lineNumberField) {
    this.lineNumberField = lineNumberField;
  }
}
