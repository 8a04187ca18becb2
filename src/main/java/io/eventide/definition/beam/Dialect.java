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
    TRIGGER("trigger"),
    WINDOW("window"),
    /** A whole {@code Window.into(…)…}: the window, its trigger and the other settings. */
    WINDOWING("windowing chain");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }

    /** The field of a definition that holds an expression of this kind. */
    String field() {
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

  /**
   * Refuses what the SDK refuses of a whole call chain once its methods are applied, such as a
   * trigger without the allowed lateness Beam's Java SDK asks for with it.
   */
  interface Check {
    void check(ObjectNode node, Expression.Chain chain);
  }

  record Form(List<Param> params, Build build, Check check) {}

  /**
   * A chained method.
   *
   * @param target the nodes it can follow, as their JSON
   */
  record Method(Predicate<ObjectNode> target, List<Param> params, Modify modify) {}

  private final String name;
  private final boolean keywordArguments;
  private boolean typeArguments;
  private final DurationReader durations;
  private final Map<Kind, List<String>> optionalPrefixes = new EnumMap<>(Kind.class);
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

  /**
   * Lets names of {@code kind} be written with any of {@code prefixes} too, as Python's imports
   * allow.
   */
  Dialect optionalPrefix(Kind kind, String... prefixes) {
    optionalPrefixes.put(kind, List.of(prefixes));
    return this;
  }

  /** Lets calls carry Java's explicit type arguments ({@code Window.<String>into}). */
  Dialect allowTypeArguments() {
    typeArguments = true;
    return this;
  }

  Dialect form(Kind kind, String key, List<Param> params, Build build) {
    return form(kind, key, params, build, (node, chain) -> {});
  }

  Dialect form(Kind kind, String key, List<Param> params, Build build, Check check) {
    forms.get(kind).put(key, new Form(params, build, check));
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

  boolean typeArguments() {
    return typeArguments;
  }

  Duration duration(Expression expression, Translator t) {
    return durations.read(expression, t);
  }

  /** The form called {@code key}, or null. */
  Form form(Kind kind, String key) {
    Form form = forms.get(kind).get(key);
    return form != null ? form : forms.get(kind).get(unprefixed(kind, key));
  }

  /** Whether {@code key} names a form of {@code kind} as it is written, without a prefix. */
  boolean knowsAsWritten(Kind kind, String key) {
    return forms.get(kind).containsKey(key);
  }

  /**
   * {@code name} without the first of the optional prefixes of {@code kind} it starts with: also
   * the constants of a module, such as Python's {@code trigger.AccumulationMode}, are written with
   * or without the prefix of the names of its kind.
   */
  String unprefixed(Kind kind, String name) {
    for (String prefix : optionalPrefixes(kind)) {
      if (name.startsWith(prefix)) {
        return name.substring(prefix.length());
      }
    }
    return name;
  }

  private List<String> optionalPrefixes(Kind kind) {
    return optionalPrefixes.getOrDefault(kind, List.of());
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
    String prefixes = prefixes(kind);
    return String.join(", ", forms.get(kind).keySet())
        + (prefixes.isEmpty() ? "" : ", each " + prefixes);
  }

  /** {@code optionally prefixed …} with the optional prefixes of {@code kind}, or nothing. */
  String prefixes(Kind kind) {
    List<String> prefixes = optionalPrefixes(kind);
    return prefixes.isEmpty() ? "" : "optionally prefixed " + String.join(" or ", prefixes);
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
