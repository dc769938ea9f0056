package io.eventtime.hop.beam;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hop.core.encryption.Encr;
import org.apache.hop.core.exception.HopException;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.core.variables.IVariables;
import org.apache.hop.core.variables.Variables;
import org.apache.hop.metadata.api.IHopMetadataProvider;
import org.apache.hop.metadata.serializer.json.JsonMetadataProvider;
import org.apache.hop.metadata.serializer.memory.MemoryMetadataProvider;
import org.apache.hop.pipeline.PipelineMeta;
import org.apache.hop.pipeline.engines.local.LocalPipelineEngine;
import org.apache.hop.pipeline.transform.TransformMetaDataCombi;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Runs a Hop pipeline from the command line, without a Hop installation: on Hop's local engine,
 * or translated on Beam's Direct, Flink or Spark runner. Prints the rows each transform read,
 * wrote and rejected, and how many came late.
 *
 * <pre>
 * java -jar eventtime-hop-beam-flink-bundled.jar windows.hpl --runner flink --master [local] -p OUTPUT_FOLDER=/tmp/out
 * </pre>
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Runs a Hop pipeline (.hpl) on Hop's local engine or on a Beam runner.")
public final class RunPipeline implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PIPELINE", description = "The pipeline file (.hpl).")
  Path pipeline;

  @Option(names = "--runner", defaultValue = "local",
      description = "local (Hop's engine), direct, flink or spark (default: ${DEFAULT-VALUE}).")
  String runner;

  @Option(names = "--master", description = "Flink: --flinkMaster ([local], host:8081; default [auto])."
      + " Spark: --sparkMaster (spark://host:7077; default local[2]).")
  String master;

  @Option(names = "--parallelism", description = "Flink: the number of parallel tasks"
      + " (default 2 on [local], Flink's own elsewhere).")
  String parallelism;

  @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUE", description = "A value for a pipeline parameter.")
  Map<String, String> parameters = new LinkedHashMap<>();

  @Option(names = "--metadata-folder", paramLabel = "FOLDER",
      description = "A Hop project's metadata folder (connections and the like), if the pipeline needs one.")
  Path metadataFolder;

  @Option(names = "--beam-option", paramLabel = "--NAME=VALUE",
      description = "Any other Beam pipeline option, e.g. --beam-option=--filesToStage=... (repeatable).")
  List<String> beamOptions = new ArrayList<>();

  private PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(execute(args, System.out, System.err));
  }

  /** Runs the command; the exit code (0 when the pipeline ran to its end). */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    RunPipeline command = new RunPipeline();
    command.out = out;
    CommandLine cli = new CommandLine(command);
    cli.setOut(new java.io.PrintWriter(out, true));
    cli.setErr(new java.io.PrintWriter(err, true));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      err.println(e.getMessage());
      return 1;
    });
    return cli.execute(args);
  }

  @Override
  public Integer call() throws Exception {
    if (!Files.isRegularFile(pipeline)) {
      throw new HopException("There is no pipeline file " + pipeline.toAbsolutePath() + ": give the path of a .hpl file");
    }
    HopWorker.init();
    IHopMetadataProvider metadata = metadataFolder == null ? new MemoryMetadataProvider()
        : new JsonMetadataProvider(Encr.getEncoder(), metadataFolder.toAbsolutePath().toString(), new Variables());
    PipelineMeta meta = HopPipelines.load(pipeline.toAbsolutePath().toString(), metadata);
    Map<String, Map<HopMetrics.Kind, Long>> counts;
    if (runner.equalsIgnoreCase("local")) {
      counts = runLocal(meta, metadata);
    } else {
      BeamRunner beam;
      try {
        beam = BeamRunner.parse(runner);
      } catch (IllegalArgumentException e) {
        throw new HopException("Unknown runner '" + runner + "': choose local, direct, flink or spark");
      }
      IVariables variables = PipelineVariables.of(meta, parameters);
      HopBeamRun.Outcome outcome = HopBeamRun.run(meta, variables, metadata,
          beam.options(master, parallelism, beamOptions));
      outcome.notes().forEach(n -> out.println("Note: " + n));
      counts = outcome.metrics();
    }
    print(meta, counts);
    return 0;
  }

  private Map<String, Map<HopMetrics.Kind, Long>> runLocal(PipelineMeta meta, IHopMetadataProvider metadata)
      throws HopException {
    LocalPipelineEngine engine = new LocalPipelineEngine(meta, new Variables(), null);
    engine.setLogLevel(LogLevel.BASIC);
    engine.setMetadataProvider(metadata);
    meta.setInternalHopVariables(engine);
    engine.copyParametersFromDefinitions(meta);
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      engine.setParameterValue(p.getKey(), p.getValue());
    }
    engine.activateParameters(engine);
    engine.execute();
    engine.waitUntilFinished();
    if (engine.getErrors() > 0) {
      throw new HopException("The pipeline '" + meta.getName() + "' failed on the local engine: see the log above");
    }
    Map<String, Map<HopMetrics.Kind, Long>> counts = new LinkedHashMap<>();
    for (TransformMetaDataCombi c : engine.getTransforms()) {
      Map<HopMetrics.Kind, Long> m = counts.computeIfAbsent(c.transformName, n -> new LinkedHashMap<>());
      m.merge(HopMetrics.Kind.INPUT, c.transform.getLinesInput(), Long::sum);
      m.merge(HopMetrics.Kind.READ, c.transform.getLinesRead(), Long::sum);
      m.merge(HopMetrics.Kind.WRITTEN, c.transform.getLinesWritten(), Long::sum);
      m.merge(HopMetrics.Kind.OUTPUT, c.transform.getLinesOutput(), Long::sum);
      m.merge(HopMetrics.Kind.REJECTED, c.transform.getLinesRejected(), Long::sum);
    }
    return counts;
  }

  private void print(PipelineMeta meta, Map<String, Map<HopMetrics.Kind, Long>> counts) {
    out.println("Pipeline '" + meta.getName() + "' ran on " + runner + ":");
    for (String name : meta.getTransformNames()) {
      Map<HopMetrics.Kind, Long> m = counts.getOrDefault(name, Map.of());
      StringBuilder line = new StringBuilder("  ").append(name).append(':');
      for (HopMetrics.Kind k : HopMetrics.Kind.values()) {
        long v = m.getOrDefault(k, 0L);
        if (v != 0) {
          line.append(' ').append(k.name().toLowerCase(Locale.ROOT)).append('=').append(v);
        }
      }
      out.println(line);
    }
  }
}
