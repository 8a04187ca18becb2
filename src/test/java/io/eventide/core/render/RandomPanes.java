package io.eventide.core.render;

import io.eventide.definition.EventPointers;
import io.eventide.definition.KeyFields;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Panes drawn at random from everything a pane record has to show: every kind of aggregate value
 * and payload, numbers at the edges of their types, text that needs escaping, composite keys,
 * retractions, the global window and the bounds of time.
 */
final class RandomPanes {
  /** Characters that JSON escapes, or that a writer might: controls, quotes, non-ASCII. */
  private static final String AWKWARD =
      "\u0000\u0001\u0008\t\n\f\r\u001b\u001f\"\\/\u007f\u0080\u00a0é\u00ffŁ\u2028\u2029€中\ufeff\uffff";

  private static final String[] SURROGATES = {"😀", "\ud800", "\udfff", "\udc00\ud800", "𝄞x"};

  private static final double[] EDGE_DOUBLES = {
    0.0,
    -0.0,
    0.1,
    -1.5,
    1.0 / 3,
    45.0,
    1e7,
    1e-3,
    9.999999e6,
    1.0e-7,
    1e21,
    1e22,
    1e300,
    0x1p53,
    0x1p53 + 2,
    Double.MIN_VALUE,
    Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY
  };

  private static final long[] EDGE_TIMES = {
    0, 1, 59_999, Timestamps.LATEST, Time.GLOBAL_MAX_TIMESTAMP, Time.GLOBAL_MAX_TIMESTAMP + 1, -1
  };

  /** Composite keys' pointers, some of whose names need escaping. */
  private static final List<KeyFields> KEYS =
      List.of(
          EventPointers.DEFAULT.keyFields(),
          new KeyFields(List.of("/region", "/endpoint")),
          new KeyFields(List.of("/a/b~1c", "/é", "/q\"t", "/tab\t")),
          new KeyFields(List.of("/x", "/y", "/z")));

  private final SplittableRandom random;

  RandomPanes(long seed) {
    this.random = new SplittableRandom(seed);
  }

  KeyFields keys() {
    return KEYS.get(random.nextInt(KEYS.size()));
  }

  Pane pane(KeyFields keys) {
    Window window = random.nextInt(8) == 0 ? Window.GLOBAL : window();
    boolean retraction = random.nextInt(4) == 0;
    Timing timing = Timing.values()[random.nextInt(Timing.values().length)];
    return new Pane(
        key(keys),
        window,
        aggregate(),
        random.nextInt(3) == 0 ? partial() : null,
        time(),
        new PaneInfo(
            random.nextInt(1000),
            random.nextInt(1000) - 1,
            timing,
            random.nextBoolean(),
            random.nextBoolean()),
        retraction,
        retraction ? random.nextInt(1000) : -1,
        retraction ? null : restatement(),
        time(),
        time(),
        watermark());
  }

  /** None, an index only (discarding mode) or an index and a value, null included. */
  private Pane.Restatement restatement() {
    return switch (random.nextInt(4)) {
      case 0 -> Pane.Restatement.indexOnly(random.nextInt(1000));
      case 1 -> Pane.Restatement.of(random.nextInt(1000), aggregate());
      case 2 -> Pane.Restatement.of(random.nextInt(1000), null);
      default -> null;
    };
  }

  String text(int maxLength) {
    int length = random.nextInt(maxLength + 1);
    StringBuilder out = new StringBuilder();
    while (out.length() < length) {
      switch (random.nextInt(6)) {
        case 0 -> out.append(AWKWARD.charAt(random.nextInt(AWKWARD.length())));
        case 1 -> out.append(SURROGATES[random.nextInt(SURROGATES.length)]);
        case 2 -> out.append(random.nextBoolean() ? '|' : '\\');
        case 3 -> out.append((char) random.nextInt(0x10000));
        default -> out.append((char) ('a' + random.nextInt(26)));
      }
    }
    return out.toString();
  }

  private String key(KeyFields keys) {
    if (!keys.composite()) {
      return text(12);
    }
    // Fewer values than fields shows the missing ones as null; more are not shown.
    String[] values = new String[1 + random.nextInt(keys.pointers().size() + 1)];
    for (int i = 0; i < values.length; i++) {
      values[i] = text(8);
    }
    return KeyFields.join(values);
  }

  private Window window() {
    long start = random.nextLong(Timestamps.LATEST);
    return new Window(start, start + 1 + random.nextLong(86_400_000L));
  }

  private long time() {
    return random.nextInt(4) == 0
        ? EDGE_TIMES[random.nextInt(EDGE_TIMES.length)]
        : random.nextLong(Timestamps.LATEST + 1);
  }

  private long watermark() {
    return switch (random.nextInt(6)) {
      case 0 -> Time.MIN;
      case 1 -> Time.MAX;
      default -> time();
    };
  }

  /** The shapes aggregates give: a number, ohlc, a collect's list, a latest's payload, named. */
  private Object aggregate() {
    return switch (random.nextInt(6)) {
      case 0 -> number();
      case 1 -> ohlc();
      case 2 -> payloads();
      case 3 -> payload(3);
      case 4 -> named();
      default -> plain(3);
    };
  }

  private Map<String, Object> ohlc() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String name : List.of("open", "high", "low", "close")) {
      out.put(name, number());
    }
    return out;
  }

  private List<Object> payloads() {
    List<Object> out = new ArrayList<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.add(payload(3));
    }
    return out;
  }

  private Map<String, Object> named() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.put(text(6), aggregate());
    }
    return out;
  }

  private Map<String, Object> partial() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("sum", number());
    out.put("count", random.nextLong());
    return out;
  }

  /** An event's payload as {@link PlainValues#fromJson} gives it, in any kind of map. */
  private Map<String, Object> payload(int depth) {
    Map<String, Object> out =
        switch (random.nextInt(3)) {
          case 0 -> new HashMap<>();
          case 1 -> new TreeMap<>();
          default -> new LinkedHashMap<>();
        };
    for (int i = random.nextInt(6); i > 0; i--) {
      out.put(text(6), plain(depth - 1));
    }
    return out;
  }

  private Object plain(int depth) {
    int kinds = depth > 0 ? 7 : 5;
    return switch (random.nextInt(kinds)) {
      case 0 -> null;
      case 1 -> random.nextBoolean();
      case 2, 3 -> number();
      case 4 -> text(10);
      case 5 -> payload(depth);
      default -> list(depth);
    };
  }

  private Object list(int depth) {
    List<Object> out = new ArrayList<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.add(plain(depth - 1));
    }
    return random.nextBoolean() ? out : Collections.unmodifiableList(out);
  }

  private BigInteger bigInteger() {
    BigInteger magnitude = new BigInteger(1 + random.nextInt(200), new Random(random.nextLong()));
    return random.nextBoolean() ? magnitude : magnitude.negate();
  }

  private Number number() {
    return switch (random.nextInt(10)) {
      case 0 -> random.nextInt();
      case 1 -> random.nextLong();
      case 2 -> (short) random.nextInt();
      case 3 -> (byte) random.nextInt();
      case 4 -> Float.intBitsToFloat(random.nextInt());
      case 5 -> bigInteger();
      case 6 -> new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(41) - 20);
      case 7 -> EDGE_DOUBLES[random.nextInt(EDGE_DOUBLES.length)];
      case 8 -> random.nextInt(1_000_000) / 100.0;
      default -> Double.longBitsToDouble(random.nextLong());
    };
  }
}
