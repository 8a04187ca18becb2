package io.eventide.cluster;

import static io.eventide.cluster.ClusterScenario.BASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.definition.json.Timestamps;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * {@code /windows} without a key in cluster mode (issue 34): any replica pages through every
 * partition's open windows in key order, each window once, in the very order one process in memory
 * mode (this test's own context) pages them, keys beyond the BMP, in U+E000–U+FFFF and prefixes of
 * one another included; and a page reads from Redis the keys it can show, not every key.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "eventide.runtime.shards=4")
class ClusterWindowsTest {
  /** Two windows of every key, kept open: no watermark reaches their end. */
  private static final String OPEN =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT1H",
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "sum"},
       "watermark": {"maxOutOfOrderness": "P365D"}}
      """;

  /** Where UTF-16 order and byte order disagree, and keys that begin others. */
  private static final List<String> AWKWARD =
      List.of(
          "a",
          "ab",
          "abc",
          "ab\u00e9",
          "\uE000",
          "\uE000x",
          "\uFF21",
          "\uFFFD",
          "x\uFFFFy",
          "\uD83D\uDE00",
          "\uD83D\uDE00a",
          "\uD800\uDC00",
          "\uD835\uDD18",
          "x\uD83D\uDE00y",
          "x");

  /** The cluster's partitions (ClusterReplicas), each holding many keys. */
  private static final int PARTITIONS = 6;

  /** Many more keys than a page reads, a multiple of 99 (cursorAfter). */
  private static final int KEYS = 480 + AWKWARD.size();

  @LocalServerPort int port;

  @Test
  void everyReplicaPagesEveryOpenWindowOnceInTheOrderOfMemoryModeReadingOnlyThePagesKeys()
      throws Exception {
    List<String> keys = keys();
    ArrayNode events = JsonNodeFactory.instance.arrayNode();
    for (String key : keys) {
      for (long minute = 0; minute < 2; minute++) {
        events.addObject().put("key", key).put("timestamp", BASE + minute * 60_000).put("value", 1);
      }
    }
    // The windows in byte order of their keys, then by start.
    List<String> expected = new ArrayList<>();
    keys.stream()
        .sorted((x, y) -> Arrays.compareUnsigned(utf8(x), utf8(y)))
        .forEach(
            k -> {
              expected.add(window(k, BASE));
              expected.add(window(k, BASE + 60_000));
            });

    LiveApi memory = LiveApi.on(port);
    memory.define("open", OPEN);
    memory.events("open", events.toString());
    assertThat(pages(memory, 7)).isEqualTo(expected);

    try (ClusterReplicas replicas = new ClusterReplicas(2).startAll()) {
      replicas.api(1).define("open", OPEN);
      JsonNode answer =
          replicas
              .api(1)
              .send(
                  HttpMethod.POST,
                  "/pipelines/open/events?wait=applied",
                  MediaType.APPLICATION_JSON,
                  events.toString())
              .expect(202)
              .body();
      assertThat(answer.get("accepted").asInt()).isEqualTo(2 * KEYS);
      // Committed by every partition's owner once the pages hold them all.
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> pages(replicas.api(0), 100).size() == 2 * KEYS);

      assertThat(pages(replicas.api(0), 7)).isEqualTo(expected);
      assertThat(pages(replicas.api(1), 13)).isEqualTo(expected);

      // A page of 10 from the middle reads at most 10 keys after the cursor's, and that one, from
      // each partition: not the partitions' every key.
      String middle = cursorAfter(replicas.api(0), KEYS);
      double before = replicas.metric(0, "eventide_cluster_windows_states_read_total");
      JsonNode page = replicas.api(0).get("/pipelines/open/windows?limit=10&after=" + middle);
      double read = replicas.metric(0, "eventide_cluster_windows_states_read_total") - before;
      assertThat(page.get("windows")).hasSize(10);
      assertThat(window(page.get("windows").get(0))).isEqualTo(expected.get(KEYS));
      assertThat(read).isLessThanOrEqualTo(PARTITIONS * (10 + 2)).isLessThan(KEYS / 4.0);
    }
  }

  /** Every window of pipeline {@code open}, read in pages of {@code limit}. */
  private static List<String> pages(LiveApi api, int limit) {
    List<String> seen = new ArrayList<>();
    String next = null;
    do {
      JsonNode page =
          api.get(
              "/pipelines/open/windows?limit=" + limit + (next == null ? "" : "&after=" + next));
      assertThat(page.get("windows").size()).isLessThanOrEqualTo(limit);
      page.get("windows").forEach(w -> seen.add(window(w)));
      next = page.has("next") ? page.get("next").asString() : null;
    } while (next != null);
    return seen;
  }

  /**
   * The cursor after the first {@code windows} windows, read in pages of 99 (a page's answer has a
   * size limit at the client).
   */
  private static String cursorAfter(LiveApi api, int windows) {
    String next = null;
    for (int taken = 0; taken < windows; taken += 99) {
      next =
          api.get("/pipelines/open/windows?limit=99" + (next == null ? "" : "&after=" + next))
              .get("next")
              .asString();
    }
    return next;
  }

  private static List<String> keys() {
    List<String> keys = new ArrayList<>(AWKWARD);
    for (int k = 0; k < KEYS - AWKWARD.size(); k++) {
      keys.add("k" + k);
    }
    return keys;
  }

  private static String window(JsonNode w) {
    return w.get("key").asString() + "@" + w.at("/window/start").asString();
  }

  private static String window(String key, long start) {
    return key + "@" + Timestamps.format(start);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
