package io.eventide.sink;

import io.eventide.core.DeadLetter;
import java.util.List;

/** Receives dropped and invalid events. Thread-safe and non-blocking, like {@link PaneListener}. */
public interface DeadLetterListener {
  void onDeadLetters(String pipeline, List<DeadLetter> letters);
}
