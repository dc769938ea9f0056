package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventtime.hop.beam.testplugin.SortRowsStandInMeta;
import io.eventtime.hop.beam.testplugin.UpperCase;
import io.eventtime.hop.beam.testplugin.UpperCaseData;
import io.eventtime.hop.beam.testplugin.UpperCaseMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.transform.BaseTransformMeta;
import org.apache.hop.pipeline.transform.TransformMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each transform's plugin id finds its translation in the one registry, and a translation registered there is used. */
class TransformTranslationsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @Test
  void ourTransformsFindTheirOwnTranslation() {
    TransformTranslations built = TransformTranslations.BUILT_IN;
    // the ids as the pipelines' files spell them (<type>)
    assertThat(built.forPluginId("EventFileInput")).isInstanceOf(EventFileInputTranslation.class);
    assertThat(built.forPluginId("EventTimeStamp")).isInstanceOf(EventTimeStampTranslation.class);
    assertThat(built.forPluginId("EventTimeWindow")).isInstanceOf(EventTimeWindowTranslation.class);
    assertThat(built.forPluginId("EventFileOutput")).isInstanceOf(EventFileOutputTranslation.class);
    assertThat(built.forPluginId("Dummy")).isInstanceOf(DummyTranslation.class);
    assertThat(List.of("EventFileInput", "EventTimeStamp", "EventTimeWindow", "EventFileOutput", "Dummy"))
        .allMatch(built::hasOwnTranslation);
  }

  @Test
  void anyOtherPluginRunsRowByRow() {
    TransformTranslations built = TransformTranslations.BUILT_IN;
    assertThat(built.forPluginId("EventTimeTestUpperCase")).isInstanceOf(RowByRowTranslation.class);
    assertThat(built.forPluginId("SelectValues")).isInstanceOf(RowByRowTranslation.class);
    assertThat(built.hasOwnTranslation("EventTimeTestUpperCase")).isFalse();
    assertThat(built.hasOwnTranslation("SelectValues")).isFalse();
  }

  @Test
  void twoTranslationsOfOnePluginAreRefused() {
    assertThatThrownBy(() -> new TransformTranslations(List.of(new DummyTranslation(), new PassThrough("Dummy")),
        new RowByRowTranslation()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the plugin 'Dummy' has two translations: DummyTranslation and PassThrough");
  }

  @Test
  void aPluginIdComesFromTheTransformAnnotation() {
    assertThat(TransformTranslation.pluginId(UpperCaseMeta.class)).isEqualTo("EventTimeTestUpperCase");
    assertThatThrownBy(() -> TransformTranslation.pluginId(NoPlugin.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(NoPlugin.class.getName() + " is not a transform plugin: it has no @Transform");
  }

  /** Read events > Upper A > Upper B > Write. */
  private PipelineMeta twoUpperCases() throws IOException {
    Path events = dir.resolve("events.ndjson");
    Files.writeString(events, "{\"merchant\":\"acme\",\"event_time\":\"2026-07-18 10:00:03\"}\n");
    TestPipelines p = new TestPipelines("upper cases");
    p.add("Read events", TestPipelines.input(events, "merchant", "String", "event_time", "Timestamp"));
    for (String name : List.of("Upper A", "Upper B")) {
      UpperCaseMeta upper = new UpperCaseMeta();
      upper.setField("merchant");
      p.add(name, upper);
    }
    p.add("Write", TestPipelines.output(dir.resolve("out.ndjson")));
    p.hop("Read events", "Upper A").hop("Upper A", "Upper B").hop("Upper B", "Write");
    return p.meta();
  }

  @Test
  void withoutATranslationOfItsOwn_consecutiveTransformsRunRowByRowInOneStep() throws Exception {
    PipelineMeta meta = twoUpperCases();
    Pipeline beam = translate(meta, TransformTranslations.BUILT_IN);
    assertThat(topLevelSteps(beam)).containsExactly("Read events", "Upper A > Upper B", "Write");
  }

  @Test
  void aRegisteredTranslationIsUsed() throws Exception {
    PipelineMeta meta = twoUpperCases();
    PassThrough upper = new PassThrough(TransformTranslation.pluginId(UpperCaseMeta.class));
    Pipeline beam = translate(meta, withFiles(upper));
    assertThat(upper.translated).containsExactly("Upper A", "Upper B");
    assertThat(topLevelSteps(beam)).containsExactly("Read events", "Write");
  }

  @Test
  void aTransformWithATranslationOfItsOwnEndsTheRowByRowChain() throws Exception {
    PipelineMeta meta = twoUpperCases();
    // Upper B becomes a transform of a plugin that runs row by row only with a translation of its own
    meta.findTransform("Upper B").setTransform(new SortRowsStandInMeta());
    meta.findTransform("Upper B").setTransformPluginId(TransformTranslation.pluginId(SortRowsStandInMeta.class));
    PassThrough sort = new PassThrough(TransformTranslation.pluginId(SortRowsStandInMeta.class));
    Pipeline beam = translate(meta, withFiles(sort));
    assertThat(sort.translated).containsExactly("Upper B");
    assertThat(topLevelSteps(beam)).containsExactly("Read events", "Upper A", "Write");
  }

  /** Event File Input and Output, {@code added}, and every other plugin row by row. */
  private static TransformTranslations withFiles(TransformTranslation added) {
    return new TransformTranslations(List.of(new EventFileInputTranslation(), new EventFileOutputTranslation(), added),
        new RowByRowTranslation());
  }

  private static Pipeline translate(PipelineMeta meta, TransformTranslations translations) throws Exception {
    Pipeline beam = Pipeline.create(BeamRunner.DIRECT.options(null, null, List.of()));
    try (HopPipelineTranslator.Translation t = HopPipelineTranslator.translate(meta, PipelineVariables.of(meta,
        Map.of()), new MemoryMetadataProvider(), beam, translations)) {
      return t.pipeline();
    }
  }

  /** The names of the Beam pipeline's outermost steps, in the order they were applied. */
  private static List<String> topLevelSteps(Pipeline beam) {
    List<String> names = new ArrayList<>();
    beam.traverseTopologically(new Pipeline.PipelineVisitor.Defaults() {
      @Override
      public CompositeBehavior enterCompositeTransform(TransformHierarchy.Node node) {
        if (!node.isRootNode() && node.getEnclosingNode().isRootNode()) {
          names.add(node.getFullName());
        }
        return CompositeBehavior.ENTER_TRANSFORM;
      }

      @Override
      public void visitPrimitiveTransform(TransformHierarchy.Node node) {
        if (node.getEnclosingNode().isRootNode()) {
          names.add(node.getFullName());
        }
      }
    });
    return names;
  }

  /** A translation of the tests: the transforms of one plugin send the rows they get on unchanged. */
  private static final class PassThrough implements TransformTranslation {
    private final String pluginId;
    private final List<String> translated = new ArrayList<>();

    PassThrough(String pluginId) {
      this.pluginId = pluginId;
    }

    @Override
    public Set<String> pluginIds() {
      return Set.of(pluginId);
    }

    @Override
    public Map<String, HopStream> translate(TranslationContext context, TransformMeta t) {
      translated.add(t.getName());
      HopStream in = context.requiredInput(t, "rows");
      Map<String, HopStream> outputs = new LinkedHashMap<>();
      context.toMainTargets(t, context.mainTargets(t, Set.of()), in.rows(), in.widthBits(), in.spreadBits(), outputs);
      return outputs;
    }
  }

  /** A transform metadata class without its plugin annotation. */
  private static final class NoPlugin extends BaseTransformMeta<UpperCase, UpperCaseData> {}
}
