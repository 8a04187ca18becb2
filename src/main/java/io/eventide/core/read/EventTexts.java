package io.eventide.core.read;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A batch of events as the JSON texts they came as, each a slice of a UTF-8 byte array: a body is
 * cut into events without copying or parsing them, each is read once by {@link EventReader} in a
 * streaming pass, and it goes on as its own bytes (the cluster's ingest log) or, only when it
 * becomes a dead letter, as a tree. The arrays are not copied: whoever adds a slice leaves it
 * unchanged while the batch is in use. A text may be a CloudEvent ({@link #addCloudEvent}), which a
 * batch of plain events pays nothing for.
 */
public final class EventTexts {
  /**
   * Reads the trees of texts already read under the pipeline's limits: whatever limits are
   * configured, a text that passed them is not refused here.
   */
  private static final JsonMapper TREES =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(Integer.MAX_VALUE)
                          .maxNumberLength(Integer.MAX_VALUE)
                          .maxStringLength(Integer.MAX_VALUE)
                          .build())
                  .build())
          .build();

  private byte[][] arrays;
  private int[] offsets;
  private int[] lengths;
  private int size;
  private long byteCount;

  /** Which texts are structured CloudEvents; null while none is, as in a batch of plain events. */
  private boolean[] cloudEvents;

  public EventTexts(int capacity) {
    int c = Math.max(1, capacity);
    arrays = new byte[c][];
    offsets = new int[c];
    lengths = new int[c];
  }

  /** Each event written as JSON: for callers that hold trees ({@code /simulate}, tests). */
  public static EventTexts of(List<JsonNode> events) {
    EventTexts texts = new EventTexts(events.size());
    for (JsonNode event : events) {
      texts.add(JsonMapper.shared().writeValueAsBytes(event));
    }
    return texts;
  }

  public void add(byte[] text) {
    add(text, 0, text.length);
  }

  public void add(byte[] array, int offset, int length) {
    if (size == arrays.length) {
      int c = size * 2;
      arrays = Arrays.copyOf(arrays, c);
      offsets = Arrays.copyOf(offsets, c);
      lengths = Arrays.copyOf(lengths, c);
      if (cloudEvents != null) {
        cloudEvents = Arrays.copyOf(cloudEvents, c);
      }
    }
    arrays[size] = array;
    offsets[size] = offset;
    lengths[size] = length;
    size++;
    byteCount += length;
  }

  /**
   * Adds a CloudEvent in the JSON event format: {@link EventReader} reads its attributes, and the
   * pipeline's pointers inside its {@code data}.
   */
  public void addCloudEvent(byte[] array, int offset, int length) {
    add(array, offset, length);
    if (cloudEvents == null) {
      cloudEvents = new boolean[arrays.length];
    }
    cloudEvents[size - 1] = true;
  }

  public void addCloudEvent(byte[] text) {
    addCloudEvent(text, 0, text.length);
  }

  /** Whether text {@code i} is a CloudEvent ({@link #addCloudEvent}). */
  public boolean isCloudEvent(int i) {
    return cloudEvents != null && cloudEvents[i];
  }

  public int size() {
    return size;
  }

  /** The texts' bytes, all together. */
  public long byteCount() {
    return byteCount;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public byte[] array(int i) {
    return arrays[i];
  }

  public int offset(int i) {
    return offsets[i];
  }

  public int length(int i) {
    return lengths[i];
  }

  /** Text {@code i}'s bytes, as a copy of their own. */
  public byte[] bytes(int i) {
    return Arrays.copyOfRange(arrays[i], offsets[i], offsets[i] + lengths[i]);
  }

  /** Text {@code i} decoded, malformed UTF-8 replaced: how a text that is not JSON is kept. */
  public String string(int i) {
    return new String(arrays[i], offsets[i], lengths[i], StandardCharsets.UTF_8);
  }

  /** Text {@code i} as a tree; only for a text {@link EventReader} found to be JSON. */
  public JsonNode tree(int i) {
    return TREES.readTree(arrays[i], offsets[i], lengths[i]);
  }
}
