package io.eventtime.hop.window;

import static io.eventtime.core.contract.WorkedExamples.B;
import static io.eventtime.hop.HopTestEnvironment.eventTimeLayout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventtime.core.Stats;
import io.eventtime.core.contract.WorkedExamples.Window;
import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import io.eventtime.hop.Rows;
import io.eventtime.hop.testplugin.EndOfInputHookMeta;
import io.eventtime.hop.testplugin.FailingTargetMeta;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hop.core.logging.LogLevel;
import org.apache.hop.pipeline.PipelineMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state folder is changed only by a real run that succeeded: a preview reads it and stores
 * nothing; a run whose window rows cannot be written, or whose new state cannot be written (a
 * full disk), fails and leaves the state as it was. Contract example B's two runs.
 */
class StateSafetyTest {
  private static final List<String> RUN1 = B.run1().times();
  private static final List<String> RUN2 = B.run2().times();
  /** The windows the second run sends. */
  private static final List<String> RUN2_WINDOWS = B.run2().windows().stream().map(Window::text).toList();

  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
    FailingTargetMeta.register();
    EndOfInputHookMeta.register();
  }

  private static EventTimeWindowMeta window(Path state) {
    EventTimeWindowMeta w = new EventTimeWindowMeta();
    w.setDefault();
    w.setWindowSize(B.size());
    w.setWatermarkDelay(B.delay());
    w.setLatePolicy(B.policy());
    w.setStateFolder(state.toString());
    w.setAggregates(List.of(new WindowAggregate(null, "count", "events")));
    return w;
  }

  private static List<Object[]> rows(List<String> times) {
    List<Object[]> rows = new ArrayList<>();
    for (String t : times) {
      rows.add(new Object[] {t});
    }
    return rows;
  }

  private static LocalRun windowToDummy(Path state, List<String> times) {
    return new LocalRun(new PipelineBuilder("example-b").injector("in", eventTimeLayout()).transform("window", window(state))
        .dummy("out").hop("in", "window").hop("window", "out").build()).inject("in", eventTimeLayout(), rows(times))
        .logLevel(LogLevel.BASIC);
  }

  @Test
  void aPreviewShowsWhatARunWouldSendAndStoresNothing() throws Exception {
    Path state = dir.resolve("state");
    assertThat(windowToDummy(state, RUN1).run("out").errors()).isZero();
    String stored = Files.readString(state.resolve("state.json"));

    LocalRun preview = windowToDummy(state, RUN2).preview();
    LocalRun.Result previewed = preview.run("out");
    assertThat(previewed.errors()).isZero();
    assertThat(Rows.text(previewed.rows("out"))).isEqualTo(RUN2_WINDOWS);
    assertThat(Files.readString(state.resolve("state.json"))).isEqualTo(stored);
    Stats s = B.run2().stats();
    assertThat(preview.messages(LogLevel.BASIC)).contains("window: Event time window stats: {\"stats\":{\"rows_in\":"
        + s.rowsIn() + ",\"rows_out\":" + s.rowsOut() + ",\"late_dropped\":" + s.lateDropped() + ",\"windows_closed\":"
        + s.windowsClosed() + ",\"rows_folded\":" + s.rowsFolded() + ",\"rows_rejected\":" + s.rowsRejected()
        + "}}, open windows a run would keep: " + B.run2().open().size() + " (a preview: the state in " + state
        + " is left as it was)");
    try (var files = Files.list(state)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("state.json", "state.lock");
    }

    // the real run after the preview still sends the window
    LocalRun.Result run2 = windowToDummy(state, RUN2).run("out");
    assertThat(Rows.text(run2.rows("out"))).isEqualTo(RUN2_WINDOWS);
  }

  @Test
  void aRunWhoseTargetTransformFailsKeepsTheState() throws Exception {
    Path state = dir.resolve("state");
    assertThat(windowToDummy(state, RUN1).run("out").errors()).isZero();
    String stored = Files.readString(state.resolve("state.json"));

    // the transform the window sends its rows to fails at the first one
    PipelineMeta p = new PipelineBuilder("failing").injector("in", eventTimeLayout()).transform("window", window(state))
        .transform("target", new FailingTargetMeta()).hop("in", "window").hop("window", "target").build();
    LocalRun failing = new LocalRun(p).inject("in", eventTimeLayout(), rows(RUN2)).logLevel(LogLevel.BASIC);
    assertThat(failing.run().errors()).isPositive();
    assertThat(failing.messages(LogLevel.ERROR)).anyMatch(m -> m.startsWith("target: ")
        && m.contains("the failing target cannot take row 1"));
    assertThat(failing.messages(LogLevel.BASIC)).contains("window: The run did not succeed: the state in " + state
        + " is kept as it was");
    assertThat(Files.readString(state.resolve("state.json"))).isEqualTo(stored);

    LocalRun.Result run2 = windowToDummy(state, RUN2).run("out");
    assertThat(Rows.text(run2.rows("out"))).isEqualTo(RUN2_WINDOWS);
  }

  @Test
  void aStateThatCannotReplaceTheStoredOneFailsTheRun() throws Exception {
    Path state = dir.resolve("state");
    assertThat(windowToDummy(state, RUN1).run("out").errors()).isZero();
    String stored = Files.readString(state.resolve("state.json"));

    // the window has staged its new state beside the stored one; it vanishes before the commit
    EndOfInputHookMeta.hook = () -> {
      try (var files = Files.list(state)) {
        for (Path staged : files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList()) {
          Files.delete(staged);
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    };
    try {
      PipelineMeta p = new PipelineBuilder("commit-fails").injector("in", eventTimeLayout()).transform("window", window(state))
          .transform("hook", new EndOfInputHookMeta()).hop("in", "window").hop("window", "hook").build();
      LocalRun failing = new LocalRun(p).inject("in", eventTimeLayout(), rows(RUN2)).logLevel(LogLevel.BASIC);
      LocalRun.Result r = failing.run("hook");
      assertThat(Rows.text(r.rows("hook"))).isEqualTo(RUN2_WINDOWS);
      assertThat(r.errors()).isEqualTo(1);
      assertThat(r.pipeline().getResult().getNrErrors()).isEqualTo(1);
      assertThat(failing.messages(LogLevel.ERROR)).anyMatch(m -> m.startsWith("window: State folder: cannot replace the"
          + " state " + state.resolve("state.json") + " (") && m.endsWith("): the stored state is kept as it was"));
      assertThat(failing.messages(LogLevel.BASIC)).noneMatch(m -> m.contains("Stored the watermark"));
    } finally {
      EndOfInputHookMeta.hook = () -> {};
    }
    assertThat(Files.readString(state.resolve("state.json"))).isEqualTo(stored);
  }

  @Test
  void aStateFolderOnAFullDiskFailsTheRunAndKeepsTheState() throws Exception {
    Path disk = Files.createDirectories(dir.resolve("small-disk"));
    assumeTrue(mount(disk), "needs to mount a small tmpfs (root)");
    try {
      Path state = disk.resolve("state");
      assertThat(windowToDummy(state, RUN1).run("out").errors()).isZero();
      String stored = Files.readString(state.resolve("state.json"));

      Path filler = disk.resolve("filler");
      fill(filler);
      LocalRun failing = windowToDummy(state, RUN2);
      assertThat(failing.run("out").errors()).isPositive();
      assertThat(failing.messages(LogLevel.ERROR)).anyMatch(m -> m.startsWith("window: ")
          && m.contains("State folder: cannot write the new state in " + state + " (No space left on device):"
              + " the stored state is kept as it was"));
      assertThat(Files.readString(state.resolve("state.json"))).isEqualTo(stored);
      try (var files = Files.list(state)) {
        assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("state.json", "state.lock");
      }

      // with room again, the same run goes on from the first
      Files.delete(filler);
      LocalRun.Result run2 = windowToDummy(state, RUN2).run("out");
      assertThat(run2.errors()).isZero();
      assertThat(Rows.text(run2.rows("out"))).isEqualTo(RUN2_WINDOWS);
    } finally {
      run("umount", disk.toString());
    }
  }

  /** A 64 KiB tmpfs on {@code at}; false where this user cannot mount one. */
  private static boolean mount(Path at) {
    return run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", at.toString());
  }

  private static boolean run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Writes {@code file} until the disk is full. */
  private static void fill(Path file) throws IOException {
    byte[] block = new byte[1024];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(block);
        out.flush();
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
  }
}
