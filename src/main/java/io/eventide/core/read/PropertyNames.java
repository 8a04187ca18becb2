package io.eventide.core.read;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;

/**
 * The property names of the objects a streaming read of one event is inside, so that a name given
 * twice in one object is refused as the strict parser refuses it. The parser's own detection makes
 * a hash set for every object of more than two names, which cost more than the rest of reading a
 * small event; here the names of an object are compared one by one, and only an object with many
 * names gets a set. One per reading: it is reused from event to event.
 */
final class PropertyNames {
  /** Names an object may have before they are looked up in a set rather than one by one. */
  private static final int SCANNED = 16;

  private String[] names = new String[64];
  private int size;

  /** Where each open object's names start in {@link #names}. */
  private int[] starts = new int[16];

  /** The set of each open object that outgrew the scan, by depth; null where none did. */
  private Set<String>[] sets = newSets(16);

  private int depth;

  /** Forgets every object: a read that failed may have left some open. */
  void reset() {
    Arrays.fill(names, 0, size, null);
    size = 0;
    for (int d = 0; d < depth; d++) {
      sets[d] = null;
    }
    depth = 0;
  }

  /** An object starts. */
  void enter() {
    if (depth == starts.length) {
      starts = Arrays.copyOf(starts, depth * 2);
      sets = Arrays.copyOf(sets, depth * 2);
    }
    starts[depth++] = size;
  }

  /** The object that started last ends. */
  void exit() {
    depth--;
    Arrays.fill(names, starts[depth], size, null);
    size = starts[depth];
    sets[depth] = null;
  }

  /**
   * The current object's next property name.
   *
   * @throws StreamReadException when the object has already given it
   */
  void add(JsonParser p, String name) {
    int d = depth - 1;
    Set<String> set = sets[d];
    if (set != null) {
      if (!set.add(name)) {
        throw duplicate(p, name);
      }
      return;
    }
    int start = starts[d];
    for (int i = start; i < size; i++) {
      if (names[i].equals(name)) {
        throw duplicate(p, name);
      }
    }
    if (size - start < SCANNED) {
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
      }
      names[size++] = name;
    } else {
      set = new HashSet<>(Arrays.asList(names).subList(start, size));
      set.add(name);
      sets[d] = set;
    }
  }

  /**
   * Skips the value the parser is at (its first token is {@code value}), checking the names of
   * every object within it.
   */
  void skip(JsonParser p, JsonToken value) {
    if (value != JsonToken.START_OBJECT && value != JsonToken.START_ARRAY) {
      return;
    }
    if (value == JsonToken.START_OBJECT) {
      enter();
    }
    for (int open = 1; open > 0; ) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new StreamReadException(p, "Unexpected end-of-input within a value");
      }
      switch (t) {
        case START_OBJECT -> {
          open++;
          enter();
        }
        case START_ARRAY -> open++;
        case END_OBJECT -> {
          open--;
          exit();
        }
        case END_ARRAY -> open--;
        case PROPERTY_NAME -> add(p, p.currentName());
        default -> {}
      }
    }
  }

  private static StreamReadException duplicate(JsonParser p, String name) {
    return new StreamReadException(p, "Duplicate Object property \"" + name + "\"");
  }

  @SuppressWarnings("unchecked")
  private static Set<String>[] newSets(int n) {
    return (Set<String>[]) new Set<?>[n];
  }
}
