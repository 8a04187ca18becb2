package io.eventide.engine;

import java.util.Comparator;

/**
 * The order of keys wherever windows are listed by key: by Unicode code point, which is the order
 * of the keys' UTF-8 bytes, the order Redis keeps a sorted set's members in ({@code ZRANGE …
 * BYLEX}) and the results' order by key. {@link String#compareTo} compares UTF-16 units instead,
 * which puts a key with a character beyond the BMP (two surrogates, 0xD800–0xDFFF) before one with
 * a character in 0xE000–0xFFFF, where their bytes have it after: pages read from the two orders
 * would skip or repeat keys.
 */
public final class KeyOrder {
  public static final Comparator<String> ORDER = KeyOrder::compare;

  private KeyOrder() {}

  public static int compare(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        // Below 0xD800 units order as code points; from there a surrogate (a code point beyond
        // 0xFFFF) goes after 0xE000–0xFFFF, so both are moved to where their code points sort.
        return x >= 0xD800 && y >= 0xD800 ? codePointRank(x) - codePointRank(y) : x - y;
      }
    }
    return a.length() - b.length();
  }

  /** 0xE000–0xFFFF down to 0xD800–0xF7FF, surrogates up to 0xF800–0xFFFF. */
  private static int codePointRank(char c) {
    return c >= 0xE000 ? c - 0x800 : c + 0x2000;
  }
}
