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
    return new PipelineMeta(hpl.toAbsolutePath().toString(), new MemoryMetadataProvider(), new Variables());
  }

  /** Runs on the local engine with the output folder given; the engine, finished. */
  public static LocalPipelineEngine runLocal(Path hpl, Path outputFolder) throws HopException {
    PipelineMeta meta = load(hpl);
    LocalPipelineEngine engine = new LocalPipelineEngine(meta, new Variables(), null);
    engine.setLogLevel(LogLevel.MINIMAL);
    engine.setMetadataProvider(new MemoryMetadataProvider());
    meta.setInternalHopVariables(engine);
    engine.copyParametersFromDefinitions(meta);
    engine.setParameterValue(OUTPUT_FOLDER, outputFolder.toString());
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();
    if (engine.getErrors() > 0) {
      throw new HopException(hpl.getFileName() + " failed on the local engine");
    }
    return engine;
  }

  /** Runs translated on Beam with the output folder given. */
  public static HopBeamRun.Outcome runBeam(Path hpl, Path outputFolder, PipelineOptions options) throws HopException {
    PipelineMeta meta = load(hpl);
    return HopBeamRun.run(meta, PipelineVariables.of(meta, Map.of(OUTPUT_FOLDER, outputFolder.toString())),
        new MemoryMetadataProvider(), options);
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
