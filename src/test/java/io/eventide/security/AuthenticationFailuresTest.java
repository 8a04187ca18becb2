package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The failed-authentication limit holds for addresses that no longer fit its table: they share one
 * bucket, so a flood of fresh addresses is limited like one address.
 */
class AuthenticationFailuresTest {
  private final AtomicLong nanos = new AtomicLong();

  @Test
  void onceTheTableIsFullNewAddressesShareOneBucket() {
    // 1 failure forgiven a second, 3 in a row, 2 addresses tracked.
    AuthenticationFailures failures =
        new AuthenticationFailures(new InMemoryRateLimiter(1, 3, 2, nanos::get));
    failures.failed(from("10.0.0.1"));
    failures.failed(from("10.0.0.2"));
    // The table is full of addresses in use; each fresh address fails once, as a scanner would.
    for (int i = 0; i < 3; i++) {
      assertThat(passes(failures, "10.1.0." + i)).isTrue();
      failures.failed(from("10.1.0." + i));
    }
    assertThat(passes(failures, "10.1.0.99")).isFalse();
    assertThat(passes(failures, "10.1.0.0")).isFalse();
    // The tracked addresses keep buckets of their own.
    assertThat(passes(failures, "10.0.0.1")).isTrue();
    // The shared bucket is forgiven at the same rate, and an idle address's place is given again.
    nanos.addAndGet(3_000_000_000L);
    assertThat(passes(failures, "10.1.0.99")).isTrue();
  }

  @Test
  void aFullTableStillChargesTheRateLimitOfNewCredentials() {
    InMemoryRateLimiter limiter = new InMemoryRateLimiter(1, 2, 1, nanos::get);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("b").allowed()).isTrue();
    assertThat(limiter.take("c").allowed()).isTrue();
    assertThat(limiter.take("d").allowed()).isFalse();
    assertThat(limiter.peek("e").allowed()).isFalse();
    assertThat(limiter.size()).isEqualTo(1);
  }

  private static boolean passes(AuthenticationFailures failures, String address) {
    MockServerWebExchange exchange = from(address);
    boolean[] passed = {false};
    failures
        .filter(
            exchange,
            e -> {
              passed[0] = true;
              return Mono.empty();
            })
        .block();
    return passed[0];
  }

  private static MockServerWebExchange from(String address) {
    return MockServerWebExchange.from(
        MockServerHttpRequest.get("/pipelines")
            .header(HttpHeaders.AUTHORIZATION, "Bearer not-a-key")
            .remoteAddress(new InetSocketAddress(address, 40000)));
  }
}
