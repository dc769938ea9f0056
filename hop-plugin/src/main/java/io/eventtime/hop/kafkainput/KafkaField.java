package io.eventtime.hop.kafkainput;

import org.apache.hop.metadata.api.HopMetadataProperty;

/**
 * One field read from each record's JSON value: its key, its Hop type, and for Date and
 * Timestamp fields the pattern of the text (blank for ISO-8601), as Event File Input's fields.
 */
public class KafkaField {
  @HopMetadataProperty(
      key = "name",
      injectionKey = "FIELD_NAME",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.FIELD_NAME")
  private String name;

  @HopMetadataProperty(
      key = "type",
      injectionKey = "FIELD_TYPE",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.FIELD_TYPE")
  private String type;

  @HopMetadataProperty(
      key = "format",
      injectionKey = "FIELD_TIME_FORMAT",
      injectionKeyDescription = "EventKafkaInputMeta.Injection.FIELD_TIME_FORMAT")
  private String format;

  public KafkaField() {}

  public KafkaField(String name, String type, String format) {
    this.name = name;
    this.type = type;
    this.format = format;
  }

  public KafkaField(KafkaField other) {
    this(other.name, other.type, other.format);
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getFormat() {
    return format;
  }

  public void setFormat(String format) {
    this.format = format;
  }
}
