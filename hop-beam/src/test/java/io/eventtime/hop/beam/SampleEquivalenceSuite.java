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

  /**
   * The samples that run several times in a row, carrying their state from one run to the next,
   * and the input file of each run (relative to samples/hop); the others run once.
   */
  private static final Map<String, List<String>> RUNS = Map.of(
      "example-b-state", List.of("data/example-b-run1.ndjson", "data/example-b-run2.ndjson"));

  @TestFactory
  Stream<DynamicTest> everySampleWritesTheLocalEnginesFiles() {
    List<Path> samples = HopBeamTesting.samplePipelines();
    assertThat(samples).hasSizeGreaterThanOrEqualTo(11);
    return samples.stream().map(hpl -> DynamicTest.dynamicTest(hpl.getFileName().toString(), () -> {
      String name = hpl.getFileName().toString().replace(".hpl", "");
      List<String> inputs = RUNS.getOrDefault(name, java.util.Collections.singletonList(null));
      for (int run = 0; run < inputs.size(); run++) {
        Path local = dir.resolve(name + "-local/run" + run);
        Path beam = dir.resolve(name + "-beam/run" + run);
        Map<String, Map<HopMetrics.Kind, Long>> localCounts = HopBeamTesting.counts(
            HopBeamTesting.runLocal(hpl, parameters(hpl, inputs.get(run), local, dir.resolve(name + "-local/state"))));
        HopBeamRun.Outcome outcome = HopBeamTesting.runBeam(hpl,
            parameters(hpl, inputs.get(run), beam, dir.resolve(name + "-beam/state")), options());
        Map<String, List<String>> expected = HopBeamTesting.files(local);
        Map<String, List<String>> actual = HopBeamTesting.files(beam);
        String what = name + " run " + (run + 1) + ": ";
        assertThat(expected).as(what + "files the local engine wrote").isNotEmpty();
        assertThat(expected.values()).as(what + "every sample writes rows").anyMatch(lines -> !lines.isEmpty());
        assertThat(actual.keySet()).as(what + "files written").isEqualTo(expected.keySet());
        for (String file : expected.keySet()) {
          assertThat(actual.get(file)).as(what + file).containsExactlyElementsOf(expected.get(file));
        }
        assertThat(HopBeamTesting.counts(outcome, localCounts.keySet())).as(what + "rows each transform counted")
            .isEqualTo(localCounts);
      }
    }));
  }

  private static Map<String, String> parameters(Path hpl, String input, Path output, Path state) {
    Map<String, String> p = new java.util.HashMap<>();
    p.put(HopBeamTesting.OUTPUT_FOLDER, output.toString());
    if (input != null) {
      p.put("INPUT_FILE", hpl.getParent().resolve(input).toString());
      p.put("STATE_FOLDER", state.toString());
    }
    return p;
  }
}
