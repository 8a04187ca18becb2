package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;

/**
 * Events of known needs for {@code GET /pipelines/{name}/lateness}: under a watermark at the last
 * millisecond of 10:09, minute windows and a minute of lateness, two sources send an event each on
 * time and one late, by a minute (kept) for {@code web} and by four (dropped) for {@code app}. The
 * figures are exact: these are fewer events than a sketch holds.
 */
public final class LatenessFeed {
  public static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT1M",
       "aggregate": {"type": "count"}}
      """;

  private LatenessFeed() {}

  /** The watermark the events arrive under. */
  public static final String WATERMARK = "2026-01-01T10:09:59.999Z";

  /** Defines {@code pipeline} and sends the events. */
  public static void feed(LiveApi api, String pipeline) {
    api.define(pipeline, DEFINITION);
    api.watermark(pipeline, "{\"watermark\": \"" + WATERMARK + "\"}");
    JsonNode accepted = api.events(pipeline, events("k"));
    assertThat(accepted.get("accepted").asInt()).isEqualTo(3);
    assertThat(accepted.at("/dropped/expired").asInt()).isEqualTo(1);
  }

  /** The four events of {@link #feed}, of {@code key}, as a JSON array. */
  public static String events(String key) {
    return "["
        + event(key, "web", "2026-01-01T10:10:30Z")
        + ","
        + event(key, "app", "2026-01-01T10:09:30Z")
        + ","
        + event(key, "web", "2026-01-01T10:08:30Z")
        + ","
        + event(key, "app", "2026-01-01T10:05:10Z")
        + "]";
  }

  /** One more event of {@code web}, on time. */
  public static void feedOneMore(LiveApi api, String pipeline) {
    api.events(pipeline, event("k", "web", "2026-01-01T10:11:00Z"));
  }

  /** What the route answers for the events of {@link #feed}. */
  public static void assertFed(JsonNode lateness) {
    assertFed(lateness, 1);
  }

  /** What the route answers for the events of {@link #events} sent for {@code keys} keys. */
  public static void assertFed(JsonNode lateness, int keys) {
    assertThat(lateness.get("allowedLateness").asString()).isEqualTo("PT1M");
    assertThat(lateness.get("events").asLong()).isEqualTo(4L * keys);
    assertThat(lateness.get("onTime").asLong()).isEqualTo(2L * keys);
    assertThat(lateness.get("rankError").asDouble()).isZero();
    assertThat(lateness.at("/needMillis/0.5").asLong()).isZero();
    assertThat(lateness.at("/needMillis/0.9").asLong()).isEqualTo(240_000);
    assertThat(lateness.at("/needMillis/max").asLong()).isEqualTo(240_000);
    assertThat(lateness.at("/suggestions/0/completeness").asDouble()).isEqualTo(0.9);
    assertThat(lateness.at("/suggestions/0/allowedLateness").asString()).isEqualTo("PT4M");
    assertThat(lateness.get("kept").asDouble()).isEqualTo(0.75);
    JsonNode sources = lateness.get("sources");
    assertThat(sources).hasSize(2);
    assertThat(sources.at("/0/source").asString()).isEqualTo("app");
    assertThat(sources.at("/0/needMillis/max").asLong()).isEqualTo(240_000);
    assertThat(sources.at("/0/kept").asDouble()).isEqualTo(0.5);
    assertThat(sources.at("/1/source").asString()).isEqualTo("web");
    assertThat(sources.at("/1/needMillis/max").asLong()).isEqualTo(60_000);
    assertThat(sources.at("/1/kept").asDouble()).isEqualTo(1.0);
    assertThat(sources.at("/1/suggestions/0/allowedLateness").asString()).isEqualTo("PT1M");
    assertThat(lateness.has("otherSources")).isFalse();
  }

  private static String event(String key, String source, String timestamp) {
    return "{\"key\": \"%s\", \"timestamp\": \"%s\", \"source\": \"%s\"}"
        .formatted(key, timestamp, source);
  }
}
