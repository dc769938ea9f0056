package io.eventtime.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventtime.core.RandomStreams.Event;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The processor under policy {@code event} against DuckDB running the contract's SQL recipe (the
 * seed's shapes): the watermark before each row as the maximum event time of the earlier arrivals
 * less the delay, the rows behind it left out, then {@code time_bucket} for tumbling windows, the
 * {@code range(k)} trick for hopping ones, and {@code lag}-based session numbering, per key. Many
 * random disordered streams go into one in-memory table at once; each window kind is one query
 * per stream.
 */
class DuckDbDifferentialTest {
  private static final int STREAMS = 150;
  private static final long[] UNITS = {1, 10, 1000};
  private static final long[] BASES = {0, -50_000_000L, 1_772_323_200_000L};

  /** One stream and the windows it is cut into. */
  record Stream(int id, List<Event> events, long delay, WindowSpec tumbling, WindowSpec hopping, WindowSpec session) {
    String describe(WindowSpec spec) {
      return "stream " + id + " (" + events.size() + " rows), " + spec + ", delay " + delay;
    }
  }

  private static Connection db;
  private static final List<Stream> streams = new ArrayList<>();

  @BeforeAll
  static void loadStreams() throws SQLException {
    db = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = db.createStatement()) {
      s.execute("CREATE TABLE events (stream INTEGER, arrival INTEGER, name VARCHAR, grp BIGINT, ts TIMESTAMP,"
          + " amount BIGINT)");
    }
    try (DuckDBAppender appender = db.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA,
        "events")) {
      for (int id = 0; id < STREAMS; id++) {
        Random r = new Random(9_000 + id);
        long unit = UNITS[r.nextInt(UNITS.length)];
        long base = BASES[r.nextInt(BASES.length)];
        long delay = r.nextInt(3) == 0 ? 0 : unit * r.nextInt(40);
        List<Event> events = RandomStreams.stream(r, 150 + r.nextInt(300), unit, base, delay, false,
            1 + r.nextInt(4), 0.02);
        Stream stream = new Stream(id, events, delay, RandomStreams.spec(r, "tumbling", unit),
            RandomStreams.spec(r, "hopping", unit), RandomStreams.spec(r, "session", unit));
        streams.add(stream);
        for (int arrival = 0; arrival < events.size(); arrival++) {
          Event e = events.get(arrival);
          if (e.ts() == null) {
            continue; // a row with no usable time is rejected: it is not in any window nor in the watermark
          }
          appender.beginRow().append(id).append(arrival);
          if (e.key().get(0) == null) {
            appender.appendNull();
          } else {
            appender.append((String) e.key().get(0));
          }
          appender.append((Long) e.key().get(1)).appendEpochMicros(e.ts() * 1000);
          if (e.x() == null) {
            appender.appendNull();
          } else {
            appender.append(e.x().longValue());
          }
          appender.endRow();
        }
      }
    }
  }

  @AfterAll
  static void close() throws SQLException {
    db.close();
  }

  /** The rows on time under policy {@code event}, as the seed recipe finds them. */
  private static String onTime(int stream, long delay) {
    return "WITH marked AS (SELECT *, max(ts) OVER (ORDER BY arrival ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
        + " - INTERVAL (" + delay + ") MILLISECOND AS watermark FROM events WHERE stream = " + stream + "),"
        + " on_time AS (SELECT * FROM marked WHERE watermark IS NULL OR ts >= watermark) ";
  }

  private static String tumblingSql(Stream s) {
    WindowSpec.Tumbling t = (WindowSpec.Tumbling) s.tumbling();
    return onTime(s.id(), s.delay())
        + "SELECT name, grp, ws, ws + " + t.sizeMillis() + " AS we, count(*) AS n, sum(amount)::BIGINT AS total FROM ("
        + "  SELECT *, epoch_ms(time_bucket(INTERVAL (" + t.sizeMillis() + ") MILLISECOND, ts, epoch_ms("
        + t.offsetMillis() + "::BIGINT))) AS ws FROM on_time)"
        + " GROUP BY name, grp, ws ORDER BY we, ws, name NULLS FIRST, grp";
  }

  /**
   * A row belongs to the windows starting at its slide bucket less k slides: k below size / slide
   * when the slide divides the size (the seed's shape), and up to its ceiling, keeping the windows
   * that still cover the row, when it does not.
   */
  private static String hoppingSql(Stream s) {
    WindowSpec.Hopping h = (WindowSpec.Hopping) s.hopping();
    long windowsPerRow = (h.sizeMillis() + h.slideMillis() - 1) / h.slideMillis();
    return onTime(s.id(), s.delay())
        + "SELECT name, grp, ws, ws + " + h.sizeMillis() + " AS we, count(*) AS n, sum(amount)::BIGINT AS total FROM ("
        + "  SELECT *, epoch_ms(time_bucket(INTERVAL (" + h.slideMillis() + ") MILLISECOND, ts, epoch_ms("
        + h.offsetMillis() + "::BIGINT)) - k * INTERVAL (" + h.slideMillis() + ") MILLISECOND) AS ws"
        + "  FROM on_time, range(" + windowsPerRow + ") r(k))"
        + " WHERE ws + " + h.sizeMillis() + " > epoch_ms(ts)"
        + " GROUP BY name, grp, ws ORDER BY we, ws, name NULLS FIRST, grp";
  }

  private static String sessionSql(Stream s) {
    long gap = ((WindowSpec.Session) s.session()).gapMillis();
    String byKey = "OVER (PARTITION BY name, grp ORDER BY ts)";
    return onTime(s.id(), s.delay())
        + "SELECT name, grp, epoch_ms(min(ts)) AS ws, epoch_ms(max(ts)) + " + gap + " AS we, count(*) AS n,"
        + " sum(amount)::BIGINT AS total FROM ("
        + "  SELECT *, sum(starts_session) " + byKey + " AS session_id FROM ("
        + "    SELECT *, (lag(ts) " + byKey + " IS NULL OR ts - lag(ts) " + byKey + " > INTERVAL (" + gap
        + ") MILLISECOND)::INT AS starts_session FROM on_time))"
        + " GROUP BY name, grp, session_id ORDER BY we, ws, name NULLS FIRST, grp";
  }

  private static List<String> duckDb(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        Object total = rs.getObject("total");
        rows.add(row(Key.of(rs.getString("name"), rs.getLong("grp")), rs.getLong("ws"), rs.getLong("we"),
            rs.getLong("n"), total == null ? null : ((Number) total).longValue()));
      }
    }
    return rows;
  }

  private static long lateInDuckDb(Stream s) throws SQLException {
    try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery(onTime(s.id(), s.delay())
        + "SELECT (SELECT count(*) FROM marked) - (SELECT count(*) FROM on_time)")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static String row(Key key, long start, long end, long count, Long sum) {
    return key + " [" + start + ", " + end + ") n=" + count + " sum=" + sum;
  }

  /** The processor's windows under policy {@code event}, in the order it emits them. */
  private static WindowProcessor process(Stream s, WindowSpec spec, List<String> rows) {
    WindowQuery q = new WindowQuery(spec, List.of("name", "grp"),
        List.of(AggregateSpec.countAll("n"), AggregateSpec.of(AggregateKind.SUM, "x", "total")), s.delay(),
        LatePolicy.EVENT);
    WindowProcessor p = new WindowProcessor(q,
        r -> rows.add(row(r.key(), r.start(), r.end(), (Long) r.values()[0], (Long) r.values()[1])));
    for (Event e : s.events()) {
      if (e.ts() == null) {
        p.reject();
      } else {
        p.process(e.key(), e.ts(), new Object[] {null, e.x()});
      }
    }
    p.finish();
    return p;
  }

  private static void compare(String kind) throws SQLException {
    long windows = 0;
    long late = 0;
    for (Stream s : streams) {
      WindowSpec spec;
      String sql;
      switch (kind) {
        case "tumbling" -> {
          spec = s.tumbling();
          sql = tumblingSql(s);
        }
        case "hopping" -> {
          spec = s.hopping();
          sql = hoppingSql(s);
        }
        default -> {
          spec = s.session();
          sql = sessionSql(s);
        }
      }
      List<String> actual = new ArrayList<>();
      WindowProcessor p = process(s, spec, actual);
      assertThat(actual).as(s.describe(spec)).isEqualTo(duckDb(sql));
      assertThat(p.stats().lateDropped()).as(s.describe(spec)).isEqualTo(lateInDuckDb(s));
      windows += actual.size();
      late += p.stats().lateDropped();
    }
    // the streams must really hold late rows and many windows, or agreeing proves little
    assertThat(windows).as(kind).isGreaterThan(3_000);
    assertThat(late).as(kind).isGreaterThan(1_000);
  }

  @Test
  void tumblingWindowsEqualTheRecipe() throws SQLException {
    compare("tumbling");
  }

  @Test
  void hoppingWindowsEqualTheRecipe() throws SQLException {
    compare("hopping");
  }

  @Test
  void sessionWindowsEqualTheRecipe() throws SQLException {
    compare("session");
  }

  @Test
  void theRecipeItselfGivesWorkedExampleA() throws SQLException {
    // the oracle's SQL must reproduce the contract's example A before it can judge anything
    long minute = 60_000L;
    long base = 1_772_323_200_000L; // 2026-03-01 00:00 UTC
    int[] minutes = {1, 4, 8, 12, 5, 11, 30, 34};
    int id = -1;
    try (DuckDBAppender appender = db.unwrap(DuckDBConnection.class).createAppender(DuckDBConnection.DEFAULT_SCHEMA,
        "events")) {
      for (int i = 0; i < minutes.length; i++) {
        appender.beginRow().append(id).append(i).append("acme").append(0L)
            .appendEpochMicros((base + minutes[i] * minute) * 1000).append(1L).endRow();
      }
    }
    Stream a = new Stream(id, List.of(), 5 * minute, WindowSpec.tumbling(10 * minute),
        WindowSpec.hopping(5 * minute, 10 * minute), WindowSpec.session(5 * minute));
    Key acme = Key.of("acme", 0L);
    assertThat(duckDb(tumblingSql(a))).containsExactly(
        row(acme, base, base + 10 * minute, 3, 3L),
        row(acme, base + 10 * minute, base + 20 * minute, 2, 2L),
        row(acme, base + 30 * minute, base + 40 * minute, 2, 2L));
    assertThat(duckDb(hoppingSql(a))).containsExactly(
        row(acme, base - 5 * minute, base + 5 * minute, 2, 2L),
        row(acme, base, base + 10 * minute, 3, 3L),
        row(acme, base + 5 * minute, base + 15 * minute, 3, 3L),
        row(acme, base + 10 * minute, base + 20 * minute, 2, 2L),
        row(acme, base + 25 * minute, base + 35 * minute, 2, 2L),
        row(acme, base + 30 * minute, base + 40 * minute, 2, 2L));
    assertThat(duckDb(sessionSql(a))).containsExactly(
        row(acme, base + minute, base + 17 * minute, 5, 5L),
        row(acme, base + 30 * minute, base + 39 * minute, 2, 2L));
    assertThat(lateInDuckDb(a)).isEqualTo(1);
  }
}
