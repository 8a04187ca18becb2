package io.eventide.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Issue 34, item 2: one credential's slow, unfinished uploads must not shut out anyone else. With
 * security on, credential A opens more half-sent posts (a Content-Length larger than what it sends)
 * than ingestion requests may be in flight; credential B, producing to another pipeline meanwhile,
 * has every post accepted; A's uploads beyond its own cap are refused with 429, and once the body
 * read timeout passes A's unfinished posts are answered 408 and free their slots.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.security.enabled=true",
      "eventide.security.rate-limit.per-second=100000",
      "eventide.security.rate-limit.burst=100000",
      "eventide.security.api-keys[0].name=root",
      "eventide.security.api-keys[0].sha256=" + SlowUploadFloodTest.ROOT_SHA,
      "eventide.security.api-keys[0].admin=*",
      "eventide.security.api-keys[1].name=flood",
      "eventide.security.api-keys[1].sha256=" + SlowUploadFloodTest.A_SHA,
      "eventide.security.api-keys[1].producer=flood",
      "eventide.security.api-keys[2].name=steady",
      "eventide.security.api-keys[2].sha256=" + SlowUploadFloodTest.B_SHA,
      "eventide.security.api-keys[2].producer=steady",
      "eventide.ingest.max-in-flight=4",
      "eventide.ingest.max-uploads-per-client=8",
      "eventide.ingest.body-read-timeout=20s",
      "eventide.ingest.ndjson-batch-events=1"
    })
class SlowUploadFloodTest {
  static final String ROOT = "root-key-0001";
  static final String ROOT_SHA = "d55bdfe1a1222919994d1bb78f0c24bb79c48251e1f1f9cc41d3fbe4a982203b";
  static final String A = "flood-a-key-0001";
  static final String A_SHA = "64bfee8c4969015ee5068efb80cc07dfc9a25369fff5329b2089a2bdd2a1e9a5";
  static final String B = "steady-b-key-0001";
  static final String B_SHA = "6347d683bcab241a5604a851eb3dfd3b6396bd36201b030681bdeb0a0b7b5e19";

  private static final String COUNTS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}";
  private static final String EVENT =
      "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}";
  private static final int HELD = 8;
  private static final int B_POSTS = 300;

  @LocalServerPort int port;

  @Test
  void oneCredentialsUnfinishedUploadsRefuseOnlyItAndTimeOut() throws Exception {
    WebClient web = WebClient.create("http://localhost:" + port);
    for (String pipeline : List.of("flood", "steady")) {
      assertThat(send(web, HttpMethod.PUT, "/pipelines/" + pipeline, ROOT, COUNTS)).isIn(200, 201);
    }
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < HELD; i++) {
        held.add(halfSent("flood", A));
      }
      // Once A's slots are all held, one more of its uploads is refused at once, naming the limit.
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                try (Socket extra = halfSent("flood", A)) {
                  String answer = answer(extra, Duration.ofSeconds(5));
                  assertThat(answer).startsWith("HTTP/1.1 429");
                  assertThat(answer)
                      .containsIgnoringCase("Retry-After")
                      .contains("eventide.ingest.max-uploads-per-client");
                }
              });

      long[] latencies = new long[B_POSTS];
      for (int i = 0; i < B_POSTS; i++) {
        long start = System.nanoTime();
        int status = send(web, HttpMethod.POST, "/pipelines/steady/events", B, EVENT);
        latencies[i] = System.nanoTime() - start;
        assertThat(status).as("B's post %d during A's flood", i).isEqualTo(202);
      }
      Arrays.sort(latencies);
      System.out.printf(
          "abuse figure: slow-body flood (%d unfinished uploads of one credential):"
              + " the other credential's ack p50 %.2f ms, p99 %.2f ms over %d posts%n",
          HELD, millis(latencies, 0.50), millis(latencies, 0.99), B_POSTS);

      // Past the body read timeout A's unfinished posts are answered 408, and its slots are free.
      for (Socket socket : held) {
        assertThat(answer(socket, Duration.ofSeconds(30))).startsWith("HTTP/1.1 408");
      }
      assertThat(send(web, HttpMethod.POST, "/pipelines/flood/events", A, EVENT)).isEqualTo(202);
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  void aStreamedNdjsonBodyThatStopsIsAnswered408WithWhatItApplied() throws Exception {
    WebClient web = WebClient.create("http://localhost:" + port);
    assertThat(send(web, HttpMethod.PUT, "/pipelines/steady", ROOT, COUNTS)).isIn(200, 201);
    try (Socket socket = new Socket("localhost", port)) {
      OutputStream out = socket.getOutputStream();
      String lines = EVENT + "\n" + EVENT + "\n";
      String head =
          "POST /pipelines/steady/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
              + B
              + "\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      // One chunk of two lines (two batches), then nothing more, the body never ended.
      out.write(
          (Integer.toHexString(lines.length()) + "\r\n" + lines + "\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = answer(socket, Duration.ofSeconds(30));
      assertThat(answer).startsWith("HTTP/1.1 408").contains("eventide.ingest.body-read-timeout");
      assertThat(answer).contains("\"applied\"").contains("\"accepted\":2");
    }
  }

  /** A post whose head promises more body than is sent: it stays being read. */
  private Socket halfSent(String pipeline, String credential) throws IOException {
    Socket socket = new Socket("localhost", port);
    OutputStream out = socket.getOutputStream();
    String head =
        "POST /pipelines/"
            + pipeline
            + "/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
            + credential
            + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write("[{\"key\":\"k\",".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** What the server answered on the socket, up to the wait; empty when it closed with none. */
  private static String answer(Socket socket, Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    StringBuilder text = new StringBuilder();
    try {
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        if (text.indexOf("\r\n\r\n") >= 0 && text.indexOf("}") > 0) {
          break;
        }
      }
    } catch (SocketTimeoutException e) {
      // Nothing more within the wait: what came is the answer.
    }
    return text.toString();
  }

  private static int send(
      WebClient web, HttpMethod method, String path, String credential, String body) {
    return web.method(method)
        .uri(path)
        .header(HttpHeaders.AUTHORIZATION, "Bearer " + credential)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value()))
        .block(Duration.ofSeconds(30));
  }

  private static double millis(long[] sorted, double quantile) {
    int i = Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1);
    return sorted[i] / 1e6;
  }
}
