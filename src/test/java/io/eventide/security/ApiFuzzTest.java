package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.EventideApplication;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generated pipeline definitions and event batches against one running service: never a 5xx, and a
 * batch is applied whole or not at all, its counts adding up to the events sent.
 */
class ApiFuzzTest {
  private static final JsonMapper JSON = JsonMapper.shared();
  private static final AtomicInteger PIPELINES = new AtomicInteger();
  private static ConfigurableApplicationContext app;
  private static Http http;

  @BeforeContainer
  static void start() {
    app =
        // Arguments, not default properties: config/application.yaml's server.port would win
        // over those, and the test would need port 8080 free.
        new SpringApplicationBuilder(EventideApplication.class)
            .run("--server.port=0", "--spring.main.banner-mode=off");
    http = new Http(Integer.parseInt(app.getEnvironment().getProperty("local.server.port")));
  }

  @AfterContainer
  static void stop() {
    app.close();
  }

  @Property(tries = 200)
  void definitionsNeverCauseAServerError(@ForAll("definitions") String definition) {
    String name = "fuzz-def-" + PIPELINES.incrementAndGet();
    try {
      Http.Reply reply = http.send(HttpMethod.PUT, "/pipelines/" + name, null, definition);
      assertThat(reply.status()).as("%s -> %s", definition, reply.text()).isIn(201, 400);
      int stored = http.get("/pipelines/" + name, null).status();
      assertThat(stored)
          .as("stored only when accepted")
          .isEqualTo(reply.status() == 201 ? 200 : 404);
    } finally {
      delete(name);
    }
  }

  @Property(tries = 200)
  void batchesAreAppliedWholeOrNotAtAll(@ForAll("batches") List<String> events) {
    String name = "fuzz-ev-" + PIPELINES.incrementAndGet();
    try {
      applyWholeOrNotAtAll(name, events);
    } finally {
      delete(name);
    }
  }

  /**
   * Every try leaves nothing running: otherwise the service ends up beating hundreds of pipelines,
   * and each try is slower than the one before.
   */
  private static void delete(String name) {
    assertThat(http.send(HttpMethod.DELETE, "/pipelines/" + name, null, (String) null).status())
        .isIn(204, 404);
  }

  private static void applyWholeOrNotAtAll(String name, List<String> events) {
    String sums = "{\"window\":{\"type\":\"global\"},\"aggregate\":{\"type\":\"sum\"}}";
    assertThat(http.send(HttpMethod.PUT, "/pipelines/" + name, null, sums).status()).isEqualTo(201);
    String body = "[" + String.join(",", events) + "]";
    Http.Reply reply = http.send(HttpMethod.POST, "/pipelines/" + name + "/events", null, body);
    assertThat(reply.status()).as("%s -> %s", body, reply.text()).isIn(202, 400);
    long held = elements(name);
    long dead =
        http.get("/pipelines/" + name + "/dead-letters?limit=1000", null)
            .json()
            .get("deadLetters")
            .size();
    if (reply.status() == 400) {
      assertThat(held).as("nothing of a refused batch").isZero();
      assertThat(dead).isZero();
      return;
    }
    JsonNode r = reply.json();
    JsonNode dropped = r.get("dropped");
    long total =
        r.get("accepted").asLong()
            + r.get("late").asLong()
            + r.get("duplicates").asLong()
            + r.get("filtered").asLong()
            + dropped.get("expired").asLong()
            + dropped.get("closed").asLong()
            + dropped.get("future").asLong()
            + dropped.get("invalid").asLong();
    assertThat(total).as(r.toString()).isEqualTo(events.size());
    assertThat(held)
        .as("the windows hold exactly the accepted events")
        .isEqualTo(r.get("accepted").asLong() + r.get("late").asLong());
    assertThat(dead)
        .isEqualTo(
            dropped.get("invalid").asLong()
                + dropped.get("future").asLong()
                + dropped.get("expired").asLong()
                + dropped.get("closed").asLong());
  }

  private static long elements(String pipeline) {
    long n = 0;
    for (JsonNode w : http.get("/pipelines/" + pipeline + "/windows", null).json().get("windows")) {
      n += w.get("elements").asLong();
    }
    return n;
  }

  private static String quote(String s) {
    return JSON.writeValueAsString(s);
  }

  @Provide
  Arbitrary<String> definitions() {
    Arbitrary<String> windowType =
        Arbitraries.of(
            "fixed", "sliding", "session", "global", "calendar", "", "FIXED", "tumbling");
    Arbitrary<String> duration =
        Arbitraries.of(
            "\"1m\"",
            "\"0s\"",
            "\"-1m\"",
            "\"abc\"",
            "5",
            "null",
            "true",
            "\"99999999999d\"",
            "\"PT1H\"",
            "1e400",
            "[]",
            "{}");
    Arbitrary<String> aggregate =
        Arbitraries.of("count", "sum", "mean", "min", "max", "latest", "ohlc", "distinct", "x");
    Arbitrary<String> trigger =
        Arbitraries.of(
            "",
            ",\"trigger\":\"default\"",
            ",\"trigger\":{\"type\":\"afterCount\",\"count\":0}",
            ",\"trigger\":{\"type\":\"afterCount\",\"count\":-1}",
            ",\"trigger\":7",
            ",\"trigger\":{\"type\":\"repeatedly\",\"trigger\":{\"type\":\"afterCount\",\"count\":2}}",
            ",\"trigger\":\"Repeatedly.forever(AfterPane.elementCountAtLeast(2))\"",
            ",\"allowedLateness\":\"-5m\"",
            ",\"accumulation\":\"sideways\"",
            ",\"unknown\":1");
    Arbitrary<String> structured =
        Combinators.combine(windowType, duration, duration, aggregate, trigger)
            .as(
                (type, size, period, agg, extra) ->
                    "{\"window\":{\"type\":\"%s\",\"size\":%s,\"period\":%s},\"aggregate\":{\"type\":\"%s\"}%s}"
                        .formatted(type, size, period, agg, extra));
    Arbitrary<String> junk = Arbitraries.strings().ofMaxLength(40);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, structured), net.jqwik.api.Tuple.of(2, junk));
  }

  @Provide
  Arbitrary<List<String>> batches() {
    Arbitrary<String> key =
        Arbitraries.oneOf(
            Arbitraries.strings().ofMaxLength(10).map(ApiFuzzTest::quote),
            Arbitraries.of(
                "\"k\"", "\"ключ@🚀\"", "7", "null", "{}", "\"" + "x".repeat(600) + "\""));
    Arbitrary<String> timestamp =
        Arbitraries.oneOf(
            Arbitraries.longs().between(0, 4_000_000_000_000L).map(Object::toString),
            Arbitraries.of(
                "\"2026-01-01T10:00:00Z\"",
                "-1",
                "1e400",
                "1.5",
                "\"yesterday\"",
                "99999999999999999999",
                "9000000000000000",
                "null",
                "true"));
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.doubles().between(-1e6, 1e6).map(Object::toString),
            Arbitraries.of(
                "1e400", "\"1\"", "null", "[1]", "-0.0", "123456789012345678901234567890"));
    Arbitrary<String> id = Arbitraries.of("", ",\"id\":\"a\"", ",\"id\":\"b\"", ",\"id\":3");
    Arbitrary<String> event =
        Combinators.combine(key, timestamp, value, id)
            .as("{\"key\":%s,\"timestamp\":%s,\"value\":%s%s}"::formatted);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(9, event),
            net.jqwik.api.Tuple.of(1, Arbitraries.of("1", "[]", "\"e\"", "{")))
        .list()
        .ofMaxSize(20);
  }
}
