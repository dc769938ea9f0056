package io.eventtime.hop.window;

import org.apache.hop.metadata.api.HopMetadataProperty;

/**
 * One aggregate of each window: the input field, the aggregate (count, count distinct, sum,
 * min, max, avg, first, last) and the name of the output field. A count with no field counts
 * the rows.
 */
public class WindowAggregate {
  @HopMetadataProperty(
      key = "field",
      injectionKey = "AGGREGATE_FIELD",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.AGGREGATE_FIELD")
  private String field;

  @HopMetadataProperty(
      key = "type",
      injectionKey = "AGGREGATE_TYPE",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.AGGREGATE_TYPE")
  private String aggregate;

  @HopMetadataProperty(
      key = "output",
      injectionKey = "AGGREGATE_OUTPUT",
      injectionKeyDescription = "EventTimeWindowMeta.Injection.AGGREGATE_OUTPUT")
  private String outputName;

  public WindowAggregate() {}

  public WindowAggregate(String field, String aggregate, String outputName) {
    this.field = field;
    this.aggregate = aggregate;
    this.outputName = outputName;
  }

  public WindowAggregate(WindowAggregate other) {
    this(other.field, other.aggregate, other.outputName);
  }

  public String getField() {
    return field;
  }

  public void setField(String field) {
    this.field = field;
  }

  public String getAggregate() {
    return aggregate;
  }

  public void setAggregate(String aggregate) {
    this.aggregate = aggregate;
  }

  public String getOutputName() {
    return outputName;
  }

  public void setOutputName(String outputName) {
    this.outputName = outputName;
  }
}
