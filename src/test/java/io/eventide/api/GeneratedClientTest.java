package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.client.ApiClient;
import io.eventide.client.ApiException;
import io.eventide.client.api.IngestionApi;
import io.eventide.client.api.OutputsApi;
import io.eventide.client.api.PipelinesApi;
import io.eventide.client.model.Aggregate;
import io.eventide.client.model.Event;
import io.eventide.client.model.FixedWindow;
import io.eventide.client.model.IngestAnswer;
import io.eventide.client.model.OpenWindow;
import io.eventide.client.model.PaneInfo;
import io.eventide.client.model.PaneRecord;
import io.eventide.client.model.Pipeline;
import io.eventide.client.model.PipelineDefinition;
import io.eventide.client.model.PipelineDefinitionWindow;
import io.eventide.client.model.Results;
import io.eventide.client.model.WatermarkPost;
import io.eventide.client.model.WatermarkPostResult;
import io.eventide.client.model.Watermarks;
import io.eventide.client.model.Window;
import io.eventide.client.model.Windows;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.List;
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

  @Test
  void aPipelineRunsThroughTheGeneratedClient() throws ApiException {
    ApiClient client = new ApiClient();
    client.updateBaseUri("http://localhost:" + port);
    PipelinesApi pipelines = new PipelinesApi(client);
    IngestionApi ingestion = new IngestionApi(client);
    OutputsApi outputs = new OutputsApi(client);

    Pipeline defined =
        pipelines.putPipeline(
            PIPELINE,
            new PipelineDefinition()
                .window(
                    new PipelineDefinitionWindow(
                        new Window(new FixedWindow().type(FixedWindow.TypeEnum.FIXED).size("1m"))))
                .allowedLateness("10m")
                .aggregate(new Aggregate().type(Aggregate.TypeEnum.SUM)),
            true);
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
            org.assertj.core.groups.Tuple.tuple("cart", 10, PaneInfo.TimingEnum.ON_TIME),
            org.assertj.core.groups.Tuple.tuple("home", 3, PaneInfo.TimingEnum.ON_TIME));
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

  private static Event event(String key, Object timestamp, int value) {
    return new Event().key(key).timestamp(timestamp).value(value);
  }
}
