package io.eventtime.hop.fileoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventtime.hop.HopTestEnvironment;
import io.eventtime.hop.LocalRun;
import io.eventtime.hop.PipelineBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hop.core.row.IRowMeta;
import org.apache.hop.core.row.RowMeta;
import org.apache.hop.core.row.value.ValueMetaString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (or a device such as /dev/stdout) as the file to write: the rows go into it, and
 * it stays what it was. Hop's VFS alone deletes an existing file before writing, which as root
 * replaced even /dev/full with a plain file.
 */
class EventFileOutputSpecialFilesTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void hop() {
    HopTestEnvironment.init();
  }

  @Test
  void aNamedPipeIsWrittenToNotReplaced() throws Exception {
    Path fifo = dir.resolve("rows.fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "needs mkfifo");
    CompletableFuture<List<String>> read = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.readAllLines(fifo);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    });
    IRowMeta in = new RowMeta();
    in.addValueMeta(new ValueMetaString("name"));
    EventFileOutputMeta out = new EventFileOutputMeta();
    out.setDefault();
    out.setFilename(fifo.toString());
    LocalRun.Result r = new LocalRun(new PipelineBuilder("fifo").injector("in", in).transform("write", out)
        .hop("in", "write").build()).inject("in", in, List.<Object[]>of(new Object[] {"a"}, new Object[] {"b"})).run();
    assertThat(r.errors()).isZero();
    assertThat(Files.isRegularFile(fifo)).as("the pipe was replaced by a plain file").isFalse();
    assertThat(read.get(60, TimeUnit.SECONDS)).containsExactly("{\"name\":\"a\"}", "{\"name\":\"b\"}");
  }
}
