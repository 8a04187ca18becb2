package io.eventide.state;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Eventide started in this JVM over the test Redis under a key prefix: one started again with the
 * same prefix is the same service restarted, two running at once are replicas of one deployment.
 */
public final class RedisEventide {
  private RedisEventide() {}

  public static ConfigurableApplicationContext start(String prefix, String... settings) {
    return startOn(0, prefix, settings);
  }

  /** On a given port (0: any), so that a restarted service is where its clients left it. */
  public static ConfigurableApplicationContext startOn(
      int port, String prefix, String... settings) {
    List<String> args =
        new ArrayList<>(List.of("--server.port=" + port, "--eventide.runtime.shards=2"));
    args.addAll(TestRedis.storeArguments(TestRedis.url(), prefix));
    args.addAll(List.of(settings));
    return new SpringApplicationBuilder(EventideApplication.class).run(args.toArray(String[]::new));
  }

  public static LiveApi api(ConfigurableApplicationContext app) {
    return LiveApi.on(app.getEnvironment().getProperty("local.server.port", Integer.class));
  }
}
