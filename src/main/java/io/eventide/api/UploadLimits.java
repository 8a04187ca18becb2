package io.eventide.api;

import io.eventide.runtime.IngestProperties;
import io.eventide.security.Credentials;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Bounds the reading of request bodies, on every route: each client may have {@code
 * eventide.ingest.max-uploads-per-client} bodies being read at once (429 beyond), and each body
 * must arrive within {@code eventide.ingest.body-read-timeout} of when reading it starts (408
 * beyond). A body that trickles in or never ends thus holds only a slot of its own client, and for
 * a bounded time, while the permits shared by all ({@link IngestPermits}) are taken only once a
 * body is in. A client is the credential with security on, else the address the request came from.
 * Runs after the security filters, which make the principal known; a client is forgotten when its
 * last body is read, so the table holds no more names than bodies being read.
 */
@Component
final class UploadLimits implements WebFilter {
  private final Map<String, Integer> reading = new ConcurrentHashMap<>();
  private final int max;
  private final Duration timeout;

  UploadLimits(IngestProperties properties) {
    this.max = properties.maxUploadsPerClient();
    this.timeout = properties.bodyReadTimeout();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    return exchange
        .getPrincipal()
        .map(Credentials::id)
        .defaultIfEmpty(address(exchange.getRequest()))
        .flatMap(
            client ->
                chain.filter(exchange.mutate().request(new Bounded(exchange, client)).build()));
  }

  private static String address(ServerHttpRequest request) {
    InetSocketAddress from = request.getRemoteAddress();
    return "address:" + (from == null ? "unknown" : from.getHostString());
  }

  /** The body of one request, read within the limits of its client. */
  private final class Bounded extends ServerHttpRequestDecorator {
    private final String client;

    Bounded(ServerWebExchange exchange, String client) {
      super(exchange.getRequest());
      this.client = client;
    }

    @Override
    public Flux<DataBuffer> getBody() {
      return Flux.defer(
          () -> {
            if (reading.merge(client, 1, Integer::sum) > max) {
              release();
              return Flux.error(new TooManyUploadsException(max));
            }
            // One deadline for the whole body, not one per chunk: a body that trickles in a byte
            // at a time must still end in time.
            Mono<Long> deadline = Mono.delay(timeout).cache();
            return super.getBody()
                .timeout(
                    deadline,
                    chunk -> deadline,
                    Flux.error(() -> new BodyReadTimeoutException(timeout)))
                .doFinally(signal -> release());
          });
    }

    private void release() {
      reading.computeIfPresent(client, (k, n) -> n == 1 ? null : n - 1);
    }
  }
}
