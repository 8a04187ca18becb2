package io.eventide.sink;

import io.eventide.config.OutputProperties;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/** The most recent dead letters of each pipeline, in a bounded ring. */
@Component
public class DeadLetterStore implements DeadLetterListener {
  private final Map<String, ArrayDeque<DeadLetter>> letters = new ConcurrentHashMap<>();
  private final int capacity;

  public DeadLetterStore(OutputProperties properties) {
    this.capacity = properties.deadLettersPerPipeline();
  }

  @Override
  public void onDeadLetters(String pipeline, List<DeadLetter> batch) {
    ArrayDeque<DeadLetter> ring = letters.computeIfAbsent(pipeline, p -> new ArrayDeque<>());
    synchronized (ring) {
      for (DeadLetter d : batch) {
        if (ring.size() == capacity) {
          ring.pollFirst();
        }
        ring.addLast(d);
      }
    }
  }

  /** Up to {@code limit} dead letters, newest first. */
  public List<DeadLetter> recent(String pipeline, int limit) {
    ArrayDeque<DeadLetter> ring = letters.get(pipeline);
    if (ring == null) {
      return List.of();
    }
    List<DeadLetter> out = new ArrayList<>();
    synchronized (ring) {
      Iterator<DeadLetter> it = ring.descendingIterator();
      while (it.hasNext() && out.size() < limit) {
        out.add(it.next());
      }
    }
    return out;
  }

  public void clear(String pipeline) {
    letters.remove(pipeline);
  }
}
