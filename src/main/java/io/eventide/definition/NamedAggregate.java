package io.eventide.definition;

import java.util.regex.Pattern;

/**
 * One of a pipeline's named aggregates.
 *
 * @param name its key in pane values and partials
 * @param aggregate what it computes
 * @param input where each event's value comes from; null for aggregates that read no value (count)
 */
public record NamedAggregate(String name, AggregateDefinition aggregate, AggregateInput input) {
  /** Names are JSON keys, metric tags and CEL-friendly identifiers. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
}
