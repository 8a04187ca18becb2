package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code eventide.ingest.max-open-windows} over HTTP, in memory and on Redis: a post past a
 * pipeline's limit is answered 202 with the events over it refused {@code quota} and dead-lettered,
 * windows already open still take events, other pipelines keep their own room, and a service
 * restarted on Redis counts the windows it restored.
 */
class OpenWindowQuotaTest {
  private static final int LIMIT = 4;
  private static final int KEYS = 24;
  private static final String SETTING = "--eventide.ingest.max-open-windows=" + LIMIT;
  private static final String SUMS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1h\"}, \"aggregate\": {\"type\": \"sum\"}}";
  private static final String TIME = "2026-01-01T10:00:00Z";

  private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
  private String prefix;

  @AfterEach
  void stop() {
    apps.forEach(ConfigurableApplicationContext::close);
    if (prefix != null) {
      TestRedis.delete(prefix);
    }
  }

  private LiveApi started(ConfigurableApplicationContext app) {
    apps.add(app);
    return RedisEventide.api(app);
  }

  @Test
  void inMemoryEventsPastTheLimitAreRefusedQuotaAndOtherPipelinesKeepTheirRoom() {
    LiveApi api =
        started(
            new SpringApplicationBuilder(EventideApplication.class)
                .run("--server.port=0", "--eventide.runtime.shards=2", SETTING));
    Set<String> open = fillPastTheLimit(api, "quota");
    fillPastTheLimit(api, "quota-other");
    stillTakesEventsFor(api, "quota", open);
  }

  @Test
  void onRedisTheRestoredWindowsCountAfterARestart() {
    prefix = TestRedis.newKeyPrefix();
    LiveApi api = started(RedisEventide.start(prefix, SETTING));
    Set<String> open = fillPastTheLimit(api, "quota");
    fillPastTheLimit(api, "quota-other");
    apps.remove(0).close();

    LiveApi again = started(RedisEventide.start(prefix, SETTING));
    JsonNode answer = again.events("quota", event("another", TIME, 1));
    assertThat(answer.at("/dropped/quota").asInt()).isEqualTo(1);
    stillTakesEventsFor(again, "quota", open);
  }

  /**
   * Posts one event for each of many keys, each opening a window: exactly the limit are taken
   * (split over the shards, which the keys more than fill), the rest refused. Returns the keys
   * taken.
   */
  private static Set<String> fillPastTheLimit(LiveApi api, String pipeline) {
    api.define(pipeline, SUMS);
    String[] events = new String[KEYS];
    for (int i = 0; i < KEYS; i++) {
      events[i] = event("k" + i, TIME, 1);
    }
    JsonNode answer = api.events(pipeline, array(events));
    assertThat(answer.get("accepted").asInt()).isEqualTo(LIMIT);
    assertThat(answer.at("/dropped/quota").asInt()).isEqualTo(KEYS - LIMIT);
    assertThat(answer.get("rejectedTotal").asInt()).isEqualTo(KEYS - LIMIT);
    Set<String> open = new HashSet<>();
    for (int i = 0; i < KEYS; i++) {
      open.add("k" + i);
    }
    for (JsonNode r : answer.get("rejected")) {
      assertThat(r.get("reason").asString()).isEqualTo("quota");
      assertThat(r.get("detail").asString()).contains("eventide.ingest.max-open-windows");
      open.remove("k" + r.get("index").asInt());
    }
    assertThat(open).hasSize(LIMIT);
    JsonNode letters = api.get("/pipelines/" + pipeline + "/dead-letters").get("deadLetters");
    assertThat(letters).hasSize(KEYS - LIMIT);
    assertThat(letters.get(0).get("reason").asString()).isEqualTo("quota");
    assertThat(letters.get(0).at("/window/start").asString()).isEqualTo("2026-01-01T10:00:00.000Z");
    return open;
  }

  private static void stillTakesEventsFor(LiveApi api, String pipeline, Set<String> open) {
    String[] events = open.stream().map(k -> event(k, TIME, 2)).toArray(String[]::new);
    JsonNode answer = api.events(pipeline, array(events));
    assertThat(answer.get("accepted").asInt()).isEqualTo(LIMIT);
    assertThat(answer.get("rejectedTotal").asInt()).isZero();
  }
}
