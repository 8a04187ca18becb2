package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.JsonNode;

/**
 * Events of known needs for {@code GET /pipelines/{name}/lateness}: under a watermark at the last
 * millisecond of 10:09, minute windows and a minute of lateness, two sources send an event each on
 * time and one late, by a minute (kept) for {@code web} and by four (dropped) for {@code app}.
 */
public final class LatenessFeed {
  public static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT1M",
       "aggregate": {"type": "count"}}
      """;

  private LatenessFeed() {}

  /** Defines {@code pipeline} and sends the events. */
  public static void feed(LiveApi api, String pipeline) {
    api.define(pipeline, DEFINITION);
    api.watermark(pipeline, "{\"watermark\": \"2026-01-01T10:09:59.999Z\"}");
    JsonNode accepted =
        api.events(
            pipeline,
            "["
                + event("web", "2026-01-01T10:10:30Z")
                + ","
                + event("app", "2026-01-01T10:09:30Z")
                + ","
                + event("web", "2026-01-01T10:08:30Z")
                + ","
                + event("app", "2026-01-01T10:05:10Z")
                + "]");
    assertThat(accepted.get("accepted").asInt()).isEqualTo(3);
    assertThat(accepted.at("/dropped/expired").asInt()).isEqualTo(1);
  }

  /** One more event of {@code web}, on time. */
  public static void feedOneMore(LiveApi api, String pipeline) {
    api.events(pipeline, event("web", "2026-01-01T10:11:00Z"));
  }

  /** What the route answers for the events of {@link #feed}. */
  public static void assertFed(JsonNode lateness) {
    assertThat(lateness.get("allowedLateness").asString()).isEqualTo("PT1M");
    assertThat(lateness.get("events").asLong()).isEqualTo(4);
    assertThat(lateness.get("onTime").asLong()).isEqualTo(2);
    // Four events are fewer than the sketch holds: the figures are exact.
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

  private static String event(String source, String timestamp) {
    return "{\"key\": \"k\", \"timestamp\": \"%s\", \"source\": \"%s\"}"
        .formatted(timestamp, source);
  }
}
