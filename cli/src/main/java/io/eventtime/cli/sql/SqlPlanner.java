package io.eventtime.cli.sql;

import io.eventtime.cli.CliException;
import io.eventtime.cli.ErrorCode;
import io.eventtime.cli.plan.Condition;
import io.eventtime.cli.plan.InputColumn;
import io.eventtime.cli.plan.OutputColumn;
import io.eventtime.cli.plan.QueryPlan;
import io.eventtime.cli.plan.SqlTypes;
import io.eventtime.cli.plan.WindowCall;
import io.eventtime.core.AggregateKind;
import io.eventtime.core.AggregateSpec;
import io.eventtime.core.DurationText;
import io.eventtime.core.EventTimeException;
import io.eventtime.core.EventTimeParser;
import io.eventtime.core.TimeRange;
import io.eventtime.core.ValueType;
import io.eventtime.core.bind.BindProblem;
import io.eventtime.core.bind.Binding;
import io.eventtime.core.bind.BoundQuery;
import io.eventtime.core.bind.InputField;
import io.eventtime.core.bind.OutputNames;
import io.eventtime.core.bind.QueryBinder;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;

/**
 * Turns the SQL the command takes into a {@link QueryPlan}, in two steps. {@link #parse} needs
 * only the text: it parses with JSqlParser, refuses what is outside the subset, and checks every
 * window call (its arguments, its intervals) before anything binds, so the error names the
 * mistake. {@link #bind} then resolves the table, the columns and their types against the
 * source's inferred {@link Schema}.
 */
public final class SqlPlanner {

  /** What the command runs, quoted by every NOT_SUPPORTED refusal. */
  public static final String SUPPORTED = "eventtime runs SELECT <group keys>, <one window call: TUMBLE(ts, size),"
      + " HOP(ts, slide, size) or SESSION(ts, gap)> [AS name], [TUMBLE_END/HOP_END/SESSION_END(same arguments) for"
      + " window_end], count(*), count(col), count(DISTINCT col), sum(col), min(col), max(col), avg(col) [AS name]"
      + " FROM <table> [WHERE <conditions on input columns>] GROUP BY <keys>, <the window call>"
      + " [HAVING <conditions on aggregates>]";

  /** The seed page's refusal of an interval written as a bare number, word for word. */
  public static final String BARE_NUMBER = "the window interval must be an INTERVAL literal with a unit: write"
      + " INTERVAL '2 SECOND' (or MINUTE/HOUR/DAY), not a bare number";

  private static final Pattern AMOUNT_AND_UNIT =
      Pattern.compile("(\\d+)\\s*(MILLISECOND|SECOND|MINUTE|HOUR|DAY)S?", Pattern.CASE_INSENSITIVE);
  private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(\\.\\d*)?");
  private static final String EXAMPLE = "SELECT count(*) AS n FROM events GROUP BY TUMBLE(event_time, INTERVAL 1 MINUTE)";
  private static final EventTimeParser TIMES = EventTimeParser.defaults();
  private static final int START_SLOT = 0;
  private static final int END_SLOT = 1;

  private SqlPlanner() {}

  /** A query that parsed, within the subset, with well-formed window calls; not yet bound. */
  public static final class Parsed {
    private final PlainSelect select;
    private final Map<Function, WindowCall> windowCalls;

    private Parsed(PlainSelect select, Map<Function, WindowCall> windowCalls) {
      this.select = select;
      this.windowCalls = windowCalls;
    }

    /** The table FROM names, as written (unquoted). */
    public String table() {
      return ((Table) select.getFromItem()).getUnquotedName();
    }
  }

  public static Parsed parse(String sql) {
    if (isEmpty(sql)) {
      throw new CliException(ErrorCode.INVALID_QUERY, "the query is empty (nothing but blanks and comments): give one"
          + " SELECT, e.g. " + EXAMPLE);
    }
    Statement statement;
    AtomicReference<CCJSqlParser> parser = new AtomicReference<>();
    try {
      statement = CCJSqlParserUtil.parse(sql, parser::set);
    } catch (JSQLParserException e) {
      throw new CliException(ErrorCode.SYNTAX_ERROR, "the SQL does not parse: " + parserMessage(e) + ". " + SUPPORTED);
    }
    refuseWhatFollows(sql, parser.get());
    if (statement instanceof SetOperationList) {
      throw notSupported("UNION, INTERSECT and EXCEPT are");
    }
    if (!(statement instanceof PlainSelect select)) {
      throw notSupported(statement instanceof Select ? "this form of SELECT is"
          : statement.getClass().getSimpleName().toUpperCase(Locale.ROOT) + " statements are");
    }
    refuseClauses(select);
    Map<Function, WindowCall> calls = new IdentityHashMap<>();
    for (SelectItem<?> item : select.getSelectItems()) {
      collectWindowCalls(item.getExpression(), calls);
    }
    collectWindowCalls(select.getWhere(), calls);
    if (select.getGroupBy() != null) {
      for (Object e : select.getGroupBy().getGroupByExpressionList()) {
        collectWindowCalls((Expression) e, calls);
      }
    }
    collectWindowCalls(select.getHaving(), calls);
    return new Parsed(select, calls);
  }

