package io.eventide.definition.json;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Enum constants as they appear in JSON: the constant's name in lower case ({@code end_of_window}).
 */
public final class WireNames {
  private WireNames() {}

  public static String of(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }

  public static <E extends Enum<E>> List<String> all(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(WireNames::of).toList();
  }

  /** The constant whose wire name is {@code name}, or null. */
  public static <E extends Enum<E>> E parse(Class<E> type, String name) {
    for (E constant : type.getEnumConstants()) {
      if (of(constant).equals(name)) {
        return constant;
      }
    }
    return null;
  }
}
