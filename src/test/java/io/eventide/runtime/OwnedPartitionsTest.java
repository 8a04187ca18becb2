package io.eventide.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.Revision;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.ManualClock;
import io.eventide.state.TestRedis;
import io.eventide.state.memory.InMemoryPipelineRegistry;
import io.eventide.state.redis.RedisStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** Taking a partition over in cluster mode, against a real Redis. */
class OwnedPartitionsTest {
  private final String prefix = TestRedis.newKeyPrefix();
  private final LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
  private final RedisStateStore store = TestRedis.store(factory, prefix);

  @AfterEach
  void close() {
    factory.destroy();
    TestRedis.delete(prefix);
  }

  /**
   * Issue 34: a DELETE whose drop lands between the registry's answer and the open took the
   * pipeline's meta first, and the open wrote the lineage back: the deleted pipeline's state came
   * back. Now the open reads the registry again and undoes itself.
   */
  @Test
  void anOpenRacingADeleteLeavesNoStateOfTheDeletedPipeline() {
    PipelineDefinition gone = definition("gone").withRevision(new Revision("lineage", 1));
    InMemoryPipelineRegistry registry = new DeletedAfterFirstAnswer();
    registry.replace(gone, null).block();
    OwnedPartitions partitions = new OwnedPartitions(runtimes(registry), store, store, registry);

    assertThatThrownBy(() -> partitions.open(new OwnedPartitions.Id("gone", 0), 2).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(PipelineGoneException.class);
    assertThat(TestRedis.keys(prefix + ":{gone}:*")).isEmpty();
  }

  /**
   * Issue 34: a log replayed after a reset holds many records of the earlier lineage; the registry
   * is asked once whether they are of a later one, not once per record (each a Redis round trip and
   * a definition parse).
   */
  @Test
  void recordsOfAnEarlierLineageAreSkippedAskingTheRegistryOnce() {
    PipelineDefinition current = definition("replayed").withRevision(new Revision("now", 1));
    AtomicInteger finds = new AtomicInteger();
    InMemoryPipelineRegistry registry =
        new InMemoryPipelineRegistry() {
          @Override
          public Mono<PipelineDefinition> find(String name) {
            finds.incrementAndGet();
            return super.find(name);
          }
        };
    registry.replace(current, null).block();
    OwnedPartitions partitions = new OwnedPartitions(runtimes(registry), store, store, registry);
    OwnedPartitions.Id id = new OwnedPartitions.Id("replayed", 0);
    partitions.open(id, 1).join();
    finds.set(0);

    List<LogRecord> older = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      older.add(
          new LogRecord(
              LogRecord.Kind.EVENT,
              "before",
              0,
              null,
              "{\"key\": \"a\", \"timestamp\": 0, \"value\": 1}".getBytes(UTF_8)));
    }
    long[] offsets = java.util.stream.LongStream.range(0, older.size()).toArray();
    assertThat(partitions.apply(id, older, offsets).join()).isTrue();
    assertThat(finds).hasValue(1);
    partitions.close(id).join();
  }

  /**
   * A CloudEvent logged by the replica that took it travels as one: the partition's owner reads its
   * attributes and its data, not its envelope as a plain event's fields.
   */
  @Test
  void theOwnerReadsALoggedCloudEventAsOne() {
    PipelineDefinition d = definition("logged-ce").withRevision(new Revision("now", 1));
    InMemoryPipelineRegistry registry = new InMemoryPipelineRegistry();
    registry.replace(d, null).block();
    OwnedPartitions partitions = new OwnedPartitions(runtimes(registry), store, store, registry);
    OwnedPartitions.Id id = new OwnedPartitions.Id("logged-ce", 0);
    partitions.open(id, 1).join();
    String attributes =
        "\"specversion\": \"1.0\", \"source\": \"/s\", \"type\": \"t\","
            + " \"time\": \"1970-01-01T00:00:01Z\", \"data\": {\"key\": \"a\"}";
    List<LogRecord> records =
        List.of(
            new LogRecord(
                LogRecord.Kind.CLOUD_EVENT,
                "now",
                0,
                null,
                ("{\"id\": \"e1\", " + attributes + "}").getBytes(UTF_8)),
            new LogRecord(
                LogRecord.Kind.CLOUD_EVENT,
                "now",
                0,
                null,
                ("{" + attributes + "}").getBytes(UTF_8)),
            new LogRecord(
                LogRecord.Kind.EVENT,
                "now",
                0,
                null,
                "{\"key\": \"a\", \"timestamp\": 0}".getBytes(UTF_8)));
    assertThat(partitions.apply(id, records, new long[] {0, 1, 2}).join()).isTrue();
    assertThat(store.deadLetters("logged-ce", 10).block())
        .extracting(letter -> letter.get("path").asString())
        .containsExactly("/id");
    partitions.close(id).join();
  }

  private static PipelineDefinition definition(String name) {
    return PipelineParser.parseNamed(
        JsonMapper.shared()
            .readTree(
                "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"},"
                    + " \"aggregate\": {\"type\": \"count\"}}"),
        name,
        KafkaNamespace.DEFAULT,
        PipelineLimits.DEFAULT);
  }

  /** Answers a pipeline once, and a DELETE (the registry's, then the drop) lands right after. */
  private final class DeletedAfterFirstAnswer extends InMemoryPipelineRegistry {
    private final AtomicBoolean answered = new AtomicBoolean();

    @Override
    public Mono<PipelineDefinition> find(String name) {
      return super.find(name)
          .flatMap(
              d ->
                  answered.compareAndSet(false, true)
                      ? delete(name).then(Mono.fromFuture(store.drop(name))).thenReturn(d)
                      : Mono.just(d));
    }
  }

  private RunningPipelines runtimes(InMemoryPipelineRegistry registry) {
    Binder defaults = new Binder(new MapConfigurationPropertySource(Map.of()));
    return new RunningPipelines(
        defaults.bindOrCreate("eventide.runtime", RuntimeProperties.class),
        defaults.bindOrCreate("eventide.ingest", IngestProperties.class),
        new ManualClock(0),
        List.of(),
        List.of(),
        List.of(),
        store,
        store,
        registry,
        new DefaultListableBeanFactory().getBeanProvider(ClusterIngest.class));
  }
}