  /** Whether the text holds no token at all: only blanks and {@code --} or {@code /* *}{@code /} comments. */
  private static boolean isEmpty(String sql) {
    if (sql == null || sql.isBlank()) {
      return true;
    }
    try {
      return CCJSqlParserUtil.newParser(sql).getNextToken().kind == CCJSqlParserConstants.EOF;
    } catch (TokenMgrException e) {
      return false; // not a token the parser knows: its syntax error says where
    }
  }

  /**
   * The parser stops after one statement and its {@code ;}: anything after it would be silently
   * ignored, so it is refused, quoted from where it starts.
   */
  private static void refuseWhatFollows(String sql, CCJSqlParser parser) {
    Token end = parser.token;
    int line;
    int column;
    try {
      Token next = parser.getNextToken();
      if (next.kind == CCJSqlParserConstants.EOF) {
        return;
      }
      line = next.beginLine;
      column = next.beginColumn;
    } catch (TokenMgrException notAToken) {
      // what follows is not even a token (an unterminated string): quote it from the end of the statement
      line = end.endLine;
      column = end.endColumn + 1;
    }
    String rest = sql.substring(offsetOf(sql, line, column)).strip();
    throw new CliException(ErrorCode.INVALID_QUERY, "the query is one SELECT, but text follows its end at line "
        + line + ", column " + column + ": '" + (rest.length() <= 60 ? rest : rest.substring(0, 57) + "...")
        + "': remove it (one query per run)");
  }

  /** Where the parser's line and column are in the text: it counts {@code \n}, {@code \r} and {@code \r\n} as line ends. */
  private static int offsetOf(String sql, int line, int column) {
    int l = 1;
    int c = 1;
    for (int i = 0; i < sql.length(); i++) {
      if (l == line && c == column) {
        return i;
      }
      char ch = sql.charAt(i);
      if (ch == '\n' || (ch == '\r' && (i + 1 == sql.length() || sql.charAt(i + 1) != '\n'))) {
        l++;
        c = 1;
      } else if (ch != '\r') {
        c++;
      }
    }
    return sql.length();
  }

  private static String parserMessage(JSQLParserException e) {
    String m = e.getMessage() == null ? "unknown error" : e.getMessage();
    m = m.replaceFirst("^net\\.sf\\.jsqlparser\\.parser\\.ParseException: ", "");
    int cut = m.indexOf("\n\n");
    if (cut > 0) {
      m = m.substring(0, cut);
    }
    return m.replaceAll("\\s+", " ").trim().replaceAll("\\.$", "");
  }

  private static void refuseClauses(PlainSelect s) {
    if (s.getWithItemsList() != null && !s.getWithItemsList().isEmpty()) {
      throw notSupported("WITH is");
    }
    if (s.getDistinct() != null) {
      throw notSupported("SELECT DISTINCT is");
    }
    if (s.getFromItem() == null) {
      throw notSupported("a SELECT without FROM is");
    }
    if (!(s.getFromItem() instanceof Table)) {
      throw notSupported("reading FROM a subquery or a table function is");
    }
    if (s.getJoins() != null && !s.getJoins().isEmpty()) {
      throw notSupported("joins are");
    }
    if (s.getOrderByElements() != null && !s.getOrderByElements().isEmpty()) {
      throw notSupported("ORDER BY is not supported (rows come out in the order their windows close: by window end,"
          + " then start, then keys)");
    }
    if (s.getLimit() != null || s.getOffset() != null || s.getFetch() != null || s.getTop() != null
        || s.getFirst() != null || s.getSkip() != null) {
      throw notSupported("LIMIT, OFFSET, FETCH and TOP are");
    }
    if (s.getWindowDefinitions() != null && !s.getWindowDefinitions().isEmpty()) {
      throw notSupported("WINDOW definitions (OVER clauses) are");
    }
    if (s.getQualify() != null) {
      throw notSupported("QUALIFY is");
    }
    if (s.getIntoTables() != null && !s.getIntoTables().isEmpty()) {
      throw notSupported("SELECT INTO is");
    }
    if (s.getLateralViews() != null && !s.getLateralViews().isEmpty()) {
      throw notSupported("LATERAL VIEW is");
    }
    if (s.getSampleClause() != null || s.getKsqlWindow() != null) {
      throw notSupported("this FROM clause is");
    }
    GroupByElement g = s.getGroupBy();
    if (g != null && ((g.getGroupingSets() != null && !g.getGroupingSets().isEmpty()) || g.isMysqlWithRollup())) {
      throw notSupported("GROUPING SETS and ROLLUP are");
    }
  }

  // ---- window calls: checked before anything binds ----

  private static WindowCall.Function windowFunction(Function f) {
    String name = f.getName() == null ? "" : f.getName().toUpperCase(Locale.ROOT);
    String base = name.replaceFirst("_(START|END)$", "");
    for (WindowCall.Function w : WindowCall.Function.values()) {
      if (w.name().equals(base)) {
        return w;
      }
    }
    return null;
  }

