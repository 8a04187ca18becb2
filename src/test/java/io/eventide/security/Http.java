package io.eventide.security;

import java.time.Duration;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A plain HTTP client that shows everything: status, headers, body, as a caller sees them. */
final class Http {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  private final WebClient web;

  Http(int port) {
    this.web =
        WebClient.builder()
            .baseUrl("http://localhost:" + port)
            .codecs(c -> c.defaultCodecs().maxInMemorySize(16 * 1024 * 1024))
            .build();
  }

  record Reply(int status, HttpHeaders headers, String text) {
    JsonNode json() {
      return text == null || text.isEmpty() ? null : JsonMapper.shared().readTree(text);
    }

    boolean isProblem() {
      return MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(headers.getContentType());
    }
  }

  static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

  Reply send(HttpMethod method, String path, String credential, String body) {
    return send(
        method,
        path,
        credential,
        body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  Reply send(HttpMethod method, String path, String credential, byte[] body) {
    WebClient.RequestBodySpec spec = web.method(method).uri(path);
    if (credential != null) {
      spec.header(HttpHeaders.AUTHORIZATION, "Bearer " + credential);
    }
    WebClient.RequestHeadersSpec<?> request =
        body == null ? spec : spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body);
    return exchange(request);
  }

  Reply ndjson(String path, String credential, byte[] body) {
    WebClient.RequestBodySpec spec = web.post().uri(path).contentType(NDJSON);
    spec.header(HttpHeaders.AUTHORIZATION, "Bearer " + credential);
    return exchange(spec.bodyValue(body));
  }

  Reply stream(String path, String credential, Publisher<DataBuffer> body) {
    WebClient.RequestBodySpec spec = web.post().uri(path).contentType(MediaType.APPLICATION_JSON);
    spec.header(HttpHeaders.AUTHORIZATION, "Bearer " + credential);
    return exchange(spec.body(BodyInserters.fromDataBuffers(body)));
  }

  Reply get(String path, String credential) {
    return send(HttpMethod.GET, path, credential, (byte[]) null);
  }

  WebClient.RequestHeadersSpec<?> headers(HttpMethod method, String path) {
    return web.method(method).uri(path);
  }

  static Reply exchange(WebClient.RequestHeadersSpec<?> request) {
    return request
        .exchangeToMono(
            r ->
                r.bodyToMono(String.class)
                    .defaultIfEmpty("")
                    .map(
                        text ->
                            new Reply(r.statusCode().value(), r.headers().asHttpHeaders(), text)))
        .block(TIMEOUT);
  }
}
