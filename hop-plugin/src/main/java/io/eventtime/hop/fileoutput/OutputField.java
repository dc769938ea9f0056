package io.eventtime.hop.fileoutput;

import org.apache.hop.metadata.api.HopMetadataProperty;

/** One field to write, by name; the fields are written in the order listed. */
public class OutputField {
  @HopMetadataProperty(
      key = "name",
      injectionKey = "FIELD_NAME",
      injectionKeyDescription = "EventFileOutputMeta.Injection.FIELD_NAME")
  private String name;

  public OutputField() {}

  public OutputField(String name) {
    this.name = name;
  }

  public OutputField(OutputField other) {
    this(other.name);
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }
}