  private static void collectWindowCalls(Expression e, Map<Function, WindowCall> calls) {
    if (e == null) {
      return;
    }
    if (e instanceof Function f) {
      WindowCall.Function w = windowFunction(f);
      if (w != null) {
        calls.put(f, windowCall(f, w));
        return;
      }
      if (f.getParameters() != null) {
        for (Object p : f.getParameters()) {
          collectWindowCalls((Expression) p, calls);
        }
      }
    } else if (e instanceof BinaryExpression b) {
      collectWindowCalls(b.getLeftExpression(), calls);
      collectWindowCalls(b.getRightExpression(), calls);
    } else if (e instanceof NotExpression n) {
      collectWindowCalls(n.getExpression(), calls);
    } else if (e instanceof Parenthesis p) {
      collectWindowCalls(p.getExpression(), calls);
    } else if (e instanceof ExpressionList<?> list) {
      for (Object x : list) {
        collectWindowCalls((Expression) x, calls);
      }
    } else if (e instanceof IsNullExpression n) {
      collectWindowCalls(n.getLeftExpression(), calls);
    } else if (e instanceof InExpression in) {
      collectWindowCalls(in.getLeftExpression(), calls);
      collectWindowCalls(in.getRightExpression(), calls);
    } else if (e instanceof Between b) {
      collectWindowCalls(b.getLeftExpression(), calls);
      collectWindowCalls(b.getBetweenExpressionStart(), calls);
      collectWindowCalls(b.getBetweenExpressionEnd(), calls);
    }
  }

  private static WindowCall windowCall(Function f, WindowCall.Function w) {
    String called = f.getName().toUpperCase(Locale.ROOT);
    List<?> params = f.getParameters() == null ? List.of() : f.getParameters();
    if (f.isDistinct() || f.isAllColumns() || params.size() != 1 + w.intervals() || !(params.get(0) instanceof Column)) {
      throw new CliException(ErrorCode.NOT_SUPPORTED, w.arityMessage(called));
    }
    Column time = (Column) params.get(0);
    long first = intervalMillis((Expression) params.get(1));
    long second = w.intervals() == 2 ? intervalMillis((Expression) params.get(2)) : first;
    WindowCall call = new WindowCall(w, called.endsWith("_END"), time.getUnquotedColumnName(),
        !time.getColumnName().equals(time.getUnquotedColumnName()), w == WindowCall.Function.HOP ? first : 0, second,
        f.toString());
    try {
      call.spec();
    } catch (IllegalArgumentException e) {
      throw new CliException(ErrorCode.INVALID_QUERY, "in " + f + ": " + e.getMessage());
    }
    return call;
  }

  /** The length of an INTERVAL literal in milliseconds: INTERVAL 1 MINUTE, INTERVAL '30 SECOND', INTERVAL '30' SECOND. */
  static long intervalMillis(Expression e) {
    if (e instanceof IntervalExpression ie && ie.getParameter() != null) {
      String amount = unquote(ie.getParameter()).trim();
      String text = ie.getIntervalType() == null ? amount : amount + " " + ie.getIntervalType();
      if (NUMBER.matcher(text).matches()) {
        throw new CliException(ErrorCode.NOT_SUPPORTED, BARE_NUMBER);
      }
      Matcher m = AMOUNT_AND_UNIT.matcher(text.trim());
      if (!m.matches()) {
        throw new CliException(ErrorCode.NOT_SUPPORTED, "the interval " + e + " is not supported: write a whole number"
            + " and a unit from MILLISECOND to DAY (singular or plural), e.g. INTERVAL 1 MINUTE, INTERVAL '30 SECOND'"
            + " or INTERVAL '30' SECOND");
      }
      try {
        return DurationText.parseMillis(m.group(1) + " " + m.group(2));
      } catch (DurationText.TooLongException tooLong) {
        throw new CliException(ErrorCode.INVALID_QUERY, "the interval " + e + " is too long: give at most "
            + TimeRange.MAX_DURATION_TEXT);
      }
    }
    if (e instanceof LongValue || e instanceof DoubleValue
        || (e instanceof SignedExpression s && (s.getExpression() instanceof LongValue || s.getExpression() instanceof DoubleValue))) {
      throw new CliException(ErrorCode.NOT_SUPPORTED, BARE_NUMBER);
    }
    throw new CliException(ErrorCode.NOT_SUPPORTED, "the window interval must be an INTERVAL literal with a unit:"
        + " write INTERVAL '1 MINUTE' (or MILLISECOND/SECOND/HOUR/DAY), not " + e);
  }

  private static String unquote(String s) {
    String t = s.trim();
    if (t.length() >= 2 && t.startsWith("'") && t.endsWith("'")) {
      return t.substring(1, t.length() - 1).replace("''", "'");
    }
    return t;
  }

  // ---- binding ----

  /**
   * Binds a parsed query to a source: {@code table} is the name the source answers to, and
   * {@code schema} its columns. With an empty schema (no rows) columns cannot be checked.
   */
  public static QueryPlan bind(Parsed parsed, String table, Schema schema) {
    return new Binder(parsed, table, schema).bind();
  }

  private static final class Binder {
    private final PlainSelect select;
    private final Map<Function, WindowCall> windowCalls;
    private final String table;
    private final String tableAlias;
    private final Schema schema;

    private final Map<String, Integer> inputIndex = new LinkedHashMap<>();
    private final List<InputColumn> inputs = new ArrayList<>();
    private final List<Integer> keyInputs = new ArrayList<>();
    private final List<AggregateSpec> aggregates = new ArrayList<>();
    private final List<Integer> aggregateInputs = new ArrayList<>();
    private final List<OutputColumn> outputs = new ArrayList<>();
    private final List<String> outputAliases = new ArrayList<>();
    private WindowCall window;
    private int timeInput;
    /** The keys and aggregates so far, bound by the core. */
    private BoundQuery bound;

