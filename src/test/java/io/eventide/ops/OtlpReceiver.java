package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A collector's OTLP/HTTP endpoint for tests: accepts {@code POST /v1/traces} in the protocol's
 * protobuf encoding, as the OpenTelemetry exporter sends it, on a port of its own on the loopback
 * interface, and keeps every span it was sent.
 */
public final class OtlpReceiver implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final AtomicInteger exports = new AtomicInteger();

  public OtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(executor);
    server.createContext(
        "/v1/traces",
        exchange -> {
          try (InputStream body = exchange.getRequestBody()) {
            if (!exchange.getRequestMethod().equals("POST")) {
              exchange.sendResponseHeaders(405, -1);
              return;
            }
            take(ExportTraceServiceRequest.parseFrom(body));
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  /** What to set {@code management.opentelemetry.tracing.export.otlp.endpoint} to. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
  }

  /** A receiver started now, for a test class's static field. */
  public static OtlpReceiver start() {
    try {
      return new OtlpReceiver();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The settings that trace every request to this receiver, exporting at once. */
  public Map<String, String> settings() {
    return Map.of(
        "management.opentelemetry.tracing.export.otlp.endpoint", endpoint(),
        "management.tracing.sampling.probability", "1.0",
        "management.opentelemetry.tracing.export.schedule-delay", "100ms");
  }

  /** {@link #settings} as command-line arguments, for a child JVM. */
  public List<String> arguments() {
    return settings().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
  }

  /** {@link #settings} for a Spring test's context. */
  public void register(DynamicPropertyRegistry registry) {
    settings().forEach((name, value) -> registry.add(name, () -> value));
  }

  /** The one span of {@code trace} that matches, once it has been exported. */
  public ReceivedSpan await(String trace, Predicate<ReceivedSpan> which) {
    return Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              List<ReceivedSpan> found =
                  spans.stream().filter(s -> s.traceId().equals(trace)).filter(which).toList();
              assertThat(found).hasSizeLessThanOrEqualTo(1);
              return found.isEmpty() ? null : found.get(0);
            },
            s -> s != null);
  }

  /** Spans of that name. */
  public static Predicate<ReceivedSpan> named(String name) {
    return s -> s.name().equals(name);
  }

  /** Every span received so far. */
  public List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** How many export requests arrived, spans or not. */
  public int exports() {
    return exports.get();
  }

  private void take(ExportTraceServiceRequest request) {
    exports.incrementAndGet();
    HexFormat hex = HexFormat.of();
    for (ResourceSpans resource : request.getResourceSpansList()) {
      for (ScopeSpans scope : resource.getScopeSpansList()) {
        for (io.opentelemetry.proto.trace.v1.Span s : scope.getSpansList()) {
          Map<String, String> attributes = new HashMap<>();
          for (KeyValue kv : s.getAttributesList()) {
            attributes.put(kv.getKey(), text(kv.getValue()));
          }
          List<String> links = new ArrayList<>();
          for (io.opentelemetry.proto.trace.v1.Span.Link l : s.getLinksList()) {
            links.add(hex.formatHex(l.getSpanId().toByteArray()));
          }
          spans.add(
              new ReceivedSpan(
                  s.getName(),
                  hex.formatHex(s.getTraceId().toByteArray()),
                  hex.formatHex(s.getSpanId().toByteArray()),
                  hex.formatHex(s.getParentSpanId().toByteArray()),
                  attributes,
                  links));
        }
      }
    }
  }

  private static String text(AnyValue value) {
    return switch (value.getValueCase()) {
      case STRING_VALUE -> value.getStringValue();
      case INT_VALUE -> Long.toString(value.getIntValue());
      case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
      case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
      default -> value.toString();
    };
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * A span as the receiver got it, ids in lower-case hex.
   *
   * @param parentId the parent's span id, empty for a root span
   * @param links the span ids of the spans it links to
   */
  public record ReceivedSpan(
      String name,
      String traceId,
      String spanId,
      String parentId,
      Map<String, String> attributes,
      List<String> links) {

    /** The span as a sampled W3C {@code traceparent}. */
    public String traceparent() {
      return "00-" + traceId + "-" + spanId + "-01";
    }
  }
}
