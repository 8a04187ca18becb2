package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.kafka.KafkaSinkDefinition;
import io.eventide.definition.kafka.KafkaSinkMode;
import io.eventide.runtime.DaemonThreads;
import io.eventide.runtime.PipelineLifecycleListener;
import io.eventide.sink.ForwarderStore;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PaneLogs;
import io.eventide.sink.PublishedPane;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * One {@link PaneForwarder} per pipeline with a Kafka sink, on every replica: the one that holds
 * the pipeline's lease forwards, the others wait to take over. The pipelines come from this
 * process's definitions and deletes at once, and from the registry every lease time (pipelines
 * defined, changed or deleted on another replica). A commit of this process wakes its pipeline's
 * forwarder; that is all a commit does here.
 */
class KafkaForwarders implements PaneListener, PipelineLifecycleListener, DisposableBean {
  private static final Logger log = LoggerFactory.getLogger(KafkaForwarders.class);
  private static final String PIPELINE = "pipeline";

  private final Map<String, Running> forwarders = new ConcurrentHashMap<>();
  private final PaneLogs logs;
  private final ForwarderStore store;
  private final Producer<String, byte[]> producer;
  private final KafkaTopics topics;
  private final KafkaNamePolicy names;
  private final PipelineRegistry registry;
  private final KafkaSettings settings;
  private final MeterRegistry meters;
  private final ScheduledExecutorService executor =
      Executors.newScheduledThreadPool(2, DaemonThreads.named("eventide-kafka-forwarder"));

  /** A running forwarder and its series, removed with it. */
  private record Running(PaneForwarder forwarder, List<Meter> meters) {}

  KafkaForwarders(
      PaneLogs logs,
      ForwarderStore store,
      Producer<String, byte[]> producer,
      KafkaTopics topics,
      KafkaNamePolicy names,
      PipelineRegistry registry,
      KafkaSettings settings,
      MeterRegistry meters) {
    this.logs = logs;
    this.store = store;
    this.producer = producer;
    this.topics = topics;
    this.names = names;
    this.registry = registry;
    this.settings = settings;
    this.meters = meters;
  }

  /** Starts reading the registry: now, for the pipelines stored before, and every lease time. */
  void start() {
    long ms = settings.forwarder().leaseTime().toMillis();
    executor.scheduleWithFixedDelay(this::discover, 0, ms, TimeUnit.MILLISECONDS);
  }

  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    Running r = forwarders.get(pipeline);
    if (r != null) {
      r.forwarder().wake();
    }
  }

  @Override
  public void defined(PipelineDefinition definition) {
    apply(definition.name(), target(definition));
  }

  @Override
  public void deleted(String name) {
    apply(name, null);
  }

  /** The forwarders of this process, by pipeline, for the health indicator. */
  Map<String, PaneForwarder.Status> statuses() {
    Map<String, PaneForwarder.Status> out = new TreeMap<>();
    forwarders.forEach((name, r) -> out.put(name, r.forwarder().status()));
    return out;
  }

  private void discover() {
    try {
      List<PipelineDefinition> all = registry.list().collectList().block(Duration.ofSeconds(30));
      Set<String> listed = new HashSet<>();
      for (PipelineDefinition d : all) {
        listed.add(d.name());
        apply(d.name(), target(d));
      }
      for (String name : Set.copyOf(forwarders.keySet())) {
        if (!listed.contains(name)) {
          apply(name, null);
        }
      }
    } catch (RuntimeException e) {
      log.debug("pane forwarders: the registry could not be read: {}", e.toString());
    }
  }

  /** Where a pipeline's panes go, or null when nowhere (no sink, or names the rules refuse). */
  private PaneForwarder.Target target(PipelineDefinition definition) {
    KafkaSinkDefinition sink = definition.sinks().kafka();
    if (sink == null || !names.violations(definition).isEmpty()) {
      return null;
    }
    return new PaneForwarder.Target(
        sink.topic(), sink.mode() == KafkaSinkMode.CHANGELOG ? "compact" : "delete");
  }

  /** Brings the pipeline's forwarder in line with its target: started, moved or stopped. */
  private synchronized void apply(String pipeline, PaneForwarder.Target target) {
    Running r = forwarders.get(pipeline);
    if (target == null) {
      if (r != null) {
        forwarders.remove(pipeline);
        r.meters().forEach(meters::remove);
        r.forwarder().stop();
      }
      return;
    }
    if (r != null) {
      r.forwarder().retarget(target);
      return;
    }
    PaneForwarder f =
        new PaneForwarder(pipeline, target, logs, store, producer, topics, settings, executor);
    forwarders.put(pipeline, new Running(f, register(pipeline, f)));
    f.start();
  }

  private List<Meter> register(String pipeline, PaneForwarder f) {
    return List.of(
        gauge(
            "eventide.kafka.forwarder.lease",
            "1 while this replica holds the pipeline's forwarder lease",
            pipeline,
            f,
            x -> x.holdsLease() ? 1 : 0,
            null),
        gauge(
            "eventide.kafka.forwarder.lag",
            "Age of the oldest pane log entry not yet sent to Kafka; 0 when caught up",
            pipeline,
            f,
            PaneForwarder::lagSeconds,
            "seconds"),
        counter(
            "eventide.kafka.forwarder.forwarded",
            "Panes and retractions the broker acknowledged",
            pipeline,
            f,
            PaneForwarder::forwarded),
        counter(
            "eventide.kafka.forwarder.lost",
            "Pane log entries trimmed by retention before they were sent",
            pipeline,
            f,
            PaneForwarder::lost),
        counter(
            "eventide.kafka.forwarder.fenced",
            "Checkpoints refused because another replica had taken the lease",
            pipeline,
            f,
            PaneForwarder::fenced),
        counter(
            "eventide.kafka.forwarder.refused",
            "Records the broker refused for good (too large, not authorised), skipped",
            pipeline,
            f,
            PaneForwarder::refused));
  }

  private Meter gauge(
      String name,
      String description,
      String pipeline,
      PaneForwarder f,
      ToDoubleFunction<PaneForwarder> value,
      String unit) {
    return Gauge.builder(name, f, value)
        .description(description)
        .baseUnit(unit)
        .tag(PIPELINE, pipeline)
        .register(meters);
  }

  private Meter counter(
      String name,
      String description,
      String pipeline,
      PaneForwarder f,
      ToDoubleFunction<PaneForwarder> value) {
    return FunctionCounter.builder(name, f, value)
        .description(description)
        .tag(PIPELINE, pipeline)
        .register(meters);
  }

  /** Stops every forwarder and gives its lease up, so that another replica takes over at once. */
  @Override
  public void destroy() {
    CompletableFuture<?>[] released =
        forwarders.values().stream()
            .map(r -> r.forwarder().stop())
            .toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(released).completeOnTimeout(null, 2, TimeUnit.SECONDS).join();
    executor.shutdownNow();
    producer.close(Duration.ofSeconds(5));
  }
}
