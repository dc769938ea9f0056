package io.eventtime.hop.beam;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The class loader of a Beam runner installed beside the Hop plugin, in
 * {@code runners/<runner>/lib} of the plugin's folder: one per runner, so Flink and Spark, whose
 * libraries clash (Kryo), never share one.
 *
 * <p>What the plugin itself carries (Beam's SDK, eventtime, and Hop above it) always comes from
 * the plugin, so that the runner and the translated pipeline see the same classes; the rest comes
 * from the runner's jars first, because Flink and Spark need their own versions of libraries that
 * a Hop installation has too (Spark's Jersey 2 beside Hop's Jersey 3).
 */
final class RunnerClassLoader extends URLClassLoader {
  static {
    registerAsParallelCapable();
  }

  /** The packages of the JDK: never taken from a jar. */
  private static final Set<String> JDK_PACKAGES = ModuleLayer.boot().modules().stream()
      .flatMap(m -> m.getPackages().stream()).collect(Collectors.toUnmodifiableSet());

  /** The plugin's own jars, only to ask whether the plugin has a class or resource. */
  private final URLClassLoader pluginJars;

  RunnerClassLoader(String name, URL[] runnerJars, URLClassLoader plugin) {
    super(name, runnerJars, plugin);
    this.pluginJars = new URLClassLoader(plugin.getURLs(), null);
  }

  private boolean fromPlugin(String className, String resource) {
    int dot = className.lastIndexOf('.');
    return (dot > 0 && JDK_PACKAGES.contains(className.substring(0, dot))) || pluginJars.findResource(resource) != null;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        if (fromPlugin(name, name.replace('.', '/') + ".class")) {
          c = getParent().loadClass(name);
        } else {
          try {
            c = findClass(name);
          } catch (ClassNotFoundException notInTheRunner) {
            c = getParent().loadClass(name);
          }
        }
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  @Override
  public URL getResource(String name) {
    if (pluginJars.findResource(name) != null) {
      return getParent().getResource(name);
    }
    URL own = findResource(name);
    return own != null ? own : getParent().getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    List<URL> all = new ArrayList<>(Collections.list(findResources(name)));
    all.addAll(Collections.list(getParent().getResources(name)));
    return Collections.enumeration(all);
  }

  @Override
  public void close() throws IOException {
    try {
      pluginJars.close();
    } finally {
      super.close();
    }
  }
}
