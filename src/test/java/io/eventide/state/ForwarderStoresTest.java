package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.sink.ForwarderStore;
import io.eventide.sink.ForwarderStore.Checkpoint;
import io.eventide.state.memory.MemoryStateStore;
import io.eventide.state.redis.RedisForwarderStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * A pane forwarder's lease and checkpoint, the same in both stores: one holder at a time, a
 * checkpoint only its current holder can write, a lease that expires, is given up and goes with the
 * pipeline's state.
 */
class ForwarderStoresTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final String prefix = TestRedis.newKeyPrefix();
  private final List<LettuceConnectionFactory> factories = new ArrayList<>();

  @AfterEach
  void close() {
    factories.forEach(LettuceConnectionFactory::destroy);
    TestRedis.delete(prefix);
  }

  static Stream<String> stores() {
    return Stream.of("memory", "redis");
  }

  /** The store of leases and checkpoints, and the state store that drops them with the rest. */
  private record Stores(ForwarderStore forwarders, StateStore state) {}

  private Stores stores(String kind) {
    if (kind.equals("memory")) {
      MemoryStateStore memory =
          new MemoryStateStore(TestRedis.outputProperties(), TestRedis.stateProperties(prefix));
      return new Stores(memory, memory);
    }
    LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
    factories.add(factory);
    return new Stores(
        new RedisForwarderStore(
            new ReactiveStringRedisTemplate(factory), TestRedis.stateProperties(prefix)),
        TestRedis.store(factory, prefix));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void oneHolderAtATimeAndOnlyItMovesTheCheckpoint(String kind) {
    ForwarderStore store = stores(kind).forwarders();
    assertThat(store.checkpoint("p").blockOptional()).isEmpty();
    assertThat(store.acquire("p", "a", LEASE).block()).isTrue();
    assertThat(store.acquire("p", "b", LEASE).block()).isFalse();
    assertThat(store.extend("p", "b", LEASE).block()).isFalse();
    assertThat(store.extend("p", "a", LEASE).block()).isTrue();

    assertThat(store.saveCheckpoint("p", "a", new Checkpoint("5-0", 7)).block()).isTrue();
    assertThat(store.saveCheckpoint("p", "b", new Checkpoint("9-0", 9)).block()).isFalse();
    assertThat(store.checkpoint("p").block()).isEqualTo(new Checkpoint("5-0", 7));

    // Given up, the lease is free at once; the checkpoint stays for the next holder.
    store.release("p", "b").block();
    assertThat(store.acquire("p", "b", LEASE).block()).isFalse();
    store.release("p", "a").block();
    assertThat(store.acquire("p", "b", LEASE).block()).isTrue();
    assertThat(store.checkpoint("p").block()).isEqualTo(new Checkpoint("5-0", 7));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aHolderWhoseLeaseExpiredCanNeitherExtendItNorWriteTheCheckpoint(String kind) {
    ForwarderStore store = stores(kind).forwarders();
    assertThat(store.acquire("p", "a", Duration.ofMillis(200)).block()).isTrue();
    assertThat(store.saveCheckpoint("p", "a", new Checkpoint("5-0", 7)).block()).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> store.acquire("p", "b", LEASE).block());
    assertThat(store.saveCheckpoint("p", "b", new Checkpoint("8-0", 10)).block()).isTrue();

    // The old holder, back from a pause, would move the checkpoint back: refused.
    assertThat(store.saveCheckpoint("p", "a", new Checkpoint("6-0", 8)).block()).isFalse();
    assertThat(store.extend("p", "a", LEASE).block()).isFalse();
    assertThat(store.checkpoint("p").block()).isEqualTo(new Checkpoint("8-0", 10));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void theLeaseAndTheCheckpointGoWithThePipelinesState(String kind) {
    Stores stores = stores(kind);
    ForwarderStore store = stores.forwarders();
    assertThat(store.acquire("p", "a", LEASE).block()).isTrue();
    assertThat(store.saveCheckpoint("p", "a", new Checkpoint("5-0", 7)).block()).isTrue();
    assertThat(stores.state().hasState("p").join())
        .as("a forwarder alone gives the pipeline no state to lose")
        .isFalse();

    stores.state().drop("p").join();
    assertThat(store.checkpoint("p").blockOptional()).isEmpty();
    assertThat(store.extend("p", "a", LEASE).block()).isFalse();
    assertThat(store.saveCheckpoint("p", "a", new Checkpoint("6-0", 8)).block()).isFalse();
  }
}
