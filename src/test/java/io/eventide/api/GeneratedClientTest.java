package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.eventide.client.ApiClient;
import io.eventide.client.ApiException;
import io.eventide.client.api.IngestionApi;
import io.eventide.client.api.OutputsApi;
import io.eventide.client.api.PipelinesApi;
import io.eventide.client.api.SimulateApi;
import io.eventide.client.model.Aggregate;
import io.eventide.client.model.Event;
import io.eventide.client.model.EventPointers;
import io.eventide.client.model.FixedWindow;
import io.eventide.client.model.IngestAnswer;
import io.eventide.client.model.Lateness;
import io.eventide.client.model.NamedAggregate;
import io.eventide.client.model.OpenWindow;
import io.eventide.client.model.PaneInfo;
import io.eventide.client.model.PaneRecord;
import io.eventide.client.model.Pipeline;
import io.eventide.client.model.PipelineDefinition;
import io.eventide.client.model.Results;
import io.eventide.client.model.SimulateRequest;
import io.eventide.client.model.SimulateResponse;
import io.eventide.client.model.SimulationStep;
import io.eventide.client.model.WatermarkPost;
import io.eventide.client.model.WatermarkPostResult;
import io.eventide.client.model.Watermarks;
import io.eventide.client.model.Window;
import io.eventide.client.model.WindowOrExpression;
import io.eventide.client.model.Windows;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * openapi.yaml is a contract a standard generator can build a working client from: the Java client
 * openapi-generator makes of it at build time (java, native library; see pom.xml) defines a
 * pipeline, sends events and watermarks and reads results and the windows view, with nothing but
 * its own types, and every figure is the service's.
 */
@LiveRuntimeTest
class GeneratedClientTest {
  private static final String PIPELINE = "generated-client";

  @LocalServerPort int port;

  private PipelinesApi pipelines;
  private IngestionApi ingestion;
  private OutputsApi outputs;
  private SimulateApi simulate;

  @BeforeEach
  void client() {
    ApiClient client = new ApiClient();
    client.updateBaseUri("http://localhost:" + port);
    pipelines = new PipelinesApi(client);
    ingestion = new IngestionApi(client);
    outputs = new OutputsApi(client);
    simulate = new SimulateApi(client);
  }

