package io.eventide.bench;

import io.eventide.core.DirectShards;
import io.eventide.core.IngestBounds;
import io.eventide.core.PipelineCore;
import io.eventide.core.RenderBudget;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardCore;
import io.eventide.core.ShardSnapshot;
import io.eventide.core.ShardStep;
import io.eventide.core.WatermarkMode;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * W1 through the pipeline core, as {@code /simulate} and the live runtime run it: events as JSON
 * read by the definition's reader (filter and expressions included), one shard, panes rendered.
 * {@code single} is W1's sum; {@code named} is three named aggregates (count, sum, max); {@code
 * namedFiltered} the same behind a CEL filter that lets about 90 % of the events through. Each
 * run's checksum is verified: the sum of the panes' sums equals the sum of the values that pass the
 * filter.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class PipelineBenchmark {
  private static final String WINDOW = "\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}";

  private static final String THREE =
      "\"aggregates\": {\"n\": {\"type\": \"count\"},"
          + " \"total\": {\"type\": \"sum\", \"field\": \"/value\"},"
          + " \"top\": {\"type\": \"max\", \"field\": \"/value\"}}";

  /** The definitions compared, by name. */
  private static final Map<String, String> DEFINITIONS =
      Map.of(
          "single", "{" + WINDOW + ", \"aggregate\": {\"type\": \"sum\"}}",
          "named", "{" + WINDOW + ", " + THREE + "}",
          "namedFiltered", "{" + WINDOW + ", \"filter\": \"event.value >= 10.0\", " + THREE + "}");

  @Param({"single", "named", "namedFiltered"})
  String pipeline;

  @Param("1000")
  int batchSize;

  private PipelineDefinition definition;
  private List<EventTexts> batches;
  private long[] watermarks;
  private double expectedSum;

  @Setup(Level.Trial)
  public void setUp() {
    definition =
        PipelineParser.parseNamed(
            JsonMapper.shared().readTree(DEFINITIONS.get(pipeline)),
            "bench",
            KafkaNamespace.DEFAULT,
            PipelineLimits.DEFAULT);
    Events events = Workload.W1.generate(Workload.FULL_N);
    Feed feed = Feed.split(events, batchSize, 1)[0];
    JsonNodeFactory json = JsonNodeFactory.instance;
    batches = new ArrayList<>(feed.batchCount());
    watermarks = new long[feed.batchCount()];
    boolean filtered = definition.filter() != null;
    for (int b = 0; b < feed.batchCount(); b++) {
      List<JsonNode> batch = new ArrayList<>(batchSize);
      for (int i = feed.batchStart(b); i < feed.batchEnd(b); i++) {
        batch.add(
            json.objectNode()
                .put("key", feed.key(i))
                .put("timestamp", feed.timestamp(i))
                .put("value", feed.value(i)));
        if (!filtered || feed.value(i) >= 10) {
          expectedSum += feed.value(i);
        }
      }
      batches.add(EventTexts.of(batch));
      watermarks[b] = feed.watermarkAfter(b);
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.FULL_N)
  public double run() {
    DirectShards shards =
        new DirectShards(
            new ShardCore(
                0,
                IngestBounds.DEFAULT.maxOpenWindows(),
                definition,
                () -> 0L,
                false,
                ShardSnapshot.EMPTY,
                IngestBounds.DEFAULT,
                RenderBudget.UNBOUNDED));
    PipelineCore core =
        new PipelineCore(
            definition, WatermarkMode.EXPLICIT, 1, Time.MIN, null, false, IngestBounds.DEFAULT);
    double sum = 0;
    for (int b = 0; b < batches.size(); b++) {
      PipelineCore.ReadBatch read = core.read(batches.get(b), i -> null, 0);
      sum += sumOf(core.apply(read, 0, shards));
      sum += sumOf(core.postWatermark(null, watermarks[b], 0, shards).steps());
    }
    sum += sumOf(core.postWatermark(null, Time.MAX, 0, shards).steps());
    if (sum != expectedSum) {
      throw new IllegalStateException("checksum " + sum + ", expected " + expectedSum);
    }
    return sum;
  }

  private static double sumOf(List<ShardStep> steps) {
    double sum = 0;
    for (ShardStep step : steps) {
      for (RenderedPane p : step.panes()) {
        Object value = p.pane().value();
        sum +=
            ((Number) (value instanceof Map<?, ?> named ? named.get("total") : value))
                .doubleValue();
      }
    }
    return sum;
  }
}
