package io.eventtime.hop.fileinput;

import io.eventtime.hop.Settings;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaInteger;
import org.apache.hop.core.row.value.ValueMetaString;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.i18n.BaseMessages;

/**
 * The settings of an Event File Input with variables resolved and checked: the format, the
 * fields and how to read each, and the row layout. The files themselves are listed when the
 * reading starts.
 */
public final class InputSettings {
  private static final Class<?> PKG = EventFileInputMeta.class;
  public static final String[] FORMATS = {"ndjson", "csv"};
  public static final String[] TYPES = {"String", "Integer", "Number", "BigNumber", "Boolean", "Timestamp", "Date"};

  final boolean csv;
  final char delimiter;
  final boolean header;
  TypedFields fields;
  final IRowMeta layout = new RowMeta();
  final int filenameIndex;
  final int lineNumberIndex;
  /** Follow mode: the files read on as they grow and land, until stopped. */
  final boolean follow;
  /** With follow mode: the input ends once no new line has come for this long; 0 for never. */
  final long followIdleStopMillis;

  private InputSettings(boolean csv, char delimiter, boolean header, int filenameIndex, int lineNumberIndex,
      boolean follow, long followIdleStopMillis) {
    this.csv = csv;
    this.delimiter = delimiter;
    this.header = header;
    this.filenameIndex = filenameIndex;
    this.lineNumberIndex = lineNumberIndex;
    this.follow = follow;
    this.followIdleStopMillis = followIdleStopMillis;
  }

  /** The layout of the rows, as far as the settings allow even when some are wrong. */
  public static IRowMeta layout(EventFileInputMeta meta, IVariables variables) {
    return build(meta, variables, new ArrayList<>()).layout;
  }

  /** Resolves and checks every setting, or returns null with each problem and how to fix it. */
  public static InputSettings resolve(EventFileInputMeta meta, IVariables variables, List<String> problems) {
    int before = problems.size();
    InputSettings s = build(meta, variables, problems);
    return problems.size() > before ? null : s;
  }

  private static InputSettings build(EventFileInputMeta meta, IVariables variables, List<String> problems) {
    String format = Settings.resolve(variables, meta.getFormat());
    String f = format == null ? "ndjson" : format.toLowerCase(Locale.ROOT);
    if (!f.equals("ndjson") && !f.equals("csv") && !Settings.undefinedVariable(
        BaseMessages.getString(PKG, "EventFileInputMeta.Setting.Format"), format, problems)) {
      problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.UnknownFormat", format));
    }
    boolean csv = f.equals("csv");
    char delimiter = ',';
    String delimiterText = variables == null ? meta.getCsvDelimiter() : variables.resolve(meta.getCsvDelimiter());
    if (csv && delimiterText != null && !delimiterText.isEmpty()) {
      String d = delimiterText.equals("\\t") ? "\t" : delimiterText;
      if (d.length() != 1) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.Delimiter", delimiterText));
      } else {
        delimiter = d.charAt(0);
      }
    }
    ZoneId zone = ZoneOffset.UTC;
    String zoneText = Settings.resolve(variables, meta.getTimeZone());
    if (zoneText != null) {
      try {
        zone = ZoneId.of(zoneText);
      } catch (DateTimeException e) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.TimeZone", zoneText));
      }
    }
    String filenameField = Settings.resolve(variables, meta.getFilenameField());
    String lineNumberField = Settings.resolve(variables, meta.getLineNumberField());
    int n = meta.getFields().size();
    long idleStopMillis = 0;
    String idleStop = Settings.resolve(variables, meta.getFollowIdleStop());
    if (idleStop != null) {
      if (!meta.isFollow()) {
        problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.IdleStopWithoutFollow", idleStop));
      } else {
        Long millis = Settings.positiveDuration(
            BaseMessages.getString(PKG, "EventFileInputMeta.Setting.FollowIdleStop"), idleStop, problems);
        idleStopMillis = millis == null ? 0 : millis;
      }
    }
    InputSettings s = new InputSettings(csv, delimiter, meta.isCsvHeader(),
        filenameField == null ? -1 : n, lineNumberField == null ? -1 : n + (filenameField == null ? 0 : 1),
        meta.isFollow(), idleStopMillis);

    if (meta.getFiles().stream().allMatch(file -> Settings.resolve(variables, file.getName()) == null)) {
      problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.NoFiles"));
    }
    for (int i = 0; i < meta.getFiles().size(); i++) {
      Settings.undefinedVariable(BaseMessages.getString(PKG, "EventFileInputMeta.Setting.File", i + 1),
          Settings.resolve(variables, meta.getFiles().get(i).getName()), problems);
    }
    if (n == 0) {
      problems.add(BaseMessages.getString(PKG, "EventFileInputMeta.Problem.NoFields"));
    }
    List<TypedFields.Setting> fieldSettings = new ArrayList<>();
    meta.getFields().forEach(field ->
        fieldSettings.add(new TypedFields.Setting(field.getName(), field.getType(), field.getFormat())));
    s.fields = TypedFields.build(fieldSettings, zone, variables, problems);
    s.layout.addRowMeta(s.fields.layout());
    List<String> names = new ArrayList<>(s.fields.names());
    if (filenameField != null) {
      s.layout.addValueMeta(new ValueMetaString(filenameField));
      names.add(filenameField);
    }
    if (lineNumberField != null) {
      s.layout.addValueMeta(new ValueMetaInteger(lineNumberField));
      names.add(lineNumberField);
    }
    Settings.requireDistinct(names, problems);
    return s;
  }

  /** The layout of the rows: the fields, then the file name and line number when asked for. */
  public IRowMeta layout() {
    return layout;
  }
}
