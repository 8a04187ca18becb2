package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.WatermarkTracker;
import io.eventide.state.OutputStore;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

/**
 * The event source with the memory store, which keeps nothing across a restart: nothing is
 * committed to the group, and a pipeline that lost its state reads its topic again from the start.
 */
class KafkaEventSourceTest extends KafkaIntegrationTest {
  private static final String TOPIC = "eventide.from-kafka.clicks";

  @Autowired OutputStore store;

  @Test
  void aPipelineThatLostItsStateReadsTheTopicAgainAndNothingIsCommittedMeanwhile()
      throws Exception {
    try (EventTopic topic = new EventTopic(TOPIC)) {
      define("from-kafka", EventTopic.definition(TOPIC));
      topic.sendTwentyEventsAndOneThatIsNotJson();
      topic.awaitTotals(store, "from-kafka", EventTopic.SUMS);
      assertThat(read("eventide.from-kafka.dead-letters", 1))
          .singleElement()
          .satisfies(r -> assertThat(value(r).get("reason").stringValue()).isEqualTo("invalid"));
      assertThat(runtime("from-kafka").watermark().join().sources())
          .extracting(WatermarkTracker.SourceView::source)
          .contains("kafka:" + TOPIC + ":0", "kafka:" + TOPIC + ":1");

      // A restart loses the memory store's state and definitions; so does a delete. Defined again,
      // the pipeline must count the topic from the start, not from offsets a lost state committed.
      client.delete().uri("/pipelines/from-kafka").exchange().expectStatus().isNoContent();
      define("from-kafka", EventTopic.definition(TOPIC));
      topic.sendLateComer(0);
      topic.awaitTotals(store, "from-kafka", EventTopic.SUMS_AND_LATE_COMER);
      assertThat(topic.committed("eventide.from-kafka.source")).isZero();
    }
  }

  @Test
  void aResetPipelineReadsItsTopicAgainFromTheStart() throws Exception {
    String topicName = "eventide.reset-kafka.clicks";
    try (EventTopic topic = new EventTopic(topicName)) {
      define("reset-kafka", EventTopic.definition(topicName));
      topic.sendTwentyEventsAndOneThatIsNotJson();
      topic.awaitTotals(store, "reset-kafka", EventTopic.SUMS);

      // The source keeps running through the reset; the state it fed is gone, so is its position.
      client
          .put()
          .uri("/pipelines/reset-kafka?reset=true")
          .contentType(MediaType.APPLICATION_JSON)
          .bodyValue(EventTopic.definition(topicName))
          .exchange()
          .expectStatus()
          .isOk();
      topic.sendLateComer(1);
      topic.awaitTotals(store, "reset-kafka", EventTopic.SUMS_AND_LATE_COMER);
    }
  }
}
