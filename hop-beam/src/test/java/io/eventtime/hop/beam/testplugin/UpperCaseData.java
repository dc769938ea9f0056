package io.eventtime.hop.beam.testplugin;

import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

public class UpperCaseData extends BaseTransformData implements ITransformData {
  int index = -1;
  /** The rows of the hold value, sent when the bundle ends. */
  final java.util.List<Object[]> held = new java.util.ArrayList<>();
}
