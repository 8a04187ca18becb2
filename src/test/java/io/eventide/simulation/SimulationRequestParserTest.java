package io.eventide.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.engine.Time;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SimulationRequestParserTest {
  private static final String PIPELINE =
      "'pipeline':{'window':{'type':'fixed','size':'1m'},'aggregate':{'type':'sum'}}";
  private static final SimulationRequestParser PARSER =
      new SimulationRequestParser(
          new SimulationLimits(3, 4, 100, 1 << 20, Duration.ofSeconds(30)), PipelineLimits.DEFAULT);

  private static JsonNode json(String text) {
    return JsonMapper.shared().readTree(text.replace('\'', '"'));
  }

  private static SimulationRequest parse(String steps) {
    return PARSER.parse(json("{" + PIPELINE + ",'steps':" + steps + "}"));
  }

  private static List<Violation> violations(String body) {
    return catchThrowableOfType(InvalidInputException.class, () -> PARSER.parse(json(body)))
        .violations();
  }

  @Test
  void readsEveryKindOfStep() {
    SimulationRequest r =
        parse(
            "[{'events':[{'key':'k','timestamp':1,'value':1}]},{'watermark':25},"
                + "{'processingTime':'1970-01-01T00:01:00Z'}]");
    assertThat(r.pipeline().name()).isEqualTo("simulation");
    assertThat(r.processingTimeStart()).isZero();
    assertThat(r.steps())
        .containsExactly(
            new SimulationStep.Events(List.of(json("{'key':'k','timestamp':1,'value':1}"))),
            new SimulationStep.Watermark(25),
            new SimulationStep.ProcessingTime(60_000));
    assertThat(parse("[{'watermark':'+inf'}]").steps())
        .containsExactly(new SimulationStep.Watermark(Time.MAX));
  }

  @Test
  void reportsEveryViolationAtOnce() {
    assertThat(
            violations(
                "{'pipeline':{'window':{'type':'fixed'},'aggregate':{'type':'sum'}},"
                    + "'processingTimeStart':'noon','steps':[{'watermark':1,'events':[]},{},"
                    + "{'watermark':'later'}],'speed':2}"))
        .containsExactlyInAnyOrder(
            new Violation("/pipeline/window/size", "is required"),
            new Violation(
                "/processingTimeStart",
                "must be epoch milliseconds or an ISO-8601 timestamp with a zone, such as"
                    + " 2024-05-01T12:00:00Z (got 'noon')"),
            new Violation("/steps/0", "must have exactly one of events, watermark, processingTime"),
            new Violation("/steps/1", "must have exactly one of events, watermark, processingTime"),
            new Violation(
                "/steps/2/watermark",
                "must be epoch milliseconds or an ISO-8601 timestamp with a zone, such as"
                    + " 2024-05-01T12:00:00Z (got 'later'), or \"+inf\" for the end of time"),
            new Violation("/speed", "unknown field"));
  }

  @Test
  void enforcesTheLimits() {
    assertThat(
            violations(
                "{"
                    + PIPELINE
                    + ",'steps':[{'watermark':1},{'watermark':2},"
                    + "{'watermark':3},{'watermark':4}]}"))
        .containsExactly(new Violation("/steps", "must have at most 3 steps (has 4)"));
    assertThat(violations("{" + PIPELINE + ",'steps':[{'events':[{},{},{}]},{'events':[{},{}]}]}"))
        .containsExactly(new Violation("/steps", "must hold at most 4 events in total (has 5)"));
  }

  @Test
  void requiresPipelineAndSteps() {
    assertThat(violations("{}"))
        .containsExactly(
            new Violation("/pipeline", "is required"), new Violation("/steps", "is required"));
    assertThat(violations("[]")).containsExactly(new Violation("", "must be an object"));
    assertThat(violations("{" + PIPELINE + ",'steps':{}}"))
        .containsExactly(new Violation("/steps", "must be an array of steps"));
    assertThat(violations("{" + PIPELINE + ",'steps':[{'events':{}}]}"))
        .containsExactly(new Violation("/steps/0/events", "must be an array of events"));
  }
}
