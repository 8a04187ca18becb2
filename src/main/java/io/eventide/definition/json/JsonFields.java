package io.eventide.definition.json;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * Reads the fields of one JSON object of a request, recording a violation for every field that is
 * missing, of the wrong JSON type or out of range, and for every field nobody asked for. Readers
 * return a fallback (often null) after a violation so that parsing goes on and finds the rest.
 */
public final class JsonFields {
  /** Four-digit years only: calendar arithmetic far outside them is of no use to anyone. */
  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

  private final JsonNode node;
  private final String path;
  private final Violations violations;
  private final Set<String> known = new HashSet<>();

  private JsonFields(JsonNode node, String path, Violations violations) {
    this.node = node;
    this.path = path;
    this.violations = violations;
  }

  /** The fields of {@code node}, or null (with a violation) when it is not an object. */
  public static JsonFields of(JsonNode node, String path, Violations violations) {
    if (!node.isObject()) {
      violations.add(path, "must be an object");
      return null;
    }
    return new JsonFields(node, path, violations);
  }

  public String pathOf(String field) {
    return Violations.child(path, field);
  }

  public void violation(String field, String reason) {
    violations.add(pathOf(field), reason);
  }

  /** The field's value, or null when it is absent or JSON null (both mean "use the default"). */
  public JsonNode get(String field) {
    known.add(field);
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value;
  }

  /** Like {@link #get}, recording a violation when the field is absent. */
  public JsonNode require(String field) {
    JsonNode value = get(field);
    if (value == null) {
      violation(field, "is required");
    }
    return value;
  }

  public String string(String field, String fallback) {
    JsonNode value = get(field);
    if (value == null) {
      return fallback;
    }
    if (!value.isString()) {
      violation(field, "must be a string");
      return null;
    }
    return value.stringValue();
  }

  public boolean bool(String field, boolean fallback) {
    JsonNode value = get(field);
    if (value == null) {
      return fallback;
    }
    if (!value.isBoolean()) {
      violation(field, "must be true or false");
      return fallback;
    }
    return value.booleanValue();
  }

  /** One of {@code allowed}, or null with a violation listing them. */
  public String oneOf(String field, List<String> allowed, String fallback) {
    String value = string(field, fallback);
    if (value != null && !allowed.contains(value)) {
      violation(field, "must be one of " + String.join(", ", allowed) + " (got '" + value + "')");
      return null;
    }
    return value;
  }

  public <E extends Enum<E>> E choice(String field, Class<E> type, E fallback) {
    String value = oneOf(field, WireNames.all(type), WireNames.of(fallback));
    return value == null ? null : WireNames.parse(type, value);
  }

  public Duration duration(String field, Duration fallback) {
    String value = string(field, null);
    if (value == null) {
      return get(field) == null ? fallback : null;
    }
    try {
      return Durations.parse(value);
    } catch (IllegalArgumentException e) {
      violation(field, e.getMessage() + " (got '" + value + "')");
      return null;
    }
  }

  /** A duration that must not be negative. */
  public Duration nonNegativeDuration(String field, Duration fallback) {
    Duration value = duration(field, fallback);
    if (value != null && value.isNegative()) {
      violation(field, "must not be negative");
      return null;
    }
    return value;
  }

  /** A duration that must be greater than zero; required when {@code fallback} is null. */
  public Duration positiveDuration(String field, Duration fallback) {
    if (fallback == null && require(field) == null) {
      return null;
    }
    Duration value = duration(field, fallback);
    if (value != null && (value.isNegative() || value.isZero())) {
      violation(field, "must be positive");
      return null;
    }
    return value;
  }

  /** An integer in {@code [min, max]}, or {@code fallback} when absent. */
  public Long integer(String field, Long fallback, long min, long max) {
    JsonNode value = get(field);
    if (value == null) {
      return fallback;
    }
    if (!value.isNumber() || !value.canConvertToExactIntegral()) {
      violation(field, "must be an integer");
      return null;
    }
    if (!value.canConvertToLong()) {
      // Beyond a long: say which end it is past, not a range it seems to be below.
      boolean above = value.bigIntegerValue().signum() > 0;
      violation(
          field,
          above && max == Long.MAX_VALUE
              ? "must be at most " + max + " (got " + value.bigIntegerValue() + ")"
              : rangeReason(min, max));
      return null;
    }
    if (value.longValue() < min || value.longValue() > max) {
      violation(field, rangeReason(min, max));
      return null;
    }
    return value.longValue();
  }

  private static String rangeReason(long min, long max) {
    if (max == Long.MAX_VALUE) {
      return "must be at least " + min;
    }
    return "must be between " + min + " and " + max;
  }

  /** Epoch milliseconds or an ISO-8601 timestamp. */
  public Long timestamp(String field, Long fallback) {
    return time(field, fallback, Timestamps::parse);
  }

  /** Like {@link #timestamp}, and also {@code "+inf"} for the end of time. */
  public Long watermark(String field) {
    return time(field, null, Timestamps::parseWatermark);
  }

  private Long time(String field, Long fallback, ToLongFunction<JsonNode> parser) {
    JsonNode value = get(field);
    if (value == null) {
      return fallback;
    }
    try {
      return parser.applyAsLong(value);
    } catch (IllegalArgumentException e) {
      violation(field, e.getMessage());
      return null;
    }
  }

  /** An IANA time zone id such as {@code Europe/Berlin}; fixed offsets are not time zones. */
  public ZoneId timeZone(String field, ZoneId fallback) {
    String value = string(field, null);
    if (value == null) {
      return get(field) == null ? fallback : null;
    }
    if (!ZoneId.getAvailableZoneIds().contains(value)) {
      violation(field, "must be an IANA time zone id such as Europe/Berlin (got '" + value + "')");
      return null;
    }
    return ZoneId.of(value);
  }

  /** An ISO-8601 date, {@code 2026-01-01}. */
  public LocalDate date(String field, LocalDate fallback) {
    String value = string(field, null);
    if (value == null) {
      return get(field) == null ? fallback : null;
    }
    try {
      if (ISO_DATE.matcher(value).matches()) {
        return LocalDate.parse(value);
      }
    } catch (DateTimeParseException e) {
      // Falls through to the violation: the text has the shape of a date but names none.
    }
    violation(field, "must be an ISO-8601 date such as 2026-01-01 (got '" + value + "')");
    return null;
  }

  /** A JSON pointer (RFC 6901) into an event. */
  public String pointer(String field, String fallback) {
    String value = string(field, fallback);
    if (value == null) {
      return null;
    }
    try {
      JsonPointer.compile(value);
      return value;
    } catch (IllegalArgumentException e) {
      violation(field, "must be a JSON pointer such as /payload/amount (got '" + value + "')");
      return null;
    }
  }

  /** Records "unknown field" for every field that no reader asked for. */
  public void rejectUnknown() {
    for (String field : node.propertyNames()) {
      if (!known.contains(field)) {
        violation(field, "unknown field");
      }
    }
  }
}
