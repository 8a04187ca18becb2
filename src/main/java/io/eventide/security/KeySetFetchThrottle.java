package io.eventide.security;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;

/**
 * Fetches the issuer's key set at most once per interval. Spring Security keeps the set it fetched
 * but fetches it again for every token naming a key id the set lacks, so made-up key ids would each
 * cost a request to the issuer. Within the interval the last answer is given again instead: a token
 * with an unknown key is then refused as unknown, and a key the issuer really added is found by the
 * first such token after the interval. A failed fetch is kept as long, so a sick issuer is not
 * hammered either.
 */
final class KeySetFetchThrottle implements ExchangeFilterFunction {
  private record Fetched(HttpStatusCode status, MediaType type, String body) {}

  private record Fetch(long at, Mono<Fetched> answer) {}

  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final AtomicReference<Fetch> last = new AtomicReference<>();

  KeySetFetchThrottle(Duration interval, LongSupplier nanoTime) {
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    long now = nanoTime.getAsLong();
    Fetch current = last.get();
    if (current == null || now - current.at() >= intervalNanos) {
      Fetch fresh =
          new Fetch(
              now,
              next.exchange(request)
                  .flatMap(
                      r ->
                          r.bodyToMono(String.class)
                              .defaultIfEmpty("")
                              .map(
                                  body ->
                                      new Fetched(
                                          r.statusCode(),
                                          r.headers().contentType().orElse(null),
                                          body)))
                  .cache());
      current = last.compareAndSet(current, fresh) ? fresh : last.get();
    }
    return current
        .answer()
        .map(
            f -> {
              ClientResponse.Builder copy = ClientResponse.create(f.status());
              if (f.type() != null) {
                copy.header(HttpHeaders.CONTENT_TYPE, f.type().toString());
              }
              return copy.body(f.body()).build();
            });
  }
}
