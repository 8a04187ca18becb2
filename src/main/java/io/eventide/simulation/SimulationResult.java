package io.eventide.simulation;

import io.eventide.core.IngestResult;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a simulation produced.
 *
 * @param outputs pane records, each with the {@code step} that emitted it, in emission order
 * @param dropped events that did not reach a window, each with its step and reason
 * @param counts what became of the events of every events step, summed
 * @param warnings the pipeline definition's warnings
 */
public record SimulationResult(
    List<ObjectNode> outputs,
    List<ObjectNode> dropped,
    IngestResult counts,
    List<String> warnings) {

  public ObjectNode toJson() {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode result = json.objectNode();
    ArrayNode outputArray = result.putArray("outputs");
    outputs.forEach(outputArray::add);
    ArrayNode droppedArray = result.putArray("dropped");
    dropped.forEach(droppedArray::add);
    result.set("counts", counts.toJson());
    ArrayNode warningArray = result.putArray("warnings");
    warnings.forEach(warningArray::add);
    return result;
  }
}