  @Test
  void aPipelineRunsThroughTheGeneratedClient() throws ApiException {
    Pipeline defined =
        pipelines.putPipeline(
            PIPELINE, oneMinuteWindows().allowedLateness("10m").aggregate(sum()), true);
    assertThat(defined.getWindow().getFixedWindow().getSize()).isEqualTo("PT1M");
    assertThat(defined.getAllowedLateness()).isEqualTo("PT10M");
    assertThat(defined.getWindowExpression())
        .isEqualTo("FixedWindows.of(Duration.standardMinutes(1))");
    assertThat(defined.getTrigger().getDefaultTrigger()).isNotNull();

    IngestAnswer batch =
        ingestion.postEvents(
            PIPELINE,
            List.of(event("home", "2026-01-01T12:00:05Z", 1), event("home", 1767268830000L, 2)),
            null,
            null);
    assertThat(batch.getAccepted()).isEqualTo(2);
    assertThat(batch.getRejectedTotal()).isZero();
    IngestAnswer single =
        ingestion.postEvents(PIPELINE, event("cart", "2026-01-01T12:00:10Z", 10), null, null);
    assertThat(single.getAccepted()).isEqualTo(1);

    Windows open = outputs.explainWindows(PIPELINE, "home", null, null);
    OpenWindow home = open.getWindows().get(0);
    assertThat(home.getKey()).isEqualTo("home");
    assertThat(home.getWindow().getStart()).isEqualTo("2026-01-01T12:00:00.000Z");
    assertThat(home.getWindow().getEnd()).isEqualTo("2026-01-01T12:01:00.000Z");
    assertThat(home.getElements()).isEqualTo(2L);
    assertThat(home.getNextPaneIndex()).isZero();
    assertThat(home.getClosed()).isFalse();
    assertThat(home.getContents()).isEqualTo(3);
    assertThat(home.getEndOfWindow()).isEqualTo("2026-01-01T12:00:59.999Z");

    WatermarkPostResult moved =
        ingestion.postWatermark(PIPELINE, new WatermarkPost().watermark("2026-01-01T12:01:00Z"));
    assertThat(moved.getAccepted()).isTrue();
    assertThat(moved.getWatermark().getInput()).isEqualTo("2026-01-01T12:01:00.000Z");

    Results onTime = outputs.getResults(PIPELINE, null, null, null, null, null);
    assertThat(onTime.getResults())
        .extracting(PaneRecord::getKey, PaneRecord::getValue, r -> r.getPane().getTiming())
        .containsExactly(
            tuple("cart", 10, PaneInfo.TimingEnum.ON_TIME),
            tuple("home", 3, PaneInfo.TimingEnum.ON_TIME));
    PaneRecord homeOnTime = onTime.getResults().get(1);
    assertThat(homeOnTime.getFinal()).isFalse();
    assertThat(homeOnTime.getFinalAt()).isEqualTo("2026-01-01T12:11:00.000Z");

    IngestAnswer late =
        ingestion.postEvents(PIPELINE, event("home", "2026-01-01T12:00:50Z", 4), null, null);
    assertThat(late.getAccepted()).isEqualTo(1);
    assertThat(late.getLate()).isEqualTo(1);
    PaneRecord homeLate =
        outputs.getResults(PIPELINE, "home", null, null, null, null).getResults().get(0);
    assertThat(homeLate.getValue()).isEqualTo(4);
    assertThat(homeLate.getPane().getIndex()).isEqualTo(1);
    assertThat(homeLate.getPane().getTiming()).isEqualTo(PaneInfo.TimingEnum.LATE);
    assertThat(homeLate.getRestates().getIndex()).isZero();

    OpenWindow afterLate = outputs.explainWindows(PIPELINE, "home", null, null).getWindows().get(0);
    assertThat(afterLate.getElements()).isEqualTo(3L);
    assertThat(afterLate.getNextPaneIndex()).isEqualTo(2);
    assertThat(afterLate.getWatermark()).isEqualTo("2026-01-01T12:01:00.000Z");

    ingestion.postWatermark(PIPELINE, new WatermarkPost().watermark("+inf"));
    Watermarks drained = outputs.getWatermark(PIPELINE);
    assertThat(drained.getInput()).isEqualTo("+inf");
    assertThat(outputs.explainWindows(PIPELINE, null, null, null).getWindows()).isEmpty();
    Results finals = outputs.getResults(PIPELINE, null, null, null, null, null);
    assertThat(finals.getFinalThrough()).isEqualTo("+inf");
    assertThat(finals.getResults()).allMatch(PaneRecord::getFinal);

    assertThatThrownBy(() -> pipelines.getPipeline("no-such-pipeline"))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  /**
   * The shapes a single sum does not show, read from real answers: named aggregates, a composite
   * key (an object in pane records), the lateness figures and a simulation's steps and outputs.
   */
  @Test
  void namedAggregatesCompositeKeysLatenessAndSimulations() throws ApiException {
    String name = "generated-client-named";
    Pipeline defined =
        pipelines.putPipeline(
            name,
            oneMinuteWindows()
                .event(new EventPointers().key(List.of("/region", "/endpoint")))
                .putAggregatesItem("n", new NamedAggregate().type(NamedAggregate.TypeEnum.COUNT))
                .putAggregatesItem(
                    "bytes",
                    new NamedAggregate().type(NamedAggregate.TypeEnum.SUM).field("/bytes")),
            true);
    assertThat(defined.getEvent().getKey()).isEqualTo(List.of("/region", "/endpoint"));
    assertThat(defined.getAggregates().get("bytes").getField()).isEqualTo("/bytes");
    assertThat(defined.getAggregate()).isNull();

    Map<String, Object> first =
        Map.of("region", "eu", "endpoint", "/a", "timestamp", "2026-01-01T12:00:05Z", "bytes", 100);
    Map<String, Object> second =
        Map.of("region", "eu", "endpoint", "/a", "timestamp", "2026-01-01T12:00:25Z", "bytes", 20);
    assertThat(ingestion.postEvents(name, List.of(first, second), null, null).getAccepted())
        .isEqualTo(2);
    ingestion.postWatermark(name, new WatermarkPost().watermark("2026-01-01T12:01:00Z"));
    PaneRecord pane = outputs.getResults(name, null, null, null, null, null).getResults().get(0);
    assertThat(pane.getKey()).isEqualTo(Map.of("region", "eu", "endpoint", "/a"));
    assertThat(pane.getValue()).isEqualTo(Map.of("n", 2, "bytes", 120));

    Lateness lateness = outputs.getLateness(name);
    assertThat(lateness.getEvents()).isEqualTo(2L);
    assertThat(lateness.getOnTime()).isEqualTo(2L);
    assertThat(lateness.getNeedMillis().getMax()).isZero();

    SimulateResponse simulated =
        simulate.simulate(
            new SimulateRequest()
                .pipeline(oneMinuteWindows().aggregate(sum()))
                .progress(true)
                .steps(
                    List.of(
                        new SimulationStep()
                            .events(List.of(Map.of("key", "a", "timestamp", 1000, "value", 2))),
                        new SimulationStep().watermark(60_000))));
    assertThat(simulated.getCounts().getAccepted()).isEqualTo(1);
    assertThat(simulated.getOutputs())
        .hasSize(2)
        .satisfiesExactly(
            paneOutput ->
                assertThat(paneOutput)
                    .asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("step", 1)
                    .containsEntry("value", 2),
            progress ->
                assertThat(progress)
                    .asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("progress", true)
                    .containsEntry("finalThrough", "1970-01-01T00:01:00.000Z"));
  }

  private static PipelineDefinition oneMinuteWindows() {
    return new PipelineDefinition()
        .window(
            new WindowOrExpression(
                new Window(new FixedWindow().type(FixedWindow.TypeEnum.FIXED).size("1m"))));
  }

  private static Aggregate sum() {
    return new Aggregate().type(Aggregate.TypeEnum.SUM);
  }

  private static Event event(String key, Object timestamp, int value) {
    return new Event().key(key).timestamp(timestamp).value(value);
  }
}
