package io.eventide.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SimulatorTest {
  private static final SimulationLimits LIMITS =
      new SimulationLimits(10, 10, 2, 1 << 20, Duration.ofSeconds(30));

  private static SimulationResult run(String body) {
    SimulationRequest request =
        new SimulationRequestParser(LIMITS, PipelineLimits.DEFAULT)
            .parse(JsonMapper.shared().readTree(body.replace('\'', '"')));
    return new Simulator(LIMITS).run(request, () -> false);
  }

  private static final String EVERY_ELEMENT =
      "{'pipeline':{'window':{'type':'fixed','size':'1m'},'aggregate':{'type':'count'},"
          + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':1}}},"
          + "'steps':[{'events':[%s]}]}";

  @Test
  void stopsAtTheOutputLimitNamingTheStep() {
    InvalidInputException e =
        catchThrowableOfType(
            InvalidInputException.class,
            () ->
                run(
                    EVERY_ELEMENT.formatted(
                        "{'key':'a','timestamp':1},{'key':'b','timestamp':1},"
                            + "{'key':'c','timestamp':1}")));
    assertThat(e.violations())
        .containsExactly(
            new Violation(
                "/steps/0",
                "the simulation would produce more than 2 panes by this step; split it into"
                    + " smaller simulations"));
  }

  @Test
  void producesUpToTheLimit() {
    assertThat(
            run(EVERY_ELEMENT.formatted("{'key':'a','timestamp':1},{'key':'b','timestamp':1}"))
                .outputs())
        .hasSize(2);
  }

  @Test
  void isDeterministic() {
    String body = EVERY_ELEMENT.formatted("{'key':'a','timestamp':1},{'key':'b','timestamp':2}");
    assertThat(run(body).toJson()).isEqualTo(run(body).toJson());
  }

  @Test
  void countsARepeatedIdOnceAsLiveDoes() {
    SimulationResult result =
        run(
            "{'pipeline':{'window':{'type':'fixed','size':'1m'},'aggregate':{'type':'count'}},"
                + "'steps':[{'events':[{'key':'a','timestamp':1,'id':'x'},"
                + "{'key':'a','timestamp':2,'id':'x'}]},"
                + "{'events':[{'key':'a','timestamp':3,'id':'x'},{'key':'a','timestamp':4}]},"
                + "{'watermark':'+inf'}]}");
    assertThat(result.outputs()).hasSize(1);
    assertThat(result.outputs().get(0).get("value").asLong()).isEqualTo(2);
    assertThat(result.counts().accepted()).isEqualTo(2);
    assertThat(result.counts().duplicates()).isEqualTo(2);
    // A duplicate is counted, not dropped: nothing is lost that the pipeline had not applied.
    assertThat(result.dropped()).isEmpty();
    assertThat(result.toJson().at("/counts/duplicates").asInt()).isEqualTo(2);
  }

  @Test
  void stopsWhenItsRecordsOutgrowTheByteBudgetNamingTheStep() {
    SimulationLimits small = new SimulationLimits(10, 10, 100, 400, Duration.ofSeconds(30));
    SimulationRequest request =
        new SimulationRequestParser(small, PipelineLimits.DEFAULT)
            .parse(
                JsonMapper.shared()
                    .readTree(
                        EVERY_ELEMENT
                            .formatted(
                                "{'key':'a','timestamp':1},{'key':'b','timestamp':1},"
                                    + "{'key':'c','timestamp':1}")
                            .replace('\'', '"')));
    InvalidInputException e =
        catchThrowableOfType(
            InvalidInputException.class, () -> new Simulator(small).run(request, () -> false));
    assertThat(e.violations().get(0).path()).isEqualTo("/steps/0");
    assertThat(e.violations().get(0).reason()).contains("more than 400 bytes of records");
  }

  @Test
  void stopsWhenItsTimeIsUpOrItsClientHasGone() {
    String body = EVERY_ELEMENT.formatted("{'key':'a','timestamp':1}").replace('\'', '"');
    SimulationLimits expired = new SimulationLimits(10, 10, 100, 1 << 20, Duration.ofMillis(-1));
    SimulationRequest request =
        new SimulationRequestParser(expired, PipelineLimits.DEFAULT)
            .parse(JsonMapper.shared().readTree(body));
    InvalidInputException late =
        catchThrowableOfType(
            InvalidInputException.class, () -> new Simulator(expired).run(request, () -> false));
    assertThat(late.violations().get(0).reason()).contains("for longer than");

    assertThat(catchThrowable(() -> new Simulator(LIMITS).run(request, () -> true)))
        .isInstanceOf(CancellationException.class);
  }
}
