package io.eventide.definition.beam;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.node.ObjectNode;

/**
 * One SDK's vocabulary: the names it gives triggers and windows, the methods it chains onto them
 * and how it writes durations. Every form translates to the JSON form of Eventide's definitions, so
 * the JSON readers check an expression exactly as they check a tree.
 */
final class Dialect {
  /** What an expression describes. */
  enum Kind {
    TRIGGER,
    WINDOW;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Builds the JSON node of a called name from its arguments. */
  interface Build {
    ObjectNode build(BoundArguments arguments, Translator t);
  }

  /** Applies a chained method to the node built so far, returning the resulting node. */
  interface Modify {
    ObjectNode apply(ObjectNode target, BoundArguments arguments, Translator t);
  }

  /** Reads an expression in a position that takes a duration. */
  interface DurationReader {
    Duration read(Expression expression, Translator t);
  }

  record Form(List<Param> params, Build build) {}

  /**
   * A chained method.
   *
   * @param target the nodes it can follow, as their JSON
   */
  record Method(Predicate<ObjectNode> target, List<Param> params, Modify modify) {}

  private final String name;
  private final boolean keywordArguments;
  private final DurationReader durations;
  private final Map<Kind, String> optionalPrefixes = new EnumMap<>(Kind.class);
  private final Map<Kind, Map<String, Form>> forms = new EnumMap<>(Kind.class);
  private final Map<Kind, Map<String, List<Method>>> methods = new EnumMap<>(Kind.class);

  /**
   * @param keywordArguments whether calls may name their arguments ({@code early=…})
   */
  Dialect(String name, boolean keywordArguments, DurationReader durations) {
    this.name = name;
    this.keywordArguments = keywordArguments;
    this.durations = durations;
    for (Kind kind : Kind.values()) {
      forms.put(kind, new LinkedHashMap<>());
      methods.put(kind, new LinkedHashMap<>());
    }
  }

  /** Lets names of {@code kind} be written with {@code prefix} too, as Python's imports allow. */
  Dialect optionalPrefix(Kind kind, String prefix) {
    optionalPrefixes.put(kind, prefix);
    return this;
  }

  Dialect form(Kind kind, String key, List<Param> params, Build build) {
    forms.get(kind).put(key, new Form(params, build));
    return this;
  }

  Dialect method(
      Kind kind, String name, Predicate<ObjectNode> target, List<Param> params, Modify modify) {
    methods
        .get(kind)
        .computeIfAbsent(name, n -> new ArrayList<>())
        .add(new Method(target, params, modify));
    return this;
  }

  String name() {
    return name;
  }

  boolean keywordArguments() {
    return keywordArguments;
  }

  Duration duration(Expression expression, Translator t) {
    return durations.read(expression, t);
  }

  /** The form called {@code key}, or null. */
  Form form(Kind kind, String key) {
    Form form = forms.get(kind).get(key);
    String prefix = optionalPrefixes.get(kind);
    if (form == null && prefix != null && key.startsWith(prefix)) {
      form = forms.get(kind).get(key.substring(prefix.length()));
    }
    return form;
  }

  /** The method {@code name} that can follow {@code target}, or null. */
  Method method(Kind kind, String name, ObjectNode target) {
    return methods.get(kind).getOrDefault(name, List.of()).stream()
        .filter(m -> m.target().test(target))
        .findFirst()
        .orElse(null);
  }

  /** The names of the forms of {@code kind}, for messages about unknown names. */
  String knownForms(Kind kind) {
    String prefix = optionalPrefixes.get(kind);
    return String.join(", ", forms.get(kind).keySet())
        + (prefix == null ? "" : ", each optionally prefixed " + prefix);
  }

  /** The names of the methods that can follow {@code target}. */
  String knownMethods(Kind kind, ObjectNode target) {
    List<String> names = new ArrayList<>();
    methods
        .get(kind)
        .forEach(
            (n, list) -> {
              if (list.stream().anyMatch(m -> m.target().test(target))) {
                names.add(n);
              }
            });
    return names.isEmpty() ? "none" : String.join(", ", names);
  }

  /** A target predicate: nodes whose {@code type} is one of {@code types}. */
  static Predicate<ObjectNode> type(String... types) {
    return node -> List.of(types).contains(node.get("type").stringValue());
  }

  /** A target predicate: calendar windows of one of {@code units}. */
  static Predicate<ObjectNode> calendar(String... units) {
    return node ->
        node.get("type").stringValue().equals("calendar")
            && List.of(units).contains(node.get("unit").stringValue());
  }

  static Predicate<ObjectNode> any() {
    return node -> true;
  }
}
