package io.eventide.api;

import io.eventide.sink.OutputProperties;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * Counts open pane streams per pipeline and per credential, so that neither one pipeline's
 * dashboards nor one credential can hold every connection. A permit is taken before the stream
 * starts and given back when it ends, however it ends.
 */
@Component
class StreamPermits {
  /** The credential of a request made while security is off: no per-credential cap applies. */
  static final String ANONYMOUS = "";

  /**
   * Whether the request is a HEAD, which asks for a stream's headers only: it is answered at once
   * and takes no slot, or a few HEADs that never end would shut a credential's streams out.
   */
  static boolean headersOnly(ServerWebExchange exchange) {
    return HttpMethod.HEAD.equals(exchange.getRequest().getMethod());
  }

  private final OutputProperties properties;
  private final Map<String, Integer> perPipeline = new ConcurrentHashMap<>();
  private final Map<String, Integer> perCredential = new ConcurrentHashMap<>();

  StreamPermits(OutputProperties properties) {
    this.properties = properties;
  }

  /**
   * @throws TooManyStreamsException when either cap is reached; nothing is taken then
   */
  Runnable acquire(String pipeline, String credential) {
    if (!take(perPipeline, pipeline, properties.sseMaxPerPipeline())) {
      throw new TooManyStreamsException(
          "pipeline '" + pipeline + "' already has " + properties.sseMaxPerPipeline() + " streams");
    }
    if (ANONYMOUS.equals(credential)) {
      return () -> release(perPipeline, pipeline);
    }
    if (!take(perCredential, credential, properties.sseMaxPerCredential())) {
      release(perPipeline, pipeline);
      throw new TooManyStreamsException(
          "this credential already has " + properties.sseMaxPerCredential() + " streams open");
    }
    return () -> {
      release(perCredential, credential);
      release(perPipeline, pipeline);
    };
  }

  /** Names with a stream open: a name whose last stream closed is forgotten. */
  int tracked() {
    return perPipeline.size() + perCredential.size();
  }

  private static boolean take(Map<String, Integer> counts, String name, int max) {
    if (counts.merge(name, 1, Integer::sum) <= max) {
      return true;
    }
    release(counts, name);
    return false;
  }

  private static void release(Map<String, Integer> counts, String name) {
    counts.computeIfPresent(name, (k, n) -> n == 1 ? null : n - 1);
  }
}