    Binder(Parsed parsed, String table, Schema schema) {
      this.select = parsed.select;
      this.windowCalls = parsed.windowCalls;
      this.table = table;
      Table from = (Table) select.getFromItem();
      this.tableAlias = from.getAlias() == null ? null : identifier(from.getAlias().getName());
      this.schema = schema;
    }

    QueryPlan bind() {
      Table from = (Table) select.getFromItem();
      String named = from.getUnquotedName();
      if (from.getSchemaName() != null || !named.equalsIgnoreCase(table)) {
        throw new CliException(ErrorCode.UNKNOWN_TABLE, "unknown table " + from.getFullyQualifiedName()
            + ": the source is the table " + table + " (its file's name without the extension), so write FROM "
            + table + ", or name the source with --table " + named);
      }
      bindGroupBy();
      bindSelect();
      Condition where = select.getWhere() == null ? null : condition(select.getWhere(), new WhereScope());
      Condition having = select.getHaving() == null ? null : condition(select.getHaving(), new HavingScope());
      return new QueryPlan(table, window, inputs, timeInput, keyInputs, aggregates, aggregateInputs, where, having,
          outputs);
    }

    private void bindGroupBy() {
      GroupByElement g = select.getGroupBy();
      if (g == null || g.getGroupByExpressionList() == null || g.getGroupByExpressionList().isEmpty()) {
        throw notSupported("a query without GROUP BY is not supported: the command runs windowed aggregations, so"
            + " GROUP BY the window call (and any keys), e.g. GROUP BY merchant, TUMBLE(ts, INTERVAL 1 MINUTE);");
      }
      List<Column> keys = new ArrayList<>();
      for (Object o : g.getGroupByExpressionList()) {
        Expression e = (Expression) o;
        if (e instanceof Function f && windowCalls.containsKey(f)) {
          WindowCall call = windowCalls.get(f);
          if (call.end()) {
            throw new CliException(ErrorCode.INVALID_QUERY, "GROUP BY the window call " + call.function() + "(...), not "
                + call.text() + ": the _END form only selects the window's end");
          }
          if (window != null) {
            throw notSupported("grouping by two window calls (" + window.text() + " and " + call.text() + ") is not"
                + " supported: GROUP BY one;");
          }
          window = call;
        } else if (e instanceof Column c) {
          keys.add(c);
        } else {
          throw notSupported("GROUP BY " + e + " is not supported: GROUP BY takes columns and one window call;");
        }
      }
      if (window == null) {
        throw notSupported("a GROUP BY without a window call is not supported: add TUMBLE(ts, size), HOP(ts, slide,"
            + " size) or SESSION(ts, gap) to it;");
      }
      bindTimeColumn();
      for (Column c : keys) {
        int slot = input(inputColumn(c));
        if (!keyInputs.contains(slot)) {
          keyInputs.add(slot);
        }
      }
      bound = bindInCore();
    }

    private void bindTimeColumn() {
      String field = window.timeColumn();
      if (!schema.isEmpty()) {
        field = schema.resolve(window.timeColumn(), window.quoted()).orElseThrow(() -> unknownColumn(window.timeColumn()));
        if (!schema.observed(field).isEmpty() && !schema.observed(field).contains(ValueType.TIMESTAMP)) {
          throw new CliException(ErrorCode.TYPE_MISMATCH, "the time column " + field + " of " + window.function()
              + " is " + SqlTypes.name(schema.type(field)) + ", not a TIMESTAMP: give " + window.function()
              + " a column whose values are date-times such as \"2026-07-18 10:00:03\" or \"2026-07-18T10:00:03Z\"");
        }
      }
      inputIndex.put(field, inputs.size());
      inputs.add(new InputColumn(field, ValueType.TIMESTAMP));
      timeInput = 0;
    }

    private void bindSelect() {
      for (SelectItem<?> item : select.getSelectItems()) {
        Expression e = item.getExpression();
        String alias = item.getAlias() == null ? null : identifier(item.getAlias().getName());
        OutputColumn out;
        if (e instanceof AllColumns) {
          throw notSupported("SELECT * is not supported: name the group keys, the window call and the aggregates;");
        } else if (e instanceof Column c) {
          String field = inputColumn(c);
          int key = keyInputs.indexOf(input(field));
          if (key < 0) {
            throw new CliException(ErrorCode.INVALID_QUERY, "the column " + field + " is selected but neither grouped"
                + " nor aggregated: add it to GROUP BY, or select an aggregate of it such as max(" + field + ")");
          }
          out = new OutputColumn(alias != null ? alias : field, OutputColumn.Kind.KEY, key);
        } else if (e instanceof Function f && windowCalls.containsKey(f)) {
          WindowCall call = sameAsGrouped(windowCalls.get(f), "SELECT");
          out = call.end()
              ? new OutputColumn(alias != null ? alias : "window_end", OutputColumn.Kind.WINDOW_END, 0)
              : new OutputColumn(alias != null ? alias : "window_start", OutputColumn.Kind.WINDOW_START, 0);
        } else if (e instanceof Function f && aggregateKind(f) != null) {
          int index = aggregate(f);
          out = new OutputColumn(alias != null ? alias : aggregates.get(index).outputName(), OutputColumn.Kind.AGGREGATE,
              index);
        } else if (e instanceof Function f) {
          throw notSupported("the function " + f.getName() + " is not supported:");
        } else {
          throw notSupported("the expression " + e + " in SELECT is not supported:");
        }
        outputs.add(out);
        outputAliases.add(alias);
      }
      List<BindProblem> clashes = OutputNames.clashes(outputs.stream().map(OutputColumn::name).toList());
      if (!clashes.isEmpty()) {
        throw new CliException(ErrorCode.INVALID_QUERY, clashes.get(0).message());
      }
    }

