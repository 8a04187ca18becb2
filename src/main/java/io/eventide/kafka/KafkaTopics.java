package io.eventide.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.springframework.beans.factory.DisposableBean;

/**
 * Makes sure a topic exists before records are sent to it, asked without blocking: a send to a
 * topic the producer has no metadata for would block its caller for {@code max.block.ms}, and a
 * topic auto-created by the broker would get the wrong cleanup policy for a changelog.
 */
final class KafkaTopics implements DisposableBean {
  private final Admin admin;

  KafkaTopics(Admin admin) {
    this.admin = admin;
  }

  /**
   * Completes once the cluster has shown that {@code topic} exists, creating it first with {@code
   * cleanupPolicy} ({@code compact} or {@code delete}) if it does not; fails with why it is not
   * there (it could not be created, or its name collides with another's).
   */
  CompletableFuture<Void> ensure(String topic, String cleanupPolicy) {
    NewTopic spec =
        new NewTopic(topic, Optional.empty(), Optional.empty())
            .configs(Map.of("cleanup.policy", cleanupPolicy));
    return admin
        .createTopics(List.of(spec))
        .all()
        .toCompletionStage()
        // The topic exists, or creating it is not ours to do: whether it is there decides, and
        // why it could not be created says why, if it is not.
        .handle((v, error) -> error == null ? null : cause(error))
        .thenCompose(
            notCreated ->
                admin
                    .describeTopics(List.of(topic))
                    .allTopicNames()
                    .toCompletionStage()
                    .handle(
                        (described, error) -> {
                          if (error == null) {
                            return (Void) null;
                          }
                          throw new CompletionException(
                              notCreated == null || notCreated instanceof TopicExistsException
                                  ? cause(error)
                                  : notCreated);
                        }))
        .toCompletableFuture();
  }

  /** Closes the admin client, waiting for what it has in flight a moment at most. */
  @Override
  public void destroy() {
    admin.close(Duration.ofSeconds(1));
  }

  /** The exception behind the wrappers that futures put around it. */
  static Throwable cause(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
