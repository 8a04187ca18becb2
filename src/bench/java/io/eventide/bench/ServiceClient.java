package io.eventide.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Defines pipelines and posts JSON to a running service; any answer but 2xx fails the run. */
final class ServiceClient {
  private final HttpClient http;
  private final String url;

  /** The client the drivers use: HTTP/1.1, as dashboards and producers mostly are. */
  static HttpClient http() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .build();
  }

  ServiceClient(HttpClient http, String url) {
    this.http = http;
    this.url = url;
  }

  /** Defines (or resets and redefines) {@code pipeline}. */
  void put(String pipeline, String json) throws Exception {
    send("PUT", pipeline + "?reset=true", json);
  }

  /** Deletes {@code pipeline}, its state and outputs. */
  void delete(String pipeline) throws Exception {
    send("DELETE", pipeline, "");
  }

  /** Posts to {@code /pipelines/<path>}. */
  void post(String path, String json) throws Exception {
    send("POST", path, json);
  }

  private void send(String method, String path, String json) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/pipelines/" + path))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
    }
  }
}
