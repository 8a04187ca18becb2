package io.eventide.definition.kafka;

/**
 * The Kafka names that belong to a pipeline: {@code <prefix><pipeline>.<part>}, where the part has
 * no dot. Pipeline names may contain dots, so the last dot is what tells owners apart: {@code
 * eventide.a.b.panes} is pipeline {@code a.b}'s, never {@code a}'s, and no name belongs to two
 * pipelines. A stream's names are {@code <prefix>_stream.<stream>.<part>}: pipeline names begin
 * with a letter or digit, so no pipeline owns them.
 *
 * @param prefix what every pipeline's names start with ({@code eventide.kafka.namespace})
 */
public record KafkaNamespace(String prefix) {
  public static final KafkaNamespace DEFAULT = new KafkaNamespace("eventide.");

  /** What every name of the pipeline starts with. */
  public String of(String pipeline) {
    return prefix + pipeline + ".";
  }

  public String paneTopic(String pipeline) {
    return of(pipeline) + "panes";
  }

  public String deadLetterTopic(String pipeline) {
    return of(pipeline) + "dead-letters";
  }

  /** The pipeline's ingest log in cluster mode, which only Eventide writes and reads. */
  public String eventTopic(String pipeline) {
    return of(pipeline) + "events";
  }

  public String group(String pipeline) {
    return of(pipeline) + "source";
  }

  /** Whether the topic or group {@code name} is in the pipeline's namespace. */
  public boolean owns(String pipeline, String name) {
    return within(of(pipeline), name);
  }

  /** What every name of the stream starts with. */
  public String ofStream(String stream) {
    return prefix + "_stream." + stream + ".";
  }

  public String streamTopic(String stream) {
    return ofStream(stream) + "in";
  }

  public String streamGroup(String stream) {
    return ofStream(stream) + "source";
  }

  /** Whether the topic or group {@code name} is in the stream's namespace. */
  public boolean ownsForStream(String stream, String name) {
    return within(ofStream(stream), name);
  }

  private static boolean within(String root, String name) {
    return name.startsWith(root)
        && name.length() > root.length()
        && name.indexOf('.', root.length()) < 0;
  }
}
