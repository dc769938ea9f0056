package io.eventtime.hop.beam;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Which loader a runner's class loader takes each class from: what the plugin's jars have from the
 * plugin even when the runner's folder has it too; the runner's own libraries from its jars even
 * when the loaders above the plugin have them (Hop's lib/core); the JDK from the JDK.
 */
class RunnerClassLoaderTest {
  private static URL jarOf(Class<?> c) {
    return c.getProtectionDomain().getCodeSource().getLocation();
  }

  @Test
  void classesOfThePluginComeFromThePluginTheRunnersOwnFromItsJars() throws Exception {
    // the plugin's jars: picocli; its parent (this test's class path) has AssertJ too, as Hop's lib/core would
    try (URLClassLoader plugin = new URLClassLoader(new URL[] {jarOf(CommandLine.class)}, getClass().getClassLoader());
        RunnerClassLoader runner = new RunnerClassLoader("test runner",
            new URL[] {jarOf(CommandLine.class), jarOf(Assertions.class)}, plugin)) {
      Class<?> fromPlugin = runner.loadClass(CommandLine.class.getName());
      assertThat(fromPlugin).isSameAs(plugin.loadClass(CommandLine.class.getName()));
      assertThat(fromPlugin.getClassLoader()).isNotSameAs(runner);

      Class<?> ownLibrary = runner.loadClass(Assertions.class.getName());
      assertThat(ownLibrary.getClassLoader()).isSameAs(runner);
      assertThat(ownLibrary).isNotSameAs(Assertions.class);

      Class<?> notInTheRunner = runner.loadClass(RunnerClassLoaderTest.class.getName());
      assertThat(notInTheRunner).isSameAs(RunnerClassLoaderTest.class);
      assertThat(runner.loadClass("java.util.List")).isSameAs(List.class);

      String resource = CommandLine.class.getName().replace('.', '/') + ".class";
      assertThat(runner.getResource(resource)).isEqualTo(plugin.getResource(resource));
      String ownResource = Assertions.class.getName().replace('.', '/') + ".class";
      assertThat(runner.getResource(ownResource).toString()).startsWith("jar:" + jarOf(Assertions.class));
      assertThat(Collections.list(runner.getResources(ownResource))).hasSize(2)
          .first().hasToString(runner.getResource(ownResource).toString());
    }
  }
}
