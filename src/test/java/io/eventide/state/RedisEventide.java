package io.eventide.state;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Eventide started in this JVM over the test Redis under a key prefix: one started again with the
 * same prefix is the same service restarted, two running at once are replicas of one deployment.
 */
public final class RedisEventide {
  private RedisEventide() {}

  public static ConfigurableApplicationContext start(String prefix, String... settings) {
    return startOn(0, prefix, context -> {}, settings);
  }

  /** With {@code initializer} run on the context before it refreshes (to add beans of a test's). */
  static ConfigurableApplicationContext start(
      String prefix,
      ApplicationContextInitializer<ConfigurableApplicationContext> initializer,
      String... settings) {
    return startOn(0, prefix, initializer, settings);
  }

  /** On a given port (0: any), so that a restarted service is where its clients left it. */
  public static ConfigurableApplicationContext startOn(
      int port, String prefix, String... settings) {
    return startOn(port, prefix, context -> {}, settings);
  }

  private static ConfigurableApplicationContext startOn(
      int port,
      String prefix,
      ApplicationContextInitializer<ConfigurableApplicationContext> initializer,
      String... settings) {
    return startOn(TestRedis.url(), port, prefix, initializer, settings);
  }

  /** On the Redis at {@code redisUrl} rather than the test Redis (one a test may take away). */
  static ConfigurableApplicationContext startOnRedis(
      String redisUrl, String prefix, String... settings) {
    return startOn(redisUrl, 0, prefix, context -> {}, settings);
  }

  private static ConfigurableApplicationContext startOn(
      String redisUrl,
      int port,
      String prefix,
      ApplicationContextInitializer<ConfigurableApplicationContext> initializer,
      String... settings) {
    List<String> args =
        new ArrayList<>(List.of("--server.port=" + port, "--eventide.runtime.shards=2"));
    args.addAll(TestRedis.storeArguments(redisUrl, prefix));
    args.addAll(List.of(settings));
    return new SpringApplicationBuilder(EventideApplication.class)
        .initializers(initializer)
        .run(args.toArray(String[]::new));
  }

  /**
   * Another owner takes a pipeline's state over, as a second replica would: the app's next commit
   * for it is fenced and fails.
   */
  static void fence(ConfigurableApplicationContext app, String pipeline) {
    var factory = TestRedis.connectionFactory(TestRedis.url());
    try {
      new io.eventide.state.redis.RedisStateStore(
              factory,
              app.getBean(io.eventide.sink.OutputProperties.class),
              app.getBean(io.eventide.state.StateProperties.class),
              app.getBean(io.eventide.runtime.IngestProperties.class).bounds(),
              TestRedis.marker(
                  factory, app.getBean(io.eventide.state.StateProperties.class).keyPrefix()))
          .open(
              pipeline,
              app.getBean(io.eventide.definition.PipelineRegistry.class)
                  .find(pipeline)
                  .block()
                  .revision()
                  .lineage(),
              2)
          .join();
    } finally {
      factory.destroy();
    }
  }

  public static LiveApi api(ConfigurableApplicationContext app) {
    return LiveApi.on(app.getEnvironment().getProperty("local.server.port", Integer.class));
  }
}
