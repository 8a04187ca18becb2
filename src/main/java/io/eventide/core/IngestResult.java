package io.eventide.core;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What became of each event of a batch, or of one shard's part of it: the one set of counts that
 * every answer, metric and simulation reports.
 *
 * @param filtered events the pipeline's filter dropped on purpose (not dead letters)
 */
public record IngestResult(
    int accepted,
    int late,
    int duplicates,
    int filtered,
    int expired,
    int closed,
    int future,
    int invalid) {

  public static final IngestResult EMPTY = new IngestResult(0, 0, 0, 0, 0, 0, 0, 0);

  public IngestResult plus(IngestResult o) {
    return new IngestResult(
        accepted + o.accepted,
        late + o.late,
        duplicates + o.duplicates,
        filtered + o.filtered,
        expired + o.expired,
        closed + o.closed,
        future + o.future,
        invalid + o.invalid);
  }

  /** The answer's body: what {@code POST /events} acknowledges and {@code /simulate} sums up. */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("accepted", accepted);
    out.put("late", late);
    out.put("duplicates", duplicates);
    out.put("filtered", filtered);
    ObjectNode dropped = out.putObject("dropped");
    dropped.put("expired", expired);
    dropped.put("closed", closed);
    dropped.put("future", future);
    dropped.put("invalid", invalid);
    return out;
  }
}
