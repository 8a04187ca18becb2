package io.eventide.state;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service on a Redis of its own, which the test may take away, freeze or bring back, and still
 * under a key prefix of its own, as every Redis test has.
 */
public final class ServiceOnOwnRedis implements AutoCloseable {
  public final StoppableRedis redis;
  public final ConfigurableApplicationContext app;
  public final LiveApi api;

  private ServiceOnOwnRedis(StoppableRedis redis, ConfigurableApplicationContext app) {
    this.redis = redis;
    this.app = app;
    this.api = LiveApi.on(app.getEnvironment().getProperty("local.server.port", Integer.class));
  }

  /** Starts Redis and the service with {@code settings} ({@code --name=value}) on top. */
  public static ServiceOnOwnRedis start(String... settings) throws Exception {
    StoppableRedis redis = StoppableRedis.start();
    try {
      List<String> args = new ArrayList<>(List.of("--server.port=0"));
      args.addAll(List.of(settings));
      args.addAll(TestRedis.storeArguments(redis.url(), TestRedis.newKeyPrefix()));
      return new ServiceOnOwnRedis(
          redis,
          new SpringApplicationBuilder(EventideApplication.class).run(args.toArray(String[]::new)));
    } catch (RuntimeException e) {
      redis.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      app.close();
    } finally {
      redis.close();
    }
  }
}
