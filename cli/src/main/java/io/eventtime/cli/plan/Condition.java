package io.eventtime.cli.plan;

import io.eventtime.core.Values;
import java.io.Serializable;

/**
 * A WHERE or HAVING condition, bound to slots of a row of values, evaluated with SQL's three
 * values: {@code TRUE}, {@code FALSE} and unknown ({@code null}, what a comparison with NULL
 * gives). A row passes only when the condition is {@code TRUE}.
 */
public sealed interface Condition extends Serializable {

  Boolean eval(Object[] row);

  default boolean accepts(Object[] row) {
    return Boolean.TRUE.equals(eval(row));
  }

  /** A value of a condition: a slot of the row or a constant. */
  sealed interface Operand extends Serializable {
    Object value(Object[] row);
  }

  record Slot(int index) implements Operand {
    @Override
    public Object value(Object[] row) {
      return row[index];
    }
  }

  record Constant(Object value) implements Operand {
    @Override
    public Object value(Object[] row) {
      return value;
    }
  }

  enum Op {
    EQ, NE, LT, LE, GT, GE;

    boolean holds(int c) {
      switch (this) {
        case EQ:
          return c == 0;
        case NE:
          return c != 0;
        case LT:
          return c < 0;
        case LE:
          return c <= 0;
        case GT:
          return c > 0;
        default:
          return c >= 0;
      }
    }
  }

  record Compare(Op op, Operand left, Operand right) implements Condition {
    @Override
    public Boolean eval(Object[] row) {
      Object l = left.value(row);
      Object r = right.value(row);
      if (l == null || r == null) {
        return null;
      }
      return op.holds(Values.compare(l, r));
    }
  }

  record IsNull(Operand operand, boolean negated) implements Condition {
    @Override
    public Boolean eval(Object[] row) {
      return (operand.value(row) == null) != negated;
    }
  }

  record And(Condition left, Condition right) implements Condition {
    @Override
    public Boolean eval(Object[] row) {
      Boolean l = left.eval(row);
      if (Boolean.FALSE.equals(l)) {
        return false;
      }
      Boolean r = right.eval(row);
      if (Boolean.FALSE.equals(r)) {
        return false;
      }
      return l == null || r == null ? null : true;
    }
  }

  record Or(Condition left, Condition right) implements Condition {
    @Override
    public Boolean eval(Object[] row) {
      Boolean l = left.eval(row);
      if (Boolean.TRUE.equals(l)) {
        return true;
      }
      Boolean r = right.eval(row);
      if (Boolean.TRUE.equals(r)) {
        return true;
      }
      return l == null || r == null ? null : false;
    }
  }

  record Not(Condition inner) implements Condition {
    @Override
    public Boolean eval(Object[] row) {
      Boolean v = inner.eval(row);
      return v == null ? null : !v;
    }
  }
}
