package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PipelineLifecycleListener;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What follows a definition or a delete (a Kafka source stopped or started, say) may block; it must
 * not block the thread that reads Redis replies, or every Redis command of the service waits.
 */
class LifecycleFollowUpThreadTest {
  private static final Duration PATIENCE = Duration.ofSeconds(10);
  private static final String COUNT =
      """
      {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "count"}}
      """;

  private final String prefix = "test-" + UUID.randomUUID();
  private final SlowListener listener = new SlowListener();

  @AfterEach
  void deleteKeys() {
    listener.release.countDown();
    TestRedis.delete(prefix);
  }

  @Test
  void redisAnswersWhileTheFollowUpOfADefinitionAndADeleteBlocks() throws Exception {
    try (ConfigurableApplicationContext app =
        RedisEventide.start(
            prefix,
            context -> context.getBeanFactory().registerSingleton("slowListener", listener))) {
      LiveApi api = RedisEventide.api(app);
      PipelineRegistry registry = app.getBean(PipelineRegistry.class);

      CompletableFuture<LiveApi.Reply> put =
          CompletableFuture.supplyAsync(() -> api.put("slow", COUNT));
      assertThat(listener.entered.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
      // The listener blocks; a Redis command issued meanwhile is answered all the same.
      assertThat(registry.find("slow").block(PATIENCE)).isNotNull();
      listener.release.countDown();
      assertThat(put.join().status()).isEqualTo(201);
      api.delete("slow").expect(204);

      assertThat(listener.threads)
          .hasSize(2)
          .allSatisfy(thread -> assertThat(thread).startsWith("eventide-lifecycle-"));
    }
  }

  /** Blocks in its first follow-up until released, and notes the thread of every follow-up. */
  private static final class SlowListener implements PipelineLifecycleListener {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final List<String> threads = new CopyOnWriteArrayList<>();

    @Override
    public void defined(PipelineDefinition definition) {
      threads.add(Thread.currentThread().getName());
      entered.countDown();
      try {
        release.await(PATIENCE.toSeconds() * 3, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void deleted(String name) {
      threads.add(Thread.currentThread().getName());
    }
  }
}