    private WindowCall sameAsGrouped(WindowCall call, String where) {
      if (!call.sameWindows(window)) {
        throw new CliException(ErrorCode.INVALID_QUERY, "the window call " + call.text() + " in " + where
            + " is not the one the query groups by, " + window.text() + ": use the same function, column and intervals");
      }
      return call;
    }

    // ---- aggregates ----

    private static AggregateKind aggregateKind(Function f) {
      switch (f.getName().toLowerCase(Locale.ROOT)) {
        case "count":
          return AggregateKind.COUNT;
        case "sum":
          return AggregateKind.SUM;
        case "min":
          return AggregateKind.MIN;
        case "max":
          return AggregateKind.MAX;
        case "avg":
          return AggregateKind.AVG;
        default:
          return null;
      }
    }

    /** The index of the aggregate {@code f} computes, adding it when it is new. */
    private int aggregate(Function f) {
      AggregateKind kind = aggregateKind(f);
      String name = f.getName().toLowerCase(Locale.ROOT);
      List<?> params = f.getParameters() == null ? List.of() : f.getParameters();
      boolean star = f.isAllColumns() || (params.size() == 1 && params.get(0) instanceof AllColumns);
      String field = null;
      if (star) {
        if (kind != AggregateKind.COUNT || f.isDistinct()) {
          throw notSupported(f + " is not supported: only count takes *;");
        }
        kind = AggregateKind.COUNT_ALL;
      } else {
        if (params.size() != 1 || !(params.get(0) instanceof Column c)) {
          throw notSupported(f + " is not supported: an aggregate takes one column, e.g. sum(amount);");
        }
        if (f.isDistinct()) {
          if (kind != AggregateKind.COUNT) {
            throw notSupported(f + " is not supported: only count takes DISTINCT;");
          }
          kind = AggregateKind.COUNT_DISTINCT;
        }
        field = inputColumn(c);
        int slot = input(field);
        ValueType type = inputs.get(slot).type();
        if ((kind == AggregateKind.SUM || kind == AggregateKind.AVG) && type != null && !type.isNumeric()) {
          // a column whose numbers are mixed with a few strings is summed as numbers; the rows whose
          // value is not a number are rejected, one by one (a column of no numbers is refused by the core)
          ValueType numeric = schema.observed(field).contains(ValueType.DOUBLE) ? ValueType.DOUBLE
              : schema.observed(field).contains(ValueType.INT64) ? ValueType.INT64 : null;
          if (numeric != null) {
            inputs.set(slot, new InputColumn(field, numeric));
          }
        }
      }
      String label = kind == AggregateKind.COUNT_ALL ? "count(*)"
          : kind == AggregateKind.COUNT_DISTINCT ? "count(DISTINCT " + field + ")" : name + "(" + field + ")";
      for (int i = 0; i < aggregates.size(); i++) {
        if (aggregates.get(i).outputName().equals(label)) {
          return i;
        }
      }
      aggregates.add(new AggregateSpec(kind, field, label));
      aggregateInputs.add(field == null ? -1 : input(field));
      bound = bindInCore();
      return aggregates.size() - 1;
    }

    /**
     * Binds the keys and aggregates so far through the core, which checks their types and gives
     * the aggregates' result types; its first problem is the query's error. The result's names
     * are the SELECT list's, checked in {@link #bindSelect} by the core's rule, so the core's
     * check of its own column names is left out here.
     */
    private BoundQuery bindInCore() {
      List<InputField> fields = inputs.stream().map(c -> schema.isEmpty() || c.type() == null
          ? InputField.unknown(c.name(), SqlTypes.name(c.type())) : new InputField(c.name(), c.type(), SqlTypes.name(c.type())))
          .toList();
      List<String> keys = keyInputs.stream().map(slot -> inputs.get(slot).name()).toList();
      Binding binding = QueryBinder.bind(keys, aggregates, inputs.get(timeInput).name(), "window_start", "window_end",
          fields);
      for (BindProblem p : binding.problems()) {
        if (p.kind() != BindProblem.Kind.NAME_CLASH) {
          throw new CliException(p.kind() == BindProblem.Kind.MISSING_FIELD ? ErrorCode.UNKNOWN_COLUMN
              : ErrorCode.TYPE_MISMATCH, p.message());
        }
      }
      return binding.draft();
    }

    private ValueType aggregateType(int index) {
      return bound.aggregateTypes().get(index);
    }

    // ---- columns ----

    private String inputColumn(Column c) {
      checkQualifier(c);
      String name = c.getUnquotedColumnName();
      if (schema.isEmpty()) {
        return name;
      }
      return schema.resolve(name, !c.getColumnName().equals(name)).orElseThrow(() -> unknownColumn(name));
    }

