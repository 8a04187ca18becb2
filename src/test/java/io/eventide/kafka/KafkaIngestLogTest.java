package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.ClusterProperties;
import io.eventide.runtime.IngestLog;
import io.eventide.runtime.IngestLogException;
import io.eventide.runtime.LogRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * What a failed append to the ingest log tells the producer (issue 34): "nothing logged, resend"
 * only when every record was refused for what it is; a timeout proves nothing (the records may be
 * on the broker, their acknowledgement lost), so a resend of events without ids could count them
 * twice: the outcome is unknown. Before, an append whose every record timed out said nothing was
 * logged.
 */
class KafkaIngestLogTest {
  private static final ClusterProperties CLUSTER =
      new Binder(
              new MapConfigurationPropertySource(Map.of("eventide.cluster.append-timeout", "2s")))
          .bindOrCreate("eventide.cluster", ClusterProperties.class);

  @Test
  void anAppendWhoseRecordsTimedOutHasAnUnknownOutcome() throws Exception {
    IngestLogException failed = appendTo("127.0.0.1:" + closedPort(), "{\"value\": 1}");
    assertThat(failed.outcomeKnown()).as("%s", failed).isFalse();
  }

  @Test
  void anAppendWhoseRecordsWereRefusedForTheirSizeLoggedNothing() {
    String large = "{\"value\": \"" + "x".repeat(2 * 1024 * 1024) + "\"}";
    IngestLogException failed = appendTo(KafkaTestBroker.get().bootstrapServers(), large);
    assertThat(failed.outcomeKnown()).as("%s", failed).isTrue();
  }

  private static IngestLogException appendTo(String bootstrap, String event) {
    Map<String, Object> boot = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(boot);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(KafkaIngestLog.producerProperties(boot, CLUSTER))) {
      KafkaIngestLog log = new KafkaIngestLog(admin, KafkaNamespace.DEFAULT, CLUSTER, producer);
      LogRecord record =
          new LogRecord(
              LogRecord.Kind.EVENT,
              "lineage",
              0,
              null,
              event.getBytes(StandardCharsets.UTF_8),
              null);
      Throwable error =
          catchThrowable(
              () -> log.append("appended", List.of(new IngestLog.Entry(0, "k", record))).join());
      assertThat(error).isInstanceOf(CompletionException.class);
      assertThat(error.getCause()).isInstanceOf(IngestLogException.class);
      return (IngestLogException) error.getCause();
    }
  }

  /** A port nothing listens on. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
