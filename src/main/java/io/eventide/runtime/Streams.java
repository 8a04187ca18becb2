package io.eventide.runtime;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Streams are named by the pipelines that read them ({@code "stream"} in a definition); a stream
 * has no definition of its own. One request to a stream is delivered to each of its readers, on
 * each reader's own runtime, so that each keeps its own watermark, counts and commits.
 */
@Component
public class Streams {
  private final PipelineRegistry registry;
  private final RunningPipelines runtimes;
  private final int maxReaders;

  public Streams(PipelineRegistry registry, RunningPipelines runtimes, IngestProperties ingest) {
    this.registry = registry;
    this.runtimes = runtimes;
    this.maxReaders = ingest.maxPipelinesPerStream();
  }

  /**
   * The pipelines reading {@code stream}, ordered by name; none when no pipeline names it. Read
   * from the registry on every request, so that a pipeline defined on another replica reads the
   * stream from its next request on.
   */
  public Mono<List<PipelineDefinition>> readers(String stream) {
    return registry.list().filter(d -> stream.equals(d.stream())).collectList();
  }

  /** Refuses a definition that would make its stream read by more pipelines than allowed. */
  Mono<Void> checkRoom(PipelineDefinition definition) {
    String stream = definition.stream();
    if (stream == null) {
      return Mono.empty();
    }
    return readers(stream)
        .flatMap(
            readers -> {
              long others =
                  readers.stream().filter(d -> !d.name().equals(definition.name())).count();
              return others < maxReaders
                  ? Mono.empty()
                  : Mono.error(
                      new InvalidInputException(
                          List.of(
                              new Violation(
                                  "/stream",
                                  "stream '"
                                      + stream
                                      + "' is read by "
                                      + others
                                      + " pipelines already, the most"
                                      + " eventide.ingest.max-pipelines-per-stream allows"))));
            });
  }

  /**
   * Runs {@code work} on the runtime of every reader at once, each whole on one generation of its
   * pipeline ({@link RunningPipelines#using}). One reader's failure stops none of the others: the
   * answer has an outcome per pipeline, by name.
   */
  public <T> Mono<Map<String, Delivery<T>>> deliver(
      List<PipelineDefinition> readers, Function<PipelineInput, Mono<T>> work) {
    return Flux.fromIterable(readers)
        .flatMap(
            reader ->
                runtimes
                    .using(reader.name(), () -> current(reader.name()), work)
                    .<Delivery<T>>map(Delivery.Applied::new)
                    .onErrorResume(e -> Mono.just(new Delivery.Failed<>(e)))
                    .map(outcome -> Map.entry(reader.name(), outcome)))
        .collectMap(Map.Entry::getKey, Map.Entry::getValue, TreeMap::new);
  }

  private Mono<PipelineDefinition> current(String name) {
    return registry.find(name).switchIfEmpty(Mono.error(() -> new PipelineGoneException(name)));
  }
}