    private void checkQualifier(Column c) {
      Table t = c.getTable();
      if (t != null && t.getName() != null) {
        String q = t.getUnquotedName();
        if (!q.equalsIgnoreCase(table) && (tableAlias == null || !q.equalsIgnoreCase(tableAlias))) {
          throw new CliException(ErrorCode.UNKNOWN_TABLE, "unknown table " + q + " in " + c + ": the query reads only "
              + table + (tableAlias == null ? "" : " (as " + tableAlias + ")"));
        }
      }
    }

    private CliException unknownColumn(String name) {
      return new CliException(ErrorCode.UNKNOWN_COLUMN, "unknown column " + name + ": the rows of " + table
          + " have the columns " + String.join(", ", schema.columns()) + " (inferred from " + schema.sampled() + ")");
    }

    /** The slot of an input column, adding it when it is new. */
    private int input(String field) {
      Integer slot = inputIndex.get(field);
      if (slot != null) {
        return slot;
      }
      inputIndex.put(field, inputs.size());
      inputs.add(new InputColumn(field, schema.isEmpty() ? null : schema.type(field)));
      return inputs.size() - 1;
    }

    // ---- conditions ----

    private record Typed(Condition.Operand operand, ValueType type, String text) {}

    private interface Scope {
      Typed column(Column c);

      Typed function(Function f);
    }

    private boolean namesWindowOutput(String name, boolean quoted) {
      for (int i = 0; i < outputs.size(); i++) {
        OutputColumn o = outputs.get(i);
        boolean windowColumn = o.kind() == OutputColumn.Kind.WINDOW_START || o.kind() == OutputColumn.Kind.WINDOW_END;
        if (windowColumn && (quoted ? o.name().equals(name) : o.name().equalsIgnoreCase(name))) {
          return true;
        }
      }
      return !quoted && (name.equalsIgnoreCase("window_start") || name.equalsIgnoreCase("window_end"));
    }

    private CliException windowInWhere(String what) {
      return new CliException(ErrorCode.INVALID_QUERY, what + " is an output column, not an input column, so it cannot"
          + " appear in WHERE: filter the timestamp column " + inputs.get(timeInput).name()
          + " instead (e.g. WHERE " + inputs.get(timeInput).name() + " >= TIMESTAMP '2026-07-18 10:00:00'), or filter"
          + " an aggregate in HAVING");
    }

    private final class WhereScope implements Scope {
      @Override
      public Typed column(Column c) {
        checkQualifier(c);
        String name = c.getUnquotedColumnName();
        boolean quoted = !c.getColumnName().equals(name);
        if (!schema.isEmpty() && schema.resolve(name, quoted).isEmpty() && namesWindowOutput(name, quoted)) {
          throw windowInWhere(name);
        }
        String field = inputColumn(c);
        int slot = input(field);
        return new Typed(new Condition.Slot(slot), inputs.get(slot).type(), field);
      }

      @Override
      public Typed function(Function f) {
        if (windowCalls.containsKey(f)) {
          throw windowInWhere(f.toString());
        }
        if (aggregateKind(f) != null) {
          throw new CliException(ErrorCode.INVALID_QUERY, "the aggregate " + f + " cannot appear in WHERE, which"
              + " filters input rows: filter aggregates in HAVING");
        }
        throw notSupported("the function " + f.getName() + " is not supported:");
      }
    }

    /** Result rows: window start, window end, the keys, then the aggregates. */
    private final class HavingScope implements Scope {
      @Override
      public Typed column(Column c) {
        checkQualifier(c);
        String name = c.getUnquotedColumnName();
        boolean quoted = !c.getColumnName().equals(name);
        for (int i = 0; i < outputs.size(); i++) {
          String alias = outputAliases.get(i);
          if (alias != null && (quoted ? alias.equals(name) : alias.equalsIgnoreCase(name))) {
            return output(outputs.get(i));
          }
        }
        if (!quoted && name.equalsIgnoreCase("window_start")) {
          return new Typed(new Condition.Slot(START_SLOT), ValueType.TIMESTAMP, name);
        }
        if (!quoted && name.equalsIgnoreCase("window_end")) {
          return new Typed(new Condition.Slot(END_SLOT), ValueType.TIMESTAMP, name);
        }
        String field = inputColumn(c);
        int key = keyInputs.indexOf(inputIndex.getOrDefault(field, -1));
        if (key < 0) {
          throw new CliException(ErrorCode.INVALID_QUERY, "HAVING filters result rows, which have the group keys, the"
              + " window and the aggregates; " + field + " is none of them: filter input rows on it in WHERE, or use an"
              + " aggregate of it such as max(" + field + ")");
        }
        return output(new OutputColumn(field, OutputColumn.Kind.KEY, key));
      }

      @Override
      public Typed function(Function f) {
        if (windowCalls.containsKey(f)) {
          WindowCall call = sameAsGrouped(windowCalls.get(f), "HAVING");
          return new Typed(new Condition.Slot(call.end() ? END_SLOT : START_SLOT), ValueType.TIMESTAMP, f.toString());
        }
        if (aggregateKind(f) == null) {
          throw notSupported("the function " + f.getName() + " is not supported:");
        }
        return output(new OutputColumn(f.toString(), OutputColumn.Kind.AGGREGATE, aggregate(f)));
      }

