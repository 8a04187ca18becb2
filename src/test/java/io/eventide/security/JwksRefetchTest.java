package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Spring Security fetches the issuer's key set again for every token whose key id it does not know;
 * a local issuer counts the fetches that tokens with made-up key ids cause.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.security.enabled=true",
      "eventide.security.failed-authentications.per-second=0"
    })
class JwksRefetchTest {
  private static final AtomicInteger FETCHES = new AtomicInteger();
  private static HttpServer issuer;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void issuer(DynamicPropertyRegistry registry) throws IOException {
    issuer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    issuer.createContext(
        "/jwks",
        exchange -> {
          FETCHES.incrementAndGet();
          byte[] body = TestJwt.jwks("k1").getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    issuer.start();
    registry.add(
        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
        () -> "http://127.0.0.1:" + issuer.getAddress().getPort() + "/jwks");
  }

  @AfterAll
  static void stop() {
    issuer.stop(0);
  }

  @Test
  void madeUpKeyIdsDoNotFetchTheKeySetAgainAndAgain() {
    Http http = new Http(port);
    String known = TestJwt.token("ops", "eventide", "eventide:admin", "k1");
    assertThat(http.get("/pipelines", known).status()).isEqualTo(200);
    int before = FETCHES.get();
    for (int i = 0; i < 20; i++) {
      String unknown = TestJwt.token("mallory", "eventide", "eventide:admin", "made-up-" + i);
      assertThat(http.get("/pipelines", unknown).status()).isEqualTo(401);
    }
    assertThat(FETCHES.get() - before).isLessThanOrEqualTo(1);
    assertThat(http.get("/pipelines", known).status()).isEqualTo(200);
  }
}
