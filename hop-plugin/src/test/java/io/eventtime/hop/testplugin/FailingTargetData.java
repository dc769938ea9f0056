package io.eventtime.hop.testplugin;

import org.apache.hop.pipeline.transform.BaseTransformData;
import org.apache.hop.pipeline.transform.ITransformData;

public class FailingTargetData extends BaseTransformData implements ITransformData {}
