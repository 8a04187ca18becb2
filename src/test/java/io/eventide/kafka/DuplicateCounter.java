package io.eventide.kafka;

import io.eventide.core.IngestResult;
import io.eventide.runtime.RuntimeObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.test.context.TestComponent;

/** Counts, per pipeline, the redelivered events the runtime recognised by their ids. */
@TestComponent
class DuplicateCounter implements RuntimeObserver {
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  @Override
  public void batchApplied(String pipeline, IngestResult result, long nanos) {
    counts.computeIfAbsent(pipeline, p -> new AtomicInteger()).addAndGet(result.duplicates());
  }

  int of(String pipeline) {
    return counts.getOrDefault(pipeline, new AtomicInteger()).get();
  }
}
