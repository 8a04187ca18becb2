package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.ShardSnapshot;
import io.eventide.core.read.EventTexts;
import io.eventide.core.read.JsonLimits;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.ManualClock;
import io.eventide.engine.ProcessingClock;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PublishedPane;
import io.eventide.state.Commit;
import io.eventide.state.PipelineState;
import io.eventide.state.StateProperties;
import io.eventide.state.StateUnavailableException;
import io.eventide.state.TestRedis;
import io.eventide.state.memory.MemoryStateStore;
import io.eventide.state.redis.RedisStateStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live runtime's ordering, committing and fencing, without Spring or HTTP: a runtime over a
 * state whose commits the test completes by hand, on a manual clock.
 */
class PipelineRuntimeTest {
  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static final PipelineDefinition EVERY_EVENT =
      PipelineParser.parseNamed(
          JsonMapper.shared()
              .readTree(
                  """
                  {"window": {"type": "fixed", "size": "1h"},
                   "trigger": {"type": "repeatedly",
                               "trigger": {"type": "afterCount", "count": 1}},
                   "accumulation": "accumulating", "aggregate": {"type": "count"}}
                  """),
          "p",
          KafkaNamespace.DEFAULT,
          PipelineLimits.DEFAULT);

  private final ExecutorService pool =
      Executors.newFixedThreadPool(2, DaemonThreads.named(ShardFaultClock.SHARD_THREADS));
  private final ShardFaultClock clock = new ShardFaultClock();
  private final List<PublishedPane> published = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void commitsGoOutOneAfterAnotherInTheOrderTheShardsChanged() {
    HeldState state = new HeldState(2);
    PipelineRuntime runtime = runtime(state, false);
    CompletableFuture<IngestResult> first = runtime.ingest(batch("a", "b"));
    CompletableFuture<IngestResult> second = runtime.ingest(batch("a"));

    state.awaitCommits(1);
    assertThat(state.commits).hasSize(1);
    assertThat(first).isNotDone();
    // The second commit is not even issued while the first is unanswered.
    state.answer(0);
    assertThat(first).succeedsWithin(PATIENCE).extracting(IngestResult::accepted).isEqualTo(2);
    state.awaitCommits(2);
    assertThat(second).isNotDone();
    state.answer(1);
    assertThat(second).succeedsWithin(PATIENCE);

    // Panes are published only once committed, in commit order: a's count goes 1, then 2.
    assertThat(published)
        .extracting(p -> p.pane().key() + "=" + p.pane().value())
        .containsExactly("a=1", "b=1", "a=2");
  }

  @Test
  void aFailedDurableCommitFailsTheRuntimeAndEveryCommitQueuedBehindIt() {
    HeldState state = new HeldState(2);
    PipelineRuntime runtime = runtime(state, true);
    CompletableFuture<IngestResult> first = runtime.ingest(batch("a"));
    CompletableFuture<IngestResult> second = runtime.ingest(batch("b"));
    state.awaitCommits(1);
    state.fail(0);

    assertThat(first).failsWithin(PATIENCE);
    assertThat(second)
        .failsWithin(PATIENCE)
        .withThrowableThat()
        .withRootCauseInstanceOf(StateUnavailableException.class);
    assertThat(runtime.failed()).isTrue();
    // Nothing of either batch was published: the store does not have it.
    assertThat(published).isEmpty();
    assertThat(state.commits).hasSize(1);
  }

  @Test
  void aStepThatFailsHalfWayFailsTheRuntimeAndNothingOfItGoesOutWithALaterStep() {
    HeldState state = new HeldState(1).answeringAll();
    // The engine takes the batch and emits a's pane; then the shard's next read of the clock fails.
    clock.failOnShard(2);
    PipelineRuntime runtime = runtime(state, false);
    CompletableFuture<IngestResult> failed = runtime.ingest(batch("a"));
    assertThat(failed).failsWithin(PATIENCE).withThrowableThat().withMessageContaining("clock");

    CompletableFuture<IngestResult> next = runtime.ingest(batch("a"));
    await().atMost(PATIENCE).until(next::isDone);
    // What the failed step did to a's window (and any pane it left behind) must not go out with a
    // later step: the runtime is failed, to be rebuilt from the store.
    assertThat(published).extracting(p -> p.pane().key() + "=" + p.pane().value()).isEmpty();
    assertThat(state.commits).isEmpty();
    assertThat(runtime.failed()).isTrue();
    assertThat(next)
        .failsWithin(PATIENCE)
        .withThrowableThat()
        .withRootCauseInstanceOf(IllegalStateException.class);
  }

