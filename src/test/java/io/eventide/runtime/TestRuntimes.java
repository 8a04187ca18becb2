package io.eventide.runtime;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.ProcessingClock;
import io.eventide.state.OutputStore;
import io.eventide.state.StateStore;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Running pipelines with the default settings, outside Spring, for tests of the runtime's parts.
 */
public final class TestRuntimes {
  private TestRuntimes() {}

  /** A pipeline that counts each key's events in fixed windows of a minute. */
  public static PipelineDefinition countPerMinute(String name) {
    return PipelineParser.parseNamed(
        JsonMapper.shared()
            .readTree(
                "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"},"
                    + " \"aggregate\": {\"type\": \"count\"}}"),
        name,
        KafkaNamespace.DEFAULT,
        PipelineLimits.DEFAULT);
  }

  /** With {@code tracer} tracing commits, or tracing off when null. */
  public static <S extends StateStore & OutputStore> RunningPipelines of(
      S store, PipelineRegistry registry, ProcessingClock clock, CommitTracer tracer) {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    if (tracer != null) {
      beans.registerSingleton("tracer", tracer);
    }
    Binder defaults = new Binder(new MapConfigurationPropertySource(Map.of()));
    return new RunningPipelines(
        defaults.bindOrCreate("eventide.runtime", RuntimeProperties.class),
        defaults.bindOrCreate("eventide.ingest", IngestProperties.class),
        clock,
        List.of(),
        List.of(),
        List.of(),
        store,
        store,
        registry,
        beans.getBeanProvider(ClusterIngest.class),
        beans.getBeanProvider(CommitTracer.class));
  }
}
