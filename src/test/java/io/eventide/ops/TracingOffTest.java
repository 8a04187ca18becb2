package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.CommitTracer;
import io.eventide.sink.LogPage;
import io.eventide.sink.PaneEvent;
import io.eventide.state.OutputStore;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Tracing is off unless configured (docs/operations.md#tracing): with the defaults nothing of it
 * exists, neither Spring Boot's tracer, span processor and exporter, nor its tracing of HTTP
 * requests, nor Eventide's spans; a producer's {@code traceparent} changes nothing, and log lines
 * keep their form.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class TracingOffTest {
  @Autowired ApplicationContext context;
  @Autowired Environment environment;
  @Autowired WebTestClient client;
  @Autowired OutputStore outputs;

  @Test
  void withTheDefaultsNothingOfTracingExists() {
    for (Class<?> type :
        List.of(
            Tracer.class,
            Propagator.class,
            TracingObservationHandler.class,
            OpenTelemetry.class,
            SdkTracerProvider.class,
            SpanProcessor.class,
            SpanExporter.class,
            CommitTracer.class)) {
      assertThat(context.getBeanNamesForType(type)).as("beans of %s", type).isEmpty();
    }
    assertThat(environment.getProperty("logging.expect-correlation-id", Boolean.class)).isFalse();
  }

  @Test
  void aPostWithATraceparentLogsItsPanesWithoutASpan() {
    client
        .put()
        .uri("/pipelines/off")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            """
            {"window": {"type": "fixed", "size": "1m"},
             "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
             "aggregate": {"type": "count"}}
            """)
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
    client
        .post()
        .uri("/pipelines/off/events")
        .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"key\": \"a\", \"timestamp\": 0, \"value\": 1}")
        .exchange()
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED)
        .expectHeader()
        .doesNotExist("traceparent");
    assertThat(outputs.panesAfter("off", LogPage.START, 10).block().entries())
        .singleElement()
        .extracting(PaneEvent::traceparent)
        .isNull();
  }

  @Test
  void tracingIsOnOnlyWithAnEndpointAndExportNotTurnedOff() {
    assertThat(TracingEnabled.in(environment(Map.of()))).isFalse();
    assertThat(TracingEnabled.in(environment(Map.of(TracingEnabled.ENDPOINT, " ")))).isFalse();
    assertThat(
            TracingEnabled.in(
                environment(Map.of(TracingEnabled.ENDPOINT, "http://c:4318/v1/traces"))))
        .isTrue();
    assertThat(
            TracingEnabled.in(
                environment(
                    Map.of(
                        TracingEnabled.ENDPOINT,
                        "http://c:4318/v1/traces",
                        TracingEnabled.EXPORT,
                        "false"))))
        .isFalse();
  }

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return environment;
  }
}