  @Test
  void aMemoryPipelineRebuiltAfterAFailedStepStartsAfreshWithoutTheResultsOfItsLostWindows() {
    MemoryStateStore store =
        new MemoryStateStore(
            new OutputProperties(
                1000,
                Duration.ofSeconds(1),
                Duration.ofSeconds(15),
                1000,
                100,
                10,
                10,
                Duration.ofSeconds(1),
                Duration.ZERO),
            TestRedis.stateProperties(
                StateProperties.Store.MEMORY, "eventide", 1000, Duration.ZERO));
    PipelineRuntime first = runtime(store.open("p", "lineage", 1).join(), false);
    assertThat(first.ingest(batch("a"))).succeedsWithin(PATIENCE);
    assertThat(first.ingest(batch("a"))).succeedsWithin(PATIENCE);
    clock.failOnShard(2);
    assertThat(first.ingest(batch("a"))).failsWithin(PATIENCE);
    assertThat(first.failed()).isTrue();

    // Memory keeps no engine state: the rebuilt runtime counts a from nothing, and /results shows
    // its count, not the higher-indexed pane of the window the failure lost.
    PipelineRuntime rebuilt = runtime(store.open("p", "lineage", 1).join(), false);
    assertThat(rebuilt.ingest(batch("a"))).succeedsWithin(PATIENCE);
    assertThat(
            store.results("p", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 100).block().records())
        .extracting(r -> r.get("value").asLong())
        .containsExactly(1L);
  }

  @Test
  void closingLetsNoRequestInAndWaitsForTheOnesInFlightAndTheirCommits() {
    HeldState state = new HeldState(1);
    PipelineRuntime runtime = runtime(state, false);
    assertThat(runtime.enter()).isTrue();
    CompletableFuture<IngestResult> inFlight = runtime.ingest(batch("a"));
    CompletableFuture<Void> closed = runtime.close();
    assertThat(runtime.enter()).isFalse();

    state.awaitCommits(1);
    state.answer(0);
    assertThat(inFlight).succeedsWithin(PATIENCE);
    assertThat(closed).isNotDone();
    runtime.exit();
    assertThat(closed).succeedsWithin(PATIENCE);
  }

  @Test
  void aProcessingTimeTriggerFiresOnTheBeatAfterTheClockPassesItsTime() {
    PipelineDefinition delayed =
        PipelineParser.parseNamed(
            JsonMapper.shared()
                .readTree(
                    """
                    {"window": {"type": "global"},
                     "trigger": {"type": "repeatedly", "trigger":
                                 {"type": "afterProcessingTime", "delay": "10s"}},
                     "aggregate": {"type": "count"}}
                    """),
            "p",
            KafkaNamespace.DEFAULT,
            PipelineLimits.DEFAULT);
    HeldState state = new HeldState(1).answeringAll();
    PipelineRuntime runtime = runtime(delayed, state, false);
    assertThat(runtime.ingest(batch("a", "a"))).succeedsWithin(PATIENCE);
    clock.set(10_000);
    runtime.tick();
    assertThat(runtime.openWindows()).succeedsWithin(PATIENCE);
    // Timers fire strictly after their time.
    assertThat(published).isEmpty();
    clock.set(10_001);
    runtime.tick();
    await().atMost(PATIENCE).until(() -> !published.isEmpty());
    assertThat(published).extracting(p -> p.pane().value()).containsExactly(2L);
  }

  @Test
  void aRuntimeFencedByALaterOwnerCannotCommit() {
    String prefix = TestRedis.newKeyPrefix();
    LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
    try {
      RedisStateStore store = redisStore(factory, prefix, IngestBounds.DEFAULT);
      PipelineRuntime first = runtime(store.open("p", "lineage", 2).join(), true);
      assertThat(first.ingest(batch("a"))).succeedsWithin(PATIENCE);
      PipelineRuntime second = runtime(store.open("p", "lineage", 2).join(), true);

      assertThat(first.ingest(batch("a"))).failsWithin(PATIENCE);
      assertThat(first.failed()).isTrue();
      assertThat(second.ingest(batch("a")))
          .succeedsWithin(PATIENCE)
          .extracting(IngestResult::accepted)
          .isEqualTo(1);
      // The later owner started from what the first committed: a's count is 2, not 1.
      assertThat(published.get(published.size() - 1).pane().value()).isEqualTo(2L);
    } finally {
      factory.destroy();
      TestRedis.delete(prefix);
    }
  }

  @Test
  void aShardRemembersAtMostMaxIdsPerShardInMemoryAndInRedisForgettingTheSoonestFirst() {
    String prefix = TestRedis.newKeyPrefix();
    LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
    IngestBounds twoIds =
        new IngestBounds(1000, 60, 86_400_000L, 2, JsonLimits.DEFAULT, 16, 1000, 100, 1_000_000);
    try {
      RedisStateStore store = redisStore(factory, prefix, twoIds);
      clock.set(8_000_000);
      PipelineDefinition late =
          PipelineParser.parseNamed(
              JsonMapper.shared()
                  .readTree(
                      """
                      {"window": {"type": "fixed", "size": "1h"}, "allowedLateness": "10h",
                       "aggregate": {"type": "count"}}
                      """),
              "p",
              KafkaNamespace.DEFAULT,
              PipelineLimits.DEFAULT);
      PipelineRuntime runtime = runtime(late, store.open("p", "lineage", 1).join(), true, twoIds);
      // Three hourly windows, all open still: a's is collected first, so a is the one forgotten.
      assertThat(runtime.ingest(identified("a", 1_000, "b", 3_601_000, "c", 7_201_000)))
          .succeedsWithin(PATIENCE);
      List<String> kept = TestRedis.call(redis -> redis.zrange(prefix + ":{p}:shard:0:ids", 0, -1));
      assertThat(kept).containsExactly("b", "c");
      assertThat(runtime.ingest(identified("a", 1_000, "b", 3_601_000)))
          .succeedsWithin(PATIENCE)
          .satisfies(r -> assertThat(r.duplicates()).isEqualTo(1));
    } finally {
      factory.destroy();
      TestRedis.delete(prefix);
    }
  }