      private Typed output(OutputColumn o) {
        switch (o.kind()) {
          case WINDOW_START:
            return new Typed(new Condition.Slot(START_SLOT), ValueType.TIMESTAMP, o.name());
          case WINDOW_END:
            return new Typed(new Condition.Slot(END_SLOT), ValueType.TIMESTAMP, o.name());
          case KEY:
            return new Typed(new Condition.Slot(2 + o.index()), inputs.get(keyInputs.get(o.index())).type(), o.name());
          default:
            return new Typed(new Condition.Slot(2 + keyInputs.size() + o.index()), aggregateType(o.index()), o.name());
        }
      }
    }

    private Condition condition(Expression e, Scope scope) {
      if (e instanceof AndExpression a) {
        return new Condition.And(condition(a.getLeftExpression(), scope), condition(a.getRightExpression(), scope));
      }
      if (e instanceof OrExpression o) {
        return new Condition.Or(condition(o.getLeftExpression(), scope), condition(o.getRightExpression(), scope));
      }
      if (e instanceof NotExpression n) {
        return new Condition.Not(condition(n.getExpression(), scope));
      }
      if (e instanceof Parenthesis p) {
        return condition(p.getExpression(), scope);
      }
      if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
        return condition((Expression) list.get(0), scope);
      }
      Condition.Op op = comparison(e);
      if (op != null) {
        BinaryExpression b = (BinaryExpression) e;
        return compare(op, operand(b.getLeftExpression(), scope), operand(b.getRightExpression(), scope));
      }
      if (e instanceof IsNullExpression n) {
        return new Condition.IsNull(operand(n.getLeftExpression(), scope).operand(), n.isNot());
      }
      if (e instanceof InExpression in) {
        return in(in, scope);
      }
      if (e instanceof Between b) {
        Typed value = operand(b.getLeftExpression(), scope);
        Condition range = new Condition.And(
            compare(Condition.Op.GE, value, operand(b.getBetweenExpressionStart(), scope)),
            compare(Condition.Op.LE, value, operand(b.getBetweenExpressionEnd(), scope)));
        return b.isNot() ? new Condition.Not(range) : range;
      }
      if (e instanceof Column || e instanceof BooleanValue) {
        Typed value = operand(e, scope);
        if (value.type() != null && value.type() != ValueType.BOOLEAN) {
          throw new CliException(ErrorCode.TYPE_MISMATCH, value.text() + " is " + SqlTypes.name(value.type())
              + ", not a condition: compare it, e.g. " + value.text() + " > 0");
        }
        return new Condition.Compare(Condition.Op.EQ, value.operand(), new Condition.Constant(Boolean.TRUE));
      }
      throw notSupported("the condition " + e + " is not supported: conditions compare columns, aggregates and constants"
          + " with =, <>, <, <=, >, >=, IS [NOT] NULL, [NOT] IN (...) and [NOT] BETWEEN, joined by AND, OR and NOT;");
    }

    /**
     * x [NOT] IN (a, b) as x = a OR x = b. JSqlParser 5.3 reads {@code x IN (a, b) AND y = 1} as
     * {@code x IN ((a, b) AND y = 1)}; the list is then the leftmost leaf of what follows IN,
     * and the IN binds tighter than AND and OR, so it is put back around that leaf.
     */
    private Condition in(InExpression in, Scope scope) {
      Expression right = in.getRightExpression();
      if (right instanceof AndExpression || right instanceof OrExpression) {
        BinaryExpression b = (BinaryExpression) right;
        InExpression inner = new InExpression(in.getLeftExpression(), b.getLeftExpression());
        inner.setNot(in.isNot());
        Condition left = in(inner, scope);
        Condition rest = condition(b.getRightExpression(), scope);
        return right instanceof AndExpression ? new Condition.And(left, rest) : new Condition.Or(left, rest);
      }
      if (!(right instanceof ExpressionList<?> list) || list.isEmpty()) {
        throw notSupported("the condition " + in + " is not supported: IN takes a list of constants, e.g. x IN (1, 2);");
      }
      Typed value = operand(in.getLeftExpression(), scope);
      Condition any = null;
      for (Object o : list) {
        Condition eq = compare(Condition.Op.EQ, value, operand((Expression) o, scope));
        any = any == null ? eq : new Condition.Or(any, eq);
      }
      return in.isNot() ? new Condition.Not(any) : any;
    }

    private static Condition.Op comparison(Expression e) {
      if (e instanceof EqualsTo) {
        return Condition.Op.EQ;
      }
      if (e instanceof NotEqualsTo) {
        return Condition.Op.NE;
      }
      if (e instanceof GreaterThan) {
        return Condition.Op.GT;
      }
      if (e instanceof GreaterThanEquals) {
        return Condition.Op.GE;
      }
      if (e instanceof MinorThan) {
        return Condition.Op.LT;
      }
      if (e instanceof MinorThanEquals) {
        return Condition.Op.LE;
      }
      return null;
    }

