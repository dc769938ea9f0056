package io.eventtime.hop.fileoutput;

import io.eventtime.hop.Documentation;
import io.eventtime.hop.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hop.core.ICheckResult;
import org.apache.hop.core.annotations.Transform;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;

/**
 * The settings of the Event File Output transform: the file, its format (NDJSON or CSV) and the
 * fields to write (all of them when none are listed). Rows pass on unchanged.
 */
@Transform(
    id = "EventFileOutput",
    image = "io/eventtime/hop/fileoutput/event-file-output.svg",
    name = "i18n::EventFileOutput.Name",
    description = "i18n::EventFileOutput.Description",
    categoryDescription = "i18n::EventTime.Category",
    keywords = "i18n::EventFileOutput.Keywords",
    documentationUrl = Documentation.PAGES + "event-file-output.md")
public class EventFileOutputMeta extends BaseTransformMeta<EventFileOutput, EventFileOutputData> {
  private static final Class<?> PKG = EventFileOutputMeta.class;

  /** What copies would do, for the check and the run's refusal. */
  static String copies() {
    return BaseMessages.getString(PKG, "EventFileOutputMeta.Problem.Copies");
  }

  public static final String[] FORMATS = {"ndjson", "csv"};

  @HopMetadataProperty(
      key = "filename",
      injectionKey = "FILENAME",
      injectionKeyDescription = "EventFileOutputMeta.Injection.FILENAME")
  private String filename;

  /** ndjson or csv. */
  @HopMetadataProperty(
      key = "format",
      injectionKey = "FORMAT",
      injectionKeyDescription = "EventFileOutputMeta.Injection.FORMAT")
  private String format;

  @HopMetadataProperty(
      key = "csv_delimiter",
      injectionKey = "CSV_DELIMITER",
      injectionKeyDescription = "EventFileOutputMeta.Injection.CSV_DELIMITER")
  private String csvDelimiter;

  @HopMetadataProperty(
      key = "csv_header",
      injectionKey = "CSV_HEADER",
      injectionKeyDescription = "EventFileOutputMeta.Injection.CSV_HEADER")
  private boolean csvHeader;

  @HopMetadataProperty(
      key = "append",
      injectionKey = "APPEND",
      injectionKeyDescription = "EventFileOutputMeta.Injection.APPEND")
  private boolean append;

  @HopMetadataProperty(
      key = "create_parent_folder",
      injectionKey = "CREATE_PARENT_FOLDER",
      injectionKeyDescription = "EventFileOutputMeta.Injection.CREATE_PARENT_FOLDER")
  private boolean createParentFolder;

  @HopMetadataProperty(
      groupKey = "fields",
      key = "field",
      injectionGroupKey = "FIELDS",
      injectionGroupDescription = "EventFileOutputMeta.Injection.FIELDS")
  private List<OutputField> fields;

  public EventFileOutputMeta() {
    fields = new ArrayList<>();
  }

  @Override
  public void setDefault() {
    filename = null;
    format = "ndjson";
    csvDelimiter = ",";
    csvHeader = true;
    append = false;
    createParentFolder = true;
    fields = new ArrayList<>();
  }

  @Override
  public EventFileOutputMeta clone() {
    EventFileOutputMeta copy = (EventFileOutputMeta) super.clone();
    copy.fields = new ArrayList<>();
    fields.forEach(f -> copy.fields.add(new OutputField(f)));
    return copy;
  }

  /** What a run needs: the file, the format, and the input columns to write. */
  public record OutputSettings(String filename, boolean csv, char delimiter, int[] columns) {}

  /** The settings resolved against variables and the input, or null with the problems. */
  public OutputSettings resolve(IVariables variables, IRowMeta input, List<String> problems) {
    int before = problems.size();
    String file = Settings.resolve(variables, filename);
    if (file == null) {
      problems.add(BaseMessages.getString(PKG, "EventFileOutputMeta.Problem.NoFilename"));
    } else {
      Settings.undefinedVariable(BaseMessages.getString(PKG, "EventFileOutputMeta.Setting.Filename"), file, problems);
    }
    String resolvedFormat = Settings.resolve(variables, format);
    String f = resolvedFormat == null ? "ndjson" : resolvedFormat.toLowerCase(Locale.ROOT);
    if (!f.equals("ndjson") && !f.equals("csv") && !Settings.undefinedVariable(
        BaseMessages.getString(PKG, "EventFileOutputMeta.Setting.Format"), resolvedFormat, problems)) {
      problems.add(BaseMessages.getString(PKG, "EventFileOutputMeta.Problem.UnknownFormat", format));
    }
    char delimiter = ',';
    String d = variables == null ? csvDelimiter : variables.resolve(csvDelimiter);
    if (f.equals("csv") && d != null && !d.isEmpty()) {
      d = d.equals("\\t") ? "\t" : d;
      if (d.length() != 1) {
        problems.add(BaseMessages.getString(PKG, "EventFileOutputMeta.Problem.Delimiter", csvDelimiter));
      } else {
        delimiter = d.charAt(0);
      }
    }
    int[] columns = new int[0];
    if (input != null) {
      if (fields.isEmpty()) {
        columns = new int[input.size()];
        for (int i = 0; i < columns.length; i++) {
          columns[i] = i;
        }
      } else {
        columns = new int[fields.size()];
        for (int i = 0; i < columns.length; i++) {
          columns[i] = Settings.fieldIndex(BaseMessages.getString(PKG, "EventFileOutputMeta.Setting.Field", i + 1),
              Settings.resolve(variables, fields.get(i).getName()), input, problems);
        }
      }
    }
    return problems.size() > before ? null : new OutputSettings(file, f.equals("csv"), delimiter, columns);
  }

  @Override
  public void check(List<ICheckResult> remarks, PipelineMeta pipelineMeta, TransformMeta transformMeta,
      IRowMeta prev, String[] input, String[] output, IRowMeta info, IVariables variables,
      IHopMetadataProvider metadataProvider) {
    List<String> problems = Settings.problems();
    if (input.length == 0) {
      problems.add(BaseMessages.getString(PKG, "EventFileOutputMeta.Problem.NoInput"));
    }
    resolve(variables, prev == null || prev.isEmpty() ? null : prev, problems);
    Settings.requireOneCopy(transformMeta, variables, copies(), problems);
    Settings.report(remarks, transformMeta, problems, BaseMessages.getString(PKG, "EventFileOutput.CheckResult.OK"));
  }

  public String getFilename() {
    return filename;
  }

  public void setFilename(String filename) {
    this.filename = filename;
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

  public boolean isAppend() {
    return append;
  }

  public void setAppend(boolean append) {
    this.append = append;
  }

  public boolean isCreateParentFolder() {
    return createParentFolder;
  }

  public void setCreateParentFolder(boolean createParentFolder) {
    this.createParentFolder = createParentFolder;
  }

  public List<OutputField> getFields() {
    return fields;
  }

  public void setFields(List<OutputField> fields) {
    this.fields = fields;
  }
}
