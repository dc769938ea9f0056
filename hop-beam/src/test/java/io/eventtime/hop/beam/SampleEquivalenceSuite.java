package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every pipeline of samples/hop/, run on Hop's local engine and, translated, on the runner a
 * subclass gives: the same files, with the same lines in the same order.
 */
public abstract class SampleEquivalenceSuite {
  @TempDir
  Path dir;

  /** The options that select and configure the runner under test. */
  protected abstract PipelineOptions options();

  @BeforeAll
  static void hop() {
    HopBeamTesting.initHop();
  }

  @TestFactory
  Stream<DynamicTest> everySampleWritesTheLocalEnginesFiles() {
    List<Path> samples = HopBeamTesting.samplePipelines();
    assertThat(samples).hasSizeGreaterThanOrEqualTo(10);
    return samples.stream().map(hpl -> DynamicTest.dynamicTest(hpl.getFileName().toString(), () -> {
      String name = hpl.getFileName().toString().replace(".hpl", "");
      Path local = dir.resolve(name + "-local");
      Path beam = dir.resolve(name + "-beam");
      Map<String, Map<HopMetrics.Kind, Long>> localCounts = HopBeamTesting.counts(HopBeamTesting.runLocal(hpl, local));
      HopBeamRun.Outcome outcome = HopBeamTesting.runBeam(hpl, beam, options());
      Map<String, List<String>> expected = HopBeamTesting.files(local);
      Map<String, List<String>> actual = HopBeamTesting.files(beam);
      assertThat(expected).as("files the local engine wrote").isNotEmpty();
      assertThat(expected.values()).as("every sample writes rows").anyMatch(lines -> !lines.isEmpty());
      assertThat(actual.keySet()).as("files written").isEqualTo(expected.keySet());
      for (String file : expected.keySet()) {
        assertThat(actual.get(file)).as(file).containsExactlyElementsOf(expected.get(file));
      }
      assertThat(HopBeamTesting.counts(outcome, localCounts.keySet())).as("rows each transform counted")
          .isEqualTo(localCounts);
    }));
  }
}
