package io.eventtime.hop;

import io.eventtime.core.TimeText;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.StringJoiner;

/** Rows as text for exact assertions: values joined by |, dates as the core writes them (UTC). */
public final class Rows {
  private Rows() {}

  public static String text(Object[] row, int size) {
    StringJoiner j = new StringJoiner("|");
    for (int i = 0; i < size; i++) {
      Object v = row[i];
      j.add(v instanceof Date d ? TimeText.format(d.getTime()) : String.valueOf(v));
    }
    return j.toString();
  }

  public static List<String> text(List<Object[]> rows, int size) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(text(r, size)));
    return out;
  }

  public static List<String> text(List<Object[]> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(text(r, r.length)));
    return out;
  }
}
