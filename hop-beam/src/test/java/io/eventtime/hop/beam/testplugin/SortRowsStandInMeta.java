package io.eventtime.hop.beam.testplugin;

import org.apache.hop.core.annotations.Transform;
import org.apache.hop.pipeline.transform.BaseTransformMeta;

/**
 * Stands in, in the tests, for Hop's Sort rows transform (which hop-engine does not ship), under
 * its plugin id, so that the translation's refusal of transforms that need every row at once
 * can be tried. It passes rows on unchanged.
 */
@Transform(id = "SortRows", name = "Sort rows (stand-in of the eventtime tests)", categoryDescription = "Testing")
public class SortRowsStandInMeta extends BaseTransformMeta<SortRowsStandIn, UpperCaseData> {}
