package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;

/** A credential that spends its bucket gets 429 with Retry-After; others are not affected. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.security.enabled=true",
      "eventide.security.rate-limit.per-second=1",
      "eventide.security.rate-limit.burst=3",
      "eventide.security.api-keys[0].name=busy",
      "eventide.security.api-keys[0].sha256=" + SecuredRuntimeTest.READER_SHA,
      "eventide.security.api-keys[0].reader=*",
      "eventide.security.api-keys[1].name=calm",
      "eventide.security.api-keys[1].sha256=" + SecuredRuntimeTest.PRODUCER_SHA,
      "eventide.security.api-keys[1].reader=*",
      "eventide.security.api-keys[2].name=quiet",
      "eventide.security.api-keys[2].sha256=" + SecuredRuntimeTest.ROOT_SHA,
      "eventide.security.api-keys[2].reader=*",
      "eventide.security.failed-authentications.per-second=1",
      "eventide.security.failed-authentications.burst=5"
    })
@Import(TestJwt.Decoder.class)
class RateLimitTest {
  @LocalServerPort int port;

  @Test
  void aSpentBucketAnswers429WithRetryAfter() {
    Http http = new Http(port);
    for (int i = 0; i < 3; i++) {
      assertThat(http.get("/pipelines", SecuredRuntimeTest.READER).status()).isEqualTo(200);
    }
    Http.Reply refused = http.get("/pipelines", SecuredRuntimeTest.READER);
    assertThat(refused.status()).isEqualTo(429);
    assertThat(
            MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(refused.headers().getContentType()))
        .isTrue();
    assertThat(Long.parseLong(refused.headers().getFirst("Retry-After"))).isBetween(1L, 2L);
    assertThat(http.get("/pipelines", SecuredRuntimeTest.PRODUCER).status()).isEqualTo(200);
    // Health probes never count against anyone.
    for (int i = 0; i < 5; i++) {
      assertThat(http.get("/actuator/health/liveness", null).status()).isEqualTo(200);
    }
  }

  @Test
  void aTokenWhoseSubjectLooksLikeAKeyNameHasABucketOfItsOwn() {
    Http http = new Http(port);
    String impostor = TestJwt.token("key:quiet", "eventide", "eventide:read:*");
    int answer = 200;
    for (int i = 0; i < 10 && answer == 200; i++) {
      answer = http.get("/pipelines", impostor).status();
    }
    assertThat(answer).isEqualTo(429);
    assertThat(http.get("/pipelines", SecuredRuntimeTest.ROOT).status()).isEqualTo(200);
  }

  @Test
  void failedAuthenticationsFromOneAddressAre429OnceTheirBurstIsSpent() throws Exception {
    Http http = new Http(port);
    for (int i = 0; i < 5; i++) {
      assertThat(http.get("/pipelines", "guess-" + i).status()).isEqualTo(401);
    }
    Http.Reply refused = http.get("/pipelines", "guess-5");
    assertThat(refused.status()).as(refused.text()).isEqualTo(429);
    assertThat(refused.isProblem()).isTrue();
    assertThat(refused.json().get("detail").asString()).contains("failed authentications");
    assertThat(Long.parseLong(refused.headers().getFirst("Retry-After"))).isBetween(1L, 2L);
    // Refused before authenticating: a good key from that address waits as well.
    assertThat(http.get("/pipelines", SecuredRuntimeTest.PRODUCER).status()).isEqualTo(429);
    // Requests without credentials are not authentications; probes stay open.
    assertThat(http.get("/actuator/health/liveness", null).status()).isEqualTo(200);
    // One failure's worth comes back each second, so the other tests find the address free.
    Thread.sleep(1100);
    assertThat(http.get("/pipelines", SecuredRuntimeTest.PRODUCER).status()).isEqualTo(200);
  }

  @Test
  void idleBucketsAreForgottenAndTheirNumberIsCapped() {
    AtomicLong nanos = new AtomicLong();
    InMemoryRateLimiter limiter = new InMemoryRateLimiter(1, 2, 100, nanos::get);
    for (int i = 0; i < 100; i++) {
      assertThat(limiter.take("c" + i).allowed()).isTrue();
    }
    // At the cap, with every bucket in use, new credentials share one bucket rather than get
    // fresh ones.
    assertThat(limiter.take("c100").allowed()).isTrue();
    assertThat(limiter.take("c101").allowed()).isTrue();
    assertThat(limiter.take("c102").allowed()).isFalse();
    assertThat(limiter.size()).isEqualTo(100);
    // A bucket that is full again is idle: forgetting it changes no decision.
    nanos.addAndGet(1_000_000_000L);
    assertThat(limiter.take("c100").allowed()).isTrue();
    assertThat(limiter.size()).isEqualTo(1);
  }

  @Test
  void theBucketRefillsAtTheConfiguredRate() {
    AtomicLong nanos = new AtomicLong();
    InMemoryRateLimiter limiter = new InMemoryRateLimiter(2, 2, 100, nanos::get);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isTrue();
    RateLimiter.Decision refused = limiter.take("a");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);
    assertThat(limiter.take("b").allowed()).isTrue();
    nanos.addAndGet(500_000_000L);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isFalse();
    nanos.addAndGet(60_000_000_000L);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isFalse();
  }
}
