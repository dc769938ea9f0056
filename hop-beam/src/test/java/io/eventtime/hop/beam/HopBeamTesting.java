package io.eventtime.hop.beam;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hop.core.HopEnvironment;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.TransformMetaDataCombi;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Runs the same Hop pipeline on Hop's local engine and, translated, on a Beam runner, each
 * writing its files into its own folder, and reads back what they wrote.
 */
public final class HopBeamTesting {
  public static final String OUTPUT_FOLDER = "OUTPUT_FOLDER";

  private HopBeamTesting() {}

  /** Starts Hop once per JVM, its config folder under target/, our plugins and the test plugin found on the class path. */
  public static synchronized void initHop() {
    try {
      Path config = Path.of(System.getProperty(HopWorker.CONFIG_FOLDER, "target/hop-config"));
      Files.createDirectories(config);
      System.setProperty(HopWorker.CONFIG_FOLDER, config.toAbsolutePath().toString());
      HopEnvironment.init();
    } catch (HopException | IOException e) {
      throw new IllegalStateException("cannot start Hop for the tests: " + e.getMessage(), e);
    }
  }

  /** The samples/hop folder of the repository, from any module folder below it. */
  public static Path samples() {
    Path p = Path.of("samples/hop");
    for (int up = 0; up < 4 && !Files.isDirectory(p); up++) {
      p = Path.of("..").resolve(p);
    }
    if (!Files.isDirectory(p)) {
      throw new IllegalStateException("samples/hop not found from " + Path.of("").toAbsolutePath());
    }
    return p.toAbsolutePath().normalize();
  }

  /** Every .hpl of samples/hop, by name. */
  public static List<Path> samplePipelines() {
    try (Stream<Path> files = Files.list(samples())) {
      return files.filter(f -> f.toString().endsWith(".hpl")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static PipelineMeta load(Path hpl) throws HopException {
    return HopPipelines.load(hpl.toAbsolutePath().toString(), new MemoryMetadataProvider());
  }

  /** Runs on the local engine with the output folder given; the engine, finished. */
  public static LocalPipelineEngine runLocal(Path hpl, Path outputFolder) throws HopException {
    return runLocal(hpl, Map.of(OUTPUT_FOLDER, outputFolder.toString()));
  }

  /** Runs on the local engine with the parameter values given; the engine, finished. */
  public static LocalPipelineEngine runLocal(Path hpl, Map<String, String> parameters) throws HopException {
    return runLocal(load(hpl), parameters);
  }

  /** Runs a pipeline on the local engine with the parameter values given; the engine, finished. */
  public static LocalPipelineEngine runLocal(PipelineMeta meta, Map<String, String> parameters) throws HopException {
    LocalPipelineEngine engine = new LocalPipelineEngine(meta, new Variables(), null);
    engine.setLogLevel(LogLevel.MINIMAL);
    engine.setMetadataProvider(new MemoryMetadataProvider());
    meta.setInternalHopVariables(engine);
    engine.copyParametersFromDefinitions(meta);
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      engine.setParameterValue(p.getKey(), p.getValue());
    }
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();
    if (engine.getErrors() > 0) {
      throw new HopException(meta.getName() + " failed on the local engine");
    }
    return engine;
  }

  /** Runs translated on Beam with the output folder given. */
  public static HopBeamRun.Outcome runBeam(Path hpl, Path outputFolder, PipelineOptions options) throws HopException {
    return runBeam(hpl, Map.of(OUTPUT_FOLDER, outputFolder.toString()), options);
  }

  /** Runs translated on Beam with the parameter values given. */
  public static HopBeamRun.Outcome runBeam(Path hpl, Map<String, String> parameters, PipelineOptions options)
      throws HopException {
    PipelineMeta meta = load(hpl);
    return HopBeamRun.run(meta, PipelineVariables.of(meta, parameters), new MemoryMetadataProvider(), options);
  }

  /** What each transform of a local run counted, as the Beam run counts it (late rows aside). */
  public static Map<String, Map<HopMetrics.Kind, Long>> counts(LocalPipelineEngine engine) {
    Map<String, Map<HopMetrics.Kind, Long>> counts = new TreeMap<>();
    for (TransformMetaDataCombi c : engine.getTransforms()) {
      Map<HopMetrics.Kind, Long> m = new TreeMap<>();
      put(m, HopMetrics.Kind.INPUT, c.transform.getLinesInput());
      put(m, HopMetrics.Kind.READ, c.transform.getLinesRead());
      put(m, HopMetrics.Kind.WRITTEN, c.transform.getLinesWritten());
      put(m, HopMetrics.Kind.OUTPUT, c.transform.getLinesOutput());
      put(m, HopMetrics.Kind.REJECTED, c.transform.getLinesRejected());
      counts.put(c.transformName, m);
    }
    return counts;
  }

  /** The counts of a Beam run, late rows aside, in the same form. */
  public static Map<String, Map<HopMetrics.Kind, Long>> counts(HopBeamRun.Outcome outcome, Iterable<String> transforms) {
    Map<String, Map<HopMetrics.Kind, Long>> counts = new TreeMap<>();
    for (String name : transforms) {
      Map<HopMetrics.Kind, Long> m = new TreeMap<>();
      outcome.metrics().getOrDefault(name, Map.of()).forEach((k, v) -> {
        if (k != HopMetrics.Kind.LATE) {
          put(m, k, v);
        }
      });
      counts.put(name, m);
    }
    return counts;
  }

  private static void put(Map<HopMetrics.Kind, Long> m, HopMetrics.Kind kind, long value) {
    if (value != 0) {
      m.put(kind, value);
    }
  }

  /** The lines of every file under a folder, by path relative to it. */
  public static Map<String, List<String>> files(Path folder) throws IOException {
    Map<String, List<String>> all = new TreeMap<>();
    if (!Files.isDirectory(folder)) {
      return all;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path f : walk.filter(Files::isRegularFile).toList()) {
        all.put(folder.relativize(f).toString(), Files.readAllLines(f));
      }
    }
    return all;
  }
}
