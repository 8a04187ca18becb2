package io.eventide.kafka;

import io.eventide.core.DeadLetter;
import io.eventide.core.render.PaneRecords;
import io.eventide.definition.json.Timestamps;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.sink.DeadLetterListener;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends every dropped or invalid event of every pipeline to its dead-letter topic ({@link
 * KafkaNamespace#deadLetterTopic}), with the reason and the event as it was sent.
 */
class KafkaDeadLetterSink implements DeadLetterListener {
  private static final JsonMapper JSON = JsonMapper.shared();

  private final KafkaOutbox outbox;
  private final KafkaNamespace namespace;

  KafkaDeadLetterSink(KafkaOutbox outbox, KafkaNamespace namespace) {
    this.outbox = outbox;
    this.namespace = namespace;
  }

  @Override
  public void onDeadLetters(String pipeline, List<DeadLetter> letters) {
    for (DeadLetter letter : letters) {
      outbox.offer(
          new ProducerRecord<>(
              namespace.deadLetterTopic(pipeline), JSON.writeValueAsBytes(toJson(letter))),
          "delete");
    }
  }

  static ObjectNode toJson(DeadLetter letter) {
    ObjectNode json = JsonNodeFactory.instance.objectNode();
    json.put("pipeline", letter.pipeline());
    json.put("reason", letter.reason().wireName());
    if (letter.path() != null) {
      json.put("path", letter.path());
    }
    json.put("detail", letter.detail());
    if (letter.window() != null) {
      json.set("window", PaneRecords.window(letter.window()));
    }
    json.put("at", Timestamps.format(letter.at()));
    json.set("event", letter.event());
    return json;
  }
}
