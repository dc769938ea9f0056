package io.eventtime.hop.window;

import org.apache.hop.metadata.api.HopMetadataProperty;

/** One group-by field of the window transform: windows are kept per value of these fields. */
public class GroupField {
  @HopMetadataProperty(
      key = "name",
      injectionKey = "GROUP_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.GROUP_FIELD")
  private String name;

  public GroupField() {}

  public GroupField(String name) {
    this.name = name;
  }

  public GroupField(GroupField other) {
    this.name = other.name;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }
}
