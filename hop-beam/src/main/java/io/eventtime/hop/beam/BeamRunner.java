package io.eventtime.hop.beam;

import io.eventtime.beam.RunnerDefaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The Beam runners a Hop pipeline runs on, and their options: the master and parallelism a run
 * configuration or the command line gives, plus any other Beam option as {@code --name=value}.
 * Flink and Spark are never on one class path (their libraries clash): each comes with its own
 * bundled jar (see {@code docs/hop-on-beam-clusters.md}), or, in a Hop installation, with its own
 * zip that fills {@code runners/flink/lib} or {@code runners/spark/lib} of the plugin's folder and
 * gets its own class loader ({@link #classLoader()}).
 */
public enum BeamRunner {
  DIRECT("DirectRunner", null, null),
  FLINK("FlinkRunner", "eventtime-hop-beam-flink", "org.apache.beam.runners.flink.FlinkRunner"),
  SPARK("SparkRunner", "eventtime-hop-beam-spark", "org.apache.beam.runners.spark.SparkRunner");

  /** The class loaders of the runners installed beside the plugin, made once per JVM. */
  private static final Map<BeamRunner, ClassLoader> INSTALLED = new EnumMap<>(BeamRunner.class);
  private static Path flinkConfDir;

  private final String runnerName;
  private final String jar;
  private final String runnerClass;

  BeamRunner(String runnerName, String jar, String runnerClass) {
    this.runnerName = runnerName;
    this.jar = jar;
    this.runnerClass = runnerClass;
  }

  /** Whether {@code options} run on one of Beam's Spark runners (told by the package: Spark need not be on our class path). */
  public static boolean isSpark(PipelineOptions options) {
    return options.getRunner().getName().startsWith(SPARK.runnerClass.substring(0, SPARK.runnerClass.lastIndexOf('.') + 1));
  }

  public static BeamRunner parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown Beam runner '" + text + "': choose direct, flink or spark", e);
    }
  }

  /**
   * The options of a run: {@code master} is Flink's {@code --flinkMaster} ({@code [local]},
   * {@code host:8081}; {@code [auto]} when blank) or Spark's {@code --sparkMaster}
   * ({@code local[2]}, {@code spark://host:7077}; {@link RunnerDefaults#SPARK_MASTER} when blank),
   * ignored by the Direct runner; Spark caches as {@link RunnerDefaults#SPARK_STORAGE_LEVEL} unless
   * {@code otherArgs} give a {@code --storageLevel}; {@code parallelism} is Flink's (when blank:
   * {@link RunnerDefaults#flinkParallelism}, 2 for {@code [local]}, else Flink's own). Made with the runner's
   * {@link #classLoader()} as the thread's context class loader, where Beam looks for runners.
   */
  public PipelineOptions options(String master, String parallelism, List<String> otherArgs) {
    ClassLoader loader = classLoader();
    List<String> args = new ArrayList<>();
    args.add("--runner=" + runnerName);
    if (this == FLINK) {
      String flinkMaster = blank(master) ? "[auto]" : master.trim();
      args.add("--flinkMaster=" + flinkMaster);
      if (!blank(parallelism)) {
        args.add("--parallelism=" + positive(parallelism));
      } else {
        RunnerDefaults.flinkParallelism(flinkMaster).ifPresent(n -> args.add("--parallelism=" + n));
      }
      if (embeddedFlinkNeedsItsClassLoader(flinkMaster, otherArgs)) {
        args.add("--flinkConfDir=" + flinkConfDir());
      }
    } else if (this == SPARK) {
      checkSparkCanReachDirectBuffers(loader);
      args.add("--sparkMaster=" + (blank(master) ? RunnerDefaults.SPARK_MASTER : master.trim()));
      if (otherArgs.stream().noneMatch(a -> a.startsWith("--storageLevel="))) {
        args.add("--storageLevel=" + RunnerDefaults.SPARK_STORAGE_LEVEL);
      }
    }
    args.addAll(otherArgs);
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    synchronized (BeamRunner.class) {
      thread.setContextClassLoader(loader);
      try {
        if (loader != BeamRunner.class.getClassLoader()) {
          // Beam keeps the runners and options it found once; this runner's are in its own loader
          PipelineOptionsFactory.resetCache();
        }
        return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).withValidation().create();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the Beam options " + args + " are not valid: " + e.getMessage(), e);
      } finally {
        thread.setContextClassLoader(previous);
      }
    }
  }

  /**
   * Where the runner's classes are: this class's own loader when the runner is on its class path
   * (a bundled jar, the command line, a flat class path), else the loader of the runner installed
   * in {@code runners/<runner>/lib} beside the plugin's jar. Set it as the thread's context class
   * loader while a pipeline on this runner is made and run: Flink, Pekko and Spark find their
   * classes and configuration through it.
   *
   * @throws IllegalArgumentException when the runner is in neither, saying how to install it
   */
  public ClassLoader classLoader() {
    ClassLoader own = BeamRunner.class.getClassLoader();
    if (runnerClass == null || visible(own)) {
      return own;
    }
    synchronized (INSTALLED) {
      ClassLoader installed = INSTALLED.get(this);
      if (installed == null) {
        installed = install(own);
        INSTALLED.put(this, installed);
      }
      return installed;
    }
  }

  /** The folder a runner's zip fills in a Hop installation: {@code runners/<runner>/lib} beside the plugin's jar. */
  private Path installFolder() {
    try {
      URL location = BeamRunner.class.getProtectionDomain().getCodeSource().getLocation();
      return Path.of(location.toURI()).getParent().resolve("runners").resolve(name().toLowerCase(Locale.ROOT))
          .resolve("lib");
    } catch (URISyntaxException | RuntimeException e) {
      return Path.of("runners", name().toLowerCase(Locale.ROOT), "lib");
    }
  }

  private ClassLoader install(ClassLoader own) {
    Path folder = installFolder();
    List<URL> jars = new ArrayList<>();
    if (Files.isDirectory(folder)) {
      try (Stream<Path> files = Files.list(folder)) {
        for (Path p : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
          jars.add(p.toUri().toURL());
        }
      } catch (MalformedURLException e) {
        throw new IllegalStateException(e);
      } catch (IOException e) {
        throw new UncheckedIOException("could not list the jars of " + folder, e);
      }
    }
    if (jars.isEmpty() || !(own instanceof URLClassLoader plugin)) {
      throw new IllegalArgumentException("the Beam " + runnerName + " is not on the class path: run with the " + jar
          + " jar (see docs/hop-on-beam-clusters.md), or in a Hop installation unzip " + jar
          + "-<version>-hop-runner.zip into its plugins/ folder (it fills " + folder + "), or choose another runner");
    }
    ClassLoader loader = new RunnerClassLoader("eventtime " + name().toLowerCase(Locale.ROOT) + " runner",
        jars.toArray(URL[]::new), plugin);
    if (!visible(loader)) {
      throw new IllegalArgumentException("the Beam " + runnerName + " is not in the jars of " + folder
          + ": unzip " + jar + "-<version>-hop-runner.zip of this version into the Hop installation's plugins/ folder");
    }
    return loader;
  }

  private boolean visible(ClassLoader loader) {
    try {
      Class.forName(runnerClass, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Embedded Flink's job manager reads a job without jars of its own with the JVM's system class
   * loader; when Flink is not on that class path (a Hop plugin) it cannot find even its own
   * classes. A class path entry for the job (one with no classes: the folder of this
   * configuration) makes it use a job class loader instead, parent-first over Flink's own.
   */
  private static boolean embeddedFlinkNeedsItsClassLoader(String flinkMaster, List<String> otherArgs) {
    boolean embedded = flinkMaster.equals("[local]") || flinkMaster.equals("[auto]");
    boolean ownConf = otherArgs.stream().anyMatch(a -> a.startsWith("--flinkConfDir="));
    if (!embedded || ownConf) {
      return false;
    }
    try {
      Class.forName("org.apache.flink.api.common.ExecutionConfig", false, ClassLoader.getSystemClassLoader());
      return false;
    } catch (ClassNotFoundException | LinkageError e) {
      return true;
    }
  }

  private static synchronized Path flinkConfDir() {
    if (flinkConfDir == null) {
      try {
        Path dir = Files.createTempDirectory("eventtime-flink-conf");
        Files.writeString(dir.resolve("flink-conf.yaml"), "classloader.resolve-order: parent-first\n"
            + "pipeline.classpaths: " + dir.toUri() + "\n");
        dir.resolve("flink-conf.yaml").toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        flinkConfDir = dir;
      } catch (IOException e) {
        throw new UncheckedIOException("could not write the configuration of embedded Flink", e);
      }
    }
    return flinkConfDir;
  }

  /** Spark reaches into the JDK's direct buffers: refused before the run, with the JVM option to add. */
  private static void checkSparkCanReachDirectBuffers(ClassLoader loader) {
    if (!Object.class.getModule().isOpen("sun.nio.ch", loader.getUnnamedModule())) {
      throw new IllegalArgumentException("Spark needs the JVM option --add-opens=java.base/sun.nio.ch=ALL-UNNAMED:"
          + " add it to HOP_OPTIONS before starting Hop (hop-gui.sh, hop-run.sh) or to the java command");
    }
  }

  private static String positive(String parallelism) {
    try {
      int n = Integer.parseInt(parallelism.trim());
      if (n > 0) {
        return Integer.toString(n);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException("the parallelism '" + parallelism + "' is not a whole number above 0:"
        + " give the number of parallel tasks, e.g. 4, or leave it blank for Flink's default");
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
