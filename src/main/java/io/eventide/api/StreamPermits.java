package io.eventide.api;

import io.eventide.config.OutputProperties;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Counts open pane streams per pipeline and per credential, so that neither one pipeline's
 * dashboards nor one credential can hold every connection. A permit is taken before the stream
 * starts and given back when it ends, however it ends.
 */
@Component
class StreamPermits {
  /** The credential of a request made while security is off: no per-credential cap applies. */
  static final String ANONYMOUS = "";

  private final OutputProperties properties;
  private final Map<String, AtomicInteger> perPipeline = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> perCredential = new ConcurrentHashMap<>();

  StreamPermits(OutputProperties properties) {
    this.properties = properties;
  }

  /**
   * @throws TooManyStreamsException when either cap is reached; nothing is taken then
   */
  Runnable acquire(String pipeline, String credential) {
    AtomicInteger p = perPipeline.computeIfAbsent(pipeline, k -> new AtomicInteger());
    if (p.incrementAndGet() > properties.sseMaxPerPipeline()) {
      p.decrementAndGet();
      throw new TooManyStreamsException(
          "pipeline '" + pipeline + "' already has " + properties.sseMaxPerPipeline() + " streams");
    }
    if (ANONYMOUS.equals(credential)) {
      return p::decrementAndGet;
    }
    AtomicInteger c = perCredential.computeIfAbsent(credential, k -> new AtomicInteger());
    if (c.incrementAndGet() > properties.sseMaxPerCredential()) {
      c.decrementAndGet();
      p.decrementAndGet();
      throw new TooManyStreamsException(
          "this credential already has " + properties.sseMaxPerCredential() + " streams open");
    }
    return () -> {
      c.decrementAndGet();
      p.decrementAndGet();
    };
  }
}
