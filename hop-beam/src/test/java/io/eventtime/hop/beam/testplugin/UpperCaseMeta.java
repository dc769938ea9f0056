package io.eventtime.hop.beam.testplugin;

import org.apache.hop.core.annotations.Transform;
import org.apache.hop.metadata.api.HopMetadataProperty;
import org.apache.hop.pipeline.transform.BaseTransformMeta;

/**
 * A transform plugin that exists only in the tests, to prove that a transform the translation
 * knows nothing about runs on Beam through hop-engine's executor: it upper-cases one String
 * field, drops the rows whose field has a given value, and sends each other row a given number
 * of times (to exercise rows that give no row, and rows that give several); rows whose field has
 * the hold value are kept until the bundle ends (as a transform that writes in batches would).
 */
@Transform(id = "EventTimeTestUpperCase", name = "Upper case (eventtime tests)",
    description = "Upper-cases a String field (a plugin of the eventtime tests only)", categoryDescription = "Testing")
public class UpperCaseMeta extends BaseTransformMeta<UpperCase, UpperCaseData> {
  @HopMetadataProperty(key = "field")
  private String field;

  @HopMetadataProperty(key = "drop_value")
  private String dropValue;

  @HopMetadataProperty(key = "copies_per_row")
  private int copiesPerRow = 1;

  @HopMetadataProperty(key = "hold_value")
  private String holdValue;

  @Override
  public void setDefault() {
    field = null;
    dropValue = null;
    copiesPerRow = 1;
    holdValue = null;
  }

  public String getField() {
    return field;
  }

  public void setField(String field) {
    this.field = field;
  }

  public String getDropValue() {
    return dropValue;
  }

  public void setDropValue(String dropValue) {
    this.dropValue = dropValue;
  }

  public int getCopiesPerRow() {
    return copiesPerRow;
  }

  public void setCopiesPerRow(int copiesPerRow) {
    this.copiesPerRow = copiesPerRow;
  }

  public String getHoldValue() {
    return holdValue;
  }

  public void setHoldValue(String holdValue) {
    this.holdValue = holdValue;
  }
}