    private Typed operand(Expression e, Scope scope) {
      if (e instanceof Column c) {
        return scope.column(c);
      }
      if (e instanceof Function f) {
        return scope.function(f);
      }
      if (e instanceof Parenthesis p) {
        return operand(p.getExpression(), scope);
      }
      if (e instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
        return operand((Expression) list.get(0), scope);
      }
      if (e instanceof LongValue l) {
        return constant(wholeNumber(l, false, e), ValueType.INT64, e);
      }
      if (e instanceof DoubleValue d) {
        return constant(finite(d, e), ValueType.DOUBLE, e);
      }
      if (e instanceof SignedExpression s && s.getSign() == '-' && s.getExpression() instanceof LongValue l) {
        return constant(wholeNumber(l, true, e), ValueType.INT64, e);
      }
      if (e instanceof SignedExpression s && s.getSign() == '-' && s.getExpression() instanceof DoubleValue d) {
        return constant(-finite(d, e), ValueType.DOUBLE, e);
      }
      if (e instanceof StringValue s) {
        return constant(s.getValue().replace("''", "'"), ValueType.STRING, e);
      }
      if (e instanceof BooleanValue b) {
        return constant(b.getValue(), ValueType.BOOLEAN, e);
      }
      if (e instanceof NullValue) {
        return constant(null, null, e);
      }
      if (e instanceof TimestampValue t) {
        return constant(timestamp(unquote(t.getRawValue()), e), ValueType.TIMESTAMP, e);
      }
      if (e instanceof CastExpression cast && cast.getLeftExpression() instanceof StringValue s
          && cast.getColDataType() != null
          && cast.getColDataType().getDataType().toUpperCase(Locale.ROOT).startsWith("TIMESTAMP")) {
        return constant(timestamp(s.getValue().replace("''", "'"), e), ValueType.TIMESTAMP, e);
      }
      throw notSupported("the expression " + e + " is not supported in a condition: compare a column or an aggregate"
          + " with a constant (a number, a 'string', TIMESTAMP '2026-07-18 10:00:00', TRUE, FALSE or NULL);");
    }

    /** A whole-number literal, negated when {@code negative}, refused when it does not fit 64 bits. */
    private static long wholeNumber(LongValue l, boolean negative, Expression e) {
      BigInteger value = l.getBigIntegerValue();
      value = negative ? value.negate() : value;
      if (value.bitLength() > 63) {
        throw new CliException(ErrorCode.INVALID_QUERY, "the number " + e + " does not fit a 64-bit whole number"
            + " (BIGINT, " + Long.MIN_VALUE + " to " + Long.MAX_VALUE + "): give a smaller one, or write it with a"
            + " decimal point to compare it as a DOUBLE");
      }
      return value.longValueExact();
    }

    /** A decimal literal, refused when it is beyond the range of a DOUBLE (it would read as infinity). */
    private static double finite(DoubleValue d, Expression e) {
      if (!Double.isFinite(d.getValue())) {
        throw new CliException(ErrorCode.INVALID_QUERY, "the number " + e + " is beyond the range of a DOUBLE (at most"
            + " about 1.8E308 either way): give a smaller one");
      }
      return d.getValue();
    }

    private static Typed constant(Object value, ValueType type, Expression e) {
      return new Typed(new Condition.Constant(value), type, e.toString());
    }

    private static Instant timestamp(String text, Expression e) {
      try {
        return Instant.ofEpochMilli(TIMES.parse(text));
      } catch (EventTimeException ex) {
        throw new CliException(ErrorCode.TYPE_MISMATCH, e + " is not a timestamp: " + ex.getMessage());
      }
    }

    /** A comparison, reading a string constant compared with a TIMESTAMP as a time. */
    private Condition compare(Condition.Op op, Typed left, Typed right) {
      left = coerce(left, right);
      right = coerce(right, left);
      boolean fits = left.type() == null || right.type() == null || left.type() == right.type()
          || (left.type().isNumeric() && right.type().isNumeric());
      if (!fits) {
        throw new CliException(ErrorCode.TYPE_MISMATCH, "cannot compare " + left.text() + " (" + SqlTypes.name(left.type())
            + ") with " + right.text() + " (" + SqlTypes.name(right.type()) + "): compare values of one type");
      }
      return new Condition.Compare(op, left.operand(), right.operand());
    }

    private static Typed coerce(Typed value, Typed other) {
      if (value.type() == ValueType.STRING && other.type() == ValueType.TIMESTAMP
          && value.operand() instanceof Condition.Constant c) {
        String text = (String) c.value();
        try {
          return new Typed(new Condition.Constant(Instant.ofEpochMilli(TIMES.parse(text))), ValueType.TIMESTAMP,
              value.text());
        } catch (EventTimeException ex) {
          throw new CliException(ErrorCode.TYPE_MISMATCH, "cannot compare " + other.text() + " (TIMESTAMP) with "
              + value.text() + ": " + ex.getMessage());
        }
      }
      return value;
    }
  }

  private static String identifier(String name) {
    String t = name.trim();
    if (t.length() >= 2 && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("`") && t.endsWith("`"))) {
      return t.substring(1, t.length() - 1);
    }
    return t;
  }

  private static CliException notSupported(String what) {
    String text = what.replaceAll("[:;]$", "");
    if (text.endsWith(" is") || text.endsWith(" are")) {
      text += " not supported";
    }
    return new CliException(ErrorCode.NOT_SUPPORTED, text + ": " + SUPPORTED);
  }
}
