package io.eventtime.core.state;

import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.Key;
import io.eventtime.core.LatePolicy;
import io.eventtime.core.OpenState;
import io.eventtime.core.WindowProcessor;
import io.eventtime.core.WindowQuery;
import io.eventtime.core.WindowSpec;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One run with state, as a surface would do it, for {@link KilledRunTest} to run in a JVM of its
 * own and kill. Arguments: the state directory, the input (lines {@code key,epochMillis,amount}),
 * the output file, and where to stop and wait to be killed: {@code none} (run to the end),
 * {@code midway} (half the rows processed), {@code before-commit} (all rows processed, output
 * written and flushed) or {@code staged} (the new state written beside the old, not yet in
 * place). At the stop it prints {@code REACHED <stop>} and waits on standard input; if that
 * closes, it exits without committing.
 */
public final class StateRunMain {
  static final WindowQuery QUERY = WindowQuery.of(WindowSpec.tumbling(60_000)).withKeys("k").withDelay(30_000)
      .withLatePolicy(LatePolicy.WINDOW).withAggregates(
          AggregateSpec.countAll("rows"),
          AggregateSpec.of(AggregateKind.SUM, "amount", "total"),
          AggregateSpec.of(AggregateKind.AVG, "amount", "mean"),
          AggregateSpec.of(AggregateKind.FIRST, "amount", "first_amount"),
          AggregateSpec.of(AggregateKind.LAST, "amount", "last_amount"),
          AggregateSpec.of(AggregateKind.COUNT_DISTINCT, "amount", "amounts"));

  private StateRunMain() {}

  public static void main(String[] args) throws IOException {
    run(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), args[3]);
    System.out.println("DONE");
  }

  static void run(Path stateDir, Path input, Path output, String stopAt) throws IOException {
    List<String> lines = Files.readAllLines(input);
    try (StateStore store = StateStore.open(stateDir, QUERY, "ts");
        FileOutputStream file = new FileOutputStream(output.toFile());
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(file, StandardCharsets.UTF_8))) {
      WindowProcessor p = new WindowProcessor(QUERY, r -> {
        try {
          out.write(StateFixtures.show(r));
          out.newLine();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, store.load());
      for (int i = 0; i < lines.size(); i++) {
        if (i == lines.size() / 2 && stopAt.equals("midway")) {
          out.flush();
          waitToBeKilled(stopAt);
        }
        String[] f = lines.get(i).split(",", -1);
        Object amount = f[2].isEmpty() ? null : Long.parseLong(f[2]);
        p.process(Key.of(f[0]), Long.parseLong(f[1]), new Object[] {null, amount, amount, amount, amount, amount});
      }
      OpenState next = p.hold();
      out.flush();
      file.getFD().sync();
      if (stopAt.equals("before-commit")) {
        waitToBeKilled(stopAt);
      }
      StateStore.Staged staged = store.stage(next);
      if (stopAt.equals("staged")) {
        waitToBeKilled(stopAt);
      }
      staged.commit();
    }
  }

  private static void waitToBeKilled(String stop) throws IOException {
    System.out.println("REACHED " + stop);
    System.out.flush();
    System.in.read();
    System.err.println("standard input closed at " + stop + ": leaving without committing");
    System.exit(3);
  }
}
