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
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.sink.PaneEvent;
import io.eventide.state.TestRedis;
import io.eventide.state.memory.InMemoryPipelineRegistry;
import io.eventide.state.redis.RedisStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
    PipelineDefinition gone =
        TestRuntimes.countPerMinute("gone").withRevision(new Revision("lineage", 1));
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
    PipelineDefinition current =
        TestRuntimes.countPerMinute("replayed").withRevision(new Revision("now", 1));
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
              "{\"key\": \"a\", \"timestamp\": 0, \"value\": 1}".getBytes(UTF_8),
              null));
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
    PipelineDefinition d =
        TestRuntimes.countPerMinute("logged-ce").withRevision(new Revision("now", 1));
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
                ("{\"id\": \"e1\", " + attributes + "}").getBytes(UTF_8),
                null),
            new LogRecord(
                LogRecord.Kind.CLOUD_EVENT,
                "now",
                0,
                null,
                ("{" + attributes + "}").getBytes(UTF_8),
                null),
            new LogRecord(
                LogRecord.Kind.EVENT,
                "now",
                0,
                null,
                "{\"key\": \"a\", \"timestamp\": 0}".getBytes(UTF_8),
                null));
    assertThat(partitions.apply(id, records, new long[] {0, 1, 2}).join()).isTrue();
    assertThat(store.deadLetters("logged-ce", 10).block())
        .extracting(letter -> letter.get("path").asString())
        .containsExactly("/id");
    partitions.close(id).join();
  }

  /**
   * One commit of a partition may apply the records of many requests (docs/operations.md#tracing):
   * its span is a child of the first traced request's in log order and links to the others', each
   * named once, untraced records adding nothing; a logged watermark is a commit of its own, in its
   * request's trace. The panes the commit logs to the pane log in Redis carry the commit's span.
   */
  @Test
  void aRunOfManyRequestsIsOneCommitWhoseSpanIsTheFirstsChildAndLinksTheOthers() {
    String name = "traced";
    PipelineDefinition traced =
        PipelineParser.parseNamed(
                JsonMapper.shared()
                    .readTree(
                        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"},"
                            + " \"trigger\": {\"type\": \"repeatedly\","
                            + " \"trigger\": {\"type\": \"afterCount\", \"count\": 1}},"
                            + " \"aggregate\": {\"type\": \"count\"}}"),
                name,
                KafkaNamespace.DEFAULT,
                PipelineLimits.DEFAULT)
            .withRevision(new Revision("lineage", 1));
    InMemoryPipelineRegistry registry = new InMemoryPipelineRegistry();
    registry.replace(traced, null).block();
    List<String> spansOfCommits = new ArrayList<>();
    List<RequestSpans> traces = new ArrayList<>();
    List<Integer> partitionsTraced = new ArrayList<>();
    CommitTracer recording =
        (pipeline, partition, requests) -> {
          String span = "00-" + "0".repeat(31) + (traces.size() + 1) + "-00f067aa0ba902b7-01";
          synchronized (traces) {
            traces.add(requests);
            partitionsTraced.add(partition);
            spansOfCommits.add(span);
          }
          return new CommitTracer.CommitSpan() {
            @Override
            public String traceparent() {
              return span;
            }

            @Override
            public void end(int events, int panes, Throwable error) {}
          };
        };
    OwnedPartitions partitions =
        new OwnedPartitions(runtimes(registry, recording), store, store, registry);
    OwnedPartitions.Id id = new OwnedPartitions.Id(name, 0);
    partitions.open(id, 1).join();

    String first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String second = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    String third = "00-5b8aa5a2d2c872e8321cf37308d69df2-051581bf3cb55c13-01";
    String watermark = "00-11111111111111111111111111111111-2222222222222222-01";
    List<LogRecord> records =
        List.of(
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("a"), first),
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("b"), first),
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("c"), null),
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("d"), second),
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("e"), first),
            new LogRecord(LogRecord.Kind.EVENT, "lineage", 0, null, event("f"), third),
            new LogRecord(
                LogRecord.Kind.WATERMARK, "lineage", 0, null, "60000".getBytes(UTF_8), watermark));
    long[] offsets = java.util.stream.LongStream.range(0, records.size()).toArray();
    assertThat(partitions.apply(id, records, offsets).join()).isTrue();

    assertThat(traces).hasSize(2);
    assertThat(traces.get(0).parent()).isEqualTo(first);
    assertThat(traces.get(0).links()).containsExactly(second, third);
    assertThat(traces.get(0).size()).isEqualTo(3);
    assertThat(traces.get(1).parent()).isEqualTo(watermark);
    assertThat(traces.get(1).links()).isEmpty();
    assertThat(partitionsTraced).containsOnly(0);
    // The run's six events, of six keys, were one commit, whose panes carry its span; what the
    // watermark's
    // commit logged carries that one's.
    List<PaneEvent> log = store.panesAfter(name, LogPage.START, 100).block().entries();
    assertThat(log.subList(0, 6))
        .allSatisfy(e -> assertThat(e.kind()).isEqualTo(LogEntryKind.PANE))
        .extracting(PaneEvent::traceparent)
        .containsOnly(spansOfCommits.get(0));
    assertThat(log.subList(6, log.size()))
        .filteredOn(e -> e.kind().isSent())
        .extracting(PaneEvent::traceparent)
        .containsOnly(spansOfCommits.get(1));
    partitions.close(id).join();
  }

  private static byte[] event(String key) {
    return ("{\"key\": \"" + key + "\", \"timestamp\": 0, \"value\": 1}").getBytes(UTF_8);
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
    return runtimes(registry, null);
  }

  /** With {@code tracer} tracing commits, or off when null. */
  private RunningPipelines runtimes(InMemoryPipelineRegistry registry, CommitTracer tracer) {
    return TestRuntimes.of(store, registry, new ManualClock(0), tracer);
  }
}
