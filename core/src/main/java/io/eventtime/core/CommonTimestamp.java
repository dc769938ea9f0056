package io.eventtime.core;

/**
 * Reads the timestamp shape almost every event stream uses, {@code 2026-07-18 10:00:03},
 * optionally with {@code T} for the space, a fraction of a second and a trailing {@code Z},
 * straight from its digits: the general ISO-8601 parser costs several times more per row. Any
 * other shape, or a field out of range, is left to the general parser (which also says what is
 * wrong), so the two always agree.
 */
final class CommonTimestamp {
  /** What {@link #parse} returns for a string it leaves to the general parser. */
  static final long NOT_COMMON = Long.MIN_VALUE;

  private CommonTimestamp() {}

  /**
   * The epoch milliseconds of {@code s}, or {@link #NOT_COMMON}. A time without {@code Z} is
   * read as UTC only when {@code localIsUtc}; otherwise it is not common.
   */
  static long parse(String s, boolean localIsUtc) {
    int n = s.length();
    if (n < 19 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(13) != ':' || s.charAt(16) != ':') {
      return NOT_COMMON;
    }
    char sep = s.charAt(10);
    if (sep != ' ' && sep != 'T' && sep != 't') {
      return NOT_COMMON;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return NOT_COMMON;
    }
    int i = 19;
    int millis = 0;
    if (i < n && s.charAt(i) == '.') {
      int start = ++i;
      while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        if (i - start < 3) {
          millis = millis * 10 + (s.charAt(i) - '0');
        }
        i++;
      }
      int count = i - start;
      if (count == 0 || count > 9) {
        return NOT_COMMON;
      }
      for (int k = count; k < 3; k++) {
        millis *= 10;
      }
    }
    if (i < n && (s.charAt(i) == 'Z' || s.charAt(i) == 'z')) {
      i++;
    } else if (!localIsUtc) {
      return NOT_COMMON;
    }
    if (i != n) {
      return NOT_COMMON;
    }
    long days = daysFromCivil(year, month, day);
    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
  }

  private static int digits(String s, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static int daysIn(int year, int month) {
    switch (month) {
      case 2:
        return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4:
      case 6:
      case 9:
      case 11:
        return 30;
      default:
        return 31;
    }
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse). */
  private static long daysFromCivil(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400);
    long yoe = y - era * 400;
    long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  }
}
