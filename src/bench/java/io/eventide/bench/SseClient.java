package io.eventide.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * A minimal server-sent-events reader on the JDK's HTTP client: hands each event's type and data to
 * a callback, on its own thread, stamped with the moment it arrived.
 */
final class SseClient implements AutoCloseable {
  /** One received event. */
  record Received(String type, String data, long arrivedNanos) {}

  private final Thread reader;
  private volatile Stream<String> lines;
  private volatile boolean closed;

  SseClient(HttpClient http, URI uri, BiConsumer<SseClient, Received> onEvent) {
    HttpRequest request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").build();
    reader =
        new Thread(
            () -> {
              try {
                HttpResponse<Stream<String>> response =
                    http.send(request, HttpResponse.BodyHandlers.ofLines());
                if (response.statusCode() != 200) {
                  throw new IllegalStateException(
                      "SSE " + uri + " answered " + response.statusCode());
                }
                lines = response.body();
                String[] type = {"message"};
                StringBuilder data = new StringBuilder();
                lines.forEach(
                    line -> {
                      if (line.isEmpty()) {
                        if (data.length() > 0) {
                          onEvent.accept(
                              this, new Received(type[0], data.toString(), System.nanoTime()));
                        }
                        type[0] = "message";
                        data.setLength(0);
                      } else if (line.startsWith("event:")) {
                        type[0] = line.substring(6).trim();
                      } else if (line.startsWith("data:")) {
                        data.append(line.substring(5));
                      }
                    });
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (java.io.IOException | java.io.UncheckedIOException e) {
                // Closing the stream is how a run ends; anything else is a failure.
                if (!closed) {
                  throw new IllegalStateException("the pane stream " + uri + " failed", e);
                }
              }
            },
            "sse-" + uri.getPath());
    reader.setDaemon(true);
    reader.start();
  }

  @Override
  public void close() {
    closed = true;
    Stream<String> l = lines;
    if (l != null) {
      l.close();
    }
    reader.interrupt();
  }
}