  private static RedisStateStore redisStore(
      LettuceConnectionFactory factory, String prefix, IngestBounds bounds) {
    return new RedisStateStore(
        factory,
        TestRedis.outputProperties(),
        TestRedis.stateProperties(prefix),
        bounds,
        TestRedis.marker(factory, prefix));
  }

  private PipelineRuntime runtime(PipelineState state, boolean durable) {
    return runtime(EVERY_EVENT, state, durable);
  }

  private PipelineRuntime runtime(
      PipelineDefinition definition, PipelineState state, boolean durable) {
    return runtime(definition, state, durable, IngestBounds.DEFAULT);
  }

  private PipelineRuntime runtime(
      PipelineDefinition definition, PipelineState state, boolean durable, IngestBounds bounds) {
    return new PipelineRuntime(
        definition,
        state,
        durable,
        pool,
        clock,
        (pipeline, panes) -> published.addAll(panes),
        (pipeline, letters) -> {},
        (pipeline, result, nanos) -> {},
        CommitTracer.OFF,
        bounds);
  }

  /** Events of key k: id, timestamp, id, timestamp... */
  private static EventTexts identified(Object... idsAndTimes) {
    EventTexts events = new EventTexts(idsAndTimes.length / 2);
    for (int i = 0; i < idsAndTimes.length; i += 2) {
      events.add(
          "{\"key\": \"k\", \"timestamp\": %d, \"value\": 1, \"id\": \"%s\"}"
              .formatted(idsAndTimes[i + 1], idsAndTimes[i])
              .getBytes(StandardCharsets.UTF_8));
    }
    return events;
  }

  private static EventTexts batch(String... keys) {
    EventTexts events = new EventTexts(keys.length);
    for (String k : keys) {
      events.add(
          ("{\"key\": \"" + k + "\", \"timestamp\": 1000, \"value\": 1}")
              .getBytes(StandardCharsets.UTF_8));
    }
    return events;
  }

  /**
   * A manual clock that can be made to fail once, on the n-th read by a shard thread after it was
   * armed: a step that throws half way, after the engine took its batch.
   */
  private static final class ShardFaultClock implements ProcessingClock {
    static final String SHARD_THREADS = "test-shard";
    private final ManualClock clock = new ManualClock(0);
    private final AtomicInteger shardReadsUntilFailure = new AtomicInteger();

    void set(long time) {
      clock.set(time);
    }

    void failOnShard(int read) {
      shardReadsUntilFailure.set(read);
    }

    @Override
    public long now() {
      if (Thread.currentThread().getName().startsWith(SHARD_THREADS)
          && shardReadsUntilFailure.get() > 0
          && shardReadsUntilFailure.decrementAndGet() == 0) {
        throw new IllegalStateException("the clock failed");
      }
      return clock.now();
    }
  }

  /** A pipeline's state whose commits wait until the test answers them (or answers all at once). */
  private static final class HeldState implements PipelineState {
    final List<Commit> commits = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<List<String>>> answers = new CopyOnWriteArrayList<>();
    private final int shards;
    private boolean answerAll;

    HeldState(int shards) {
      this.shards = shards;
    }

    HeldState answeringAll() {
      answerAll = true;
      return this;
    }

    @Override
    public int shardCount() {
      return shards;
    }

    @Override
    public ShardSnapshot shard(int index) {
      return ShardSnapshot.EMPTY;
    }

    @Override
    public String tracker() {
      return null;
    }

    @Override
    public String lateness() {
      return null;
    }

    @Override
    public synchronized CompletableFuture<List<String>> commit(Commit commit) {
      commits.add(commit);
      CompletableFuture<List<String>> answer = new CompletableFuture<>();
      answers.add(answer);
      if (answerAll) {
        answer.complete(ids(commits.size() - 1, commit));
      }
      return answer;
    }

    void awaitCommits(int n) {
      await().atMost(PATIENCE).until(() -> commits.size() >= n);
    }

    void answer(int commit) {
      answers.get(commit).complete(ids(commit, commits.get(commit)));
    }

    void fail(int commit) {
      answers.get(commit).completeExceptionally(new StateUnavailableException("gone", null));
    }

    private static List<String> ids(int commit, Commit c) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < c.panes().size(); i++) {
        ids.add(commit + "-" + i);
      }
      return ids;
    }
  }
}
