package io.eventtime.hop.fileinput;

import org.apache.hop.metadata.api.HopMetadataProperty;

/** One entry of the file list: a file, or a folder and a regular expression its file names match. */
public class InputFile {
  @HopMetadataProperty(
      key = "name",
      injectionKey = "FILE_NAME",
      injectionKeyDescription = "EventFileInputMeta.Injection.FILE_NAME")
  private String name;

  /** A regular expression on the file names of a folder, e.g. {@code .*\.ndjson}; blank for all. */
  @HopMetadataProperty(
      key = "mask",
      injectionKey = "FILE_MASK",
      injectionKeyDescription = "EventFileInputMeta.Injection.FILE_MASK")
  private String mask;

  public InputFile() {}

  public InputFile(String name, String mask) {
    this.name = name;
    this.mask = mask;
  }

  public InputFile(InputFile other) {
    this(other.name, other.mask);
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getMask() {
    return mask;
  }

  public void setMask(String mask) {
    this.mask = mask;
  }
}
