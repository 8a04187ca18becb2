package io.eventide.core.read;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonPointer;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * The distinct JSON pointers a reader reads, found in an event's tokens in one pass: a field no
 * pointer leads into is skipped without being built, and each pointer's value lands in its {@link
 * FieldValue}. Matching follows {@link JsonNode#at(JsonPointer)}: a segment names an object's
 * property, or, when it is an index, an array's element.
 */
final class FieldPointers {
  private final List<String> paths = new ArrayList<>();
  private final List<JsonPointer> compiled = new ArrayList<>();
  private final List<Boolean> numberOnly = new ArrayList<>();
  private final List<Boolean> repeating = new ArrayList<>();

  /** Keys and sources: the strings that come back event after event. */
  private final RepeatedStrings repeated = new RepeatedStrings(16_384);

  private String[][] names;
  private int[][] indexes;
  private JsonPointer[][] tails;
  private boolean[] onlyNumbers;
  private boolean[] repeats;
  private int[] all;
  private boolean rootRead;

  /**
   * The slot of {@code path}, added when new.
   *
   * @param number whether this use reads only the value's number
   * @param repeats whether this use reads a string that comes back from event to event (a key, a
   *     source), which is then kept rather than made again
   */
  int slot(String path, boolean number, boolean repeats) {
    int i = paths.indexOf(path);
    if (i < 0) {
      paths.add(path);
      compiled.add(JsonPointer.compile(path));
      numberOnly.add(number);
      repeating.add(repeats);
      return paths.size() - 1;
    }
    numberOnly.set(i, numberOnly.get(i) && number);
    repeating.set(i, repeating.get(i) || repeats);
    return i;
  }

  /** Ends the adding of slots. */
  void compile() {
    int n = paths.size();
    names = new String[n][];
    indexes = new int[n][];
    tails = new JsonPointer[n][];
    onlyNumbers = new boolean[n];
    repeats = new boolean[n];
    all = new int[n];
    for (int s = 0; s < n; s++) {
      List<JsonPointer> steps = new ArrayList<>();
      for (JsonPointer p = compiled.get(s); !p.matches(); p = p.tail()) {
        steps.add(p);
      }
      rootRead |= steps.isEmpty();
      names[s] = steps.stream().map(JsonPointer::getMatchingProperty).toArray(String[]::new);
      indexes[s] = steps.stream().mapToInt(JsonPointer::getMatchingIndex).toArray();
      tails[s] = steps.stream().map(JsonPointer::tail).toArray(JsonPointer[]::new);
      onlyNumbers[s] = numberOnly.get(s);
      repeats[s] = repeating.get(s);
      all[s] = s;
    }
  }

  /** Whether a pointer reads the whole event, which then has to be a tree. */
  boolean readsRoot() {
    return rootRead;
  }

  FieldValue[] values() {
    FieldValue[] values = new FieldValue[paths.size()];
    Arrays.setAll(values, i -> new FieldValue());
    return values;
  }

  /** Each pointer's value in {@code event}. */
  void find(JsonNode event, FieldValue[] into) {
    for (int s = 0; s < into.length; s++) {
      into[s].set(event.at(compiled.get(s)));
    }
  }

  /**
   * Each pointer's value in the object the parser is at the start of, which it reads to its end,
   * refusing a property name given twice in any object of it (the parser does not: see {@link
   * JsonLimits#eventMapper()}).
   */
  void find(JsonParser p, FieldValue[] into, PropertyNames seen) {
    clear(into);
    seen.reset();
    object(p, into, seen, all, all.length, 0);
  }

  static void clear(FieldValue[] values) {
    for (FieldValue v : values) {
      v.clear();
    }
  }

  /**
   * Each pointer's value in the value the parser is at ({@code first} its first token) within a
   * larger object, the {@code data} of a CloudEvent, which it reads to its end: the pointers lead
   * into it as into an event. {@code seen} is the larger object's; values found before are kept.
   */
  void findIn(JsonParser p, JsonToken first, FieldValue[] into, PropertyNames seen) {
    if (first == JsonToken.START_OBJECT) {
      object(p, into, seen, all, all.length, 0);
    } else {
      seen.skip(p, first);
    }
  }

  /**
   * Takes the value the parser is at into {@code into}, as a pointer's would be taken: a string
   * that comes back event after event ({@code repeats}: a CloudEvent's source or type) is kept.
   */
  void read(JsonParser p, JsonToken value, FieldValue into, boolean repeats) {
    into.read(p, value, false, repeats ? repeated : null);
  }

  private void object(
      JsonParser p, FieldValue[] into, PropertyNames seen, int[] candidates, int count, int depth) {
    seen.enter();
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      seen.add(p, name);
      member(p, p.nextToken(), into, seen, candidates, count, depth, name, -1);
    }
    seen.exit();
  }

  private void array(
      JsonParser p, FieldValue[] into, PropertyNames seen, int[] candidates, int count, int depth) {
    int index = 0;
    for (JsonToken value = p.nextToken(); value != JsonToken.END_ARRAY; value = p.nextToken()) {
      member(p, value, into, seen, candidates, count, depth, null, index++);
    }
  }

  /**
   * The member the parser is at, of an object (named {@code name}) or of an array (at {@code
   * index}, {@code name} null): the pointers among {@code candidates} that lead to it end here or
   * go deeper.
   */
  private void member(
      JsonParser p,
      JsonToken value,
      FieldValue[] into,
      PropertyNames seen,
      int[] candidates,
      int count,
      int depth,
      String name,
      int index) {
    int ending = -1;
    int[] deeper = null;
    int deeperCount = 0;
    for (int c = 0; c < count; c++) {
      int s = candidates[c];
      if (name != null ? name.equals(names[s][depth]) : indexes[s][depth] == index) {
        if (names[s].length == depth + 1) {
          ending = s;
        } else {
          if (deeper == null) {
            deeper = new int[count];
          }
          deeper[deeperCount++] = s;
        }
      }
    }
    take(p, value, into, seen, ending, deeper, deeperCount, depth);
  }

  /** The value the parser is at: what ends here is taken, what goes deeper is looked for in it. */
  private void take(
      JsonParser p,
      JsonToken value,
      FieldValue[] into,
      PropertyNames seen,
      int ending,
      int[] deeper,
      int deeperCount,
      int depth) {
    if (deeper == null) {
      if (ending >= 0) {
        into[ending].read(p, value, onlyNumbers[ending], repeats[ending] ? repeated : null);
      } else {
        seen.skip(p, value);
      }
    } else if (ending >= 0) {
      JsonNode node = p.readValueAsTree();
      into[ending].set(node);
      for (int c = 0; c < deeperCount; c++) {
        int s = deeper[c];
        into[s].set(node.at(tails[s][depth]));
      }
    } else if (value == JsonToken.START_OBJECT) {
      object(p, into, seen, deeper, deeperCount, depth + 1);
    } else if (value == JsonToken.START_ARRAY) {
      array(p, into, seen, deeper, deeperCount, depth + 1);
    }
  }
}
