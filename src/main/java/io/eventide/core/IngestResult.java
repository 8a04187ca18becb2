package io.eventide.core;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What became of each event of a batch, or of one shard's part of it: the one set of counts that
 * every answer, metric and simulation reports.
 *
 * @param filtered events the pipeline's filter dropped on purpose (not dead letters)
 * @param quota events that would have opened a window beyond the pipeline's limit
 * @param clamped events beyond the future skew taken with their arrival time as their timestamp
 *     ({@code onFutureSkew: clamp}); they are counted among the others too (accepted, late, ...)
 * @param rejections the first of the refused (expired, closed, future, invalid, quota) events by
 *     position
 */
public record IngestResult(
    int accepted,
    int late,
    int duplicates,
    int filtered,
    int expired,
    int closed,
    int future,
    int invalid,
    int quota,
    int clamped,
    Rejections rejections) {

  public static final IngestResult EMPTY = new IngestResult(0, 0, 0, 0, 0, 0, 0, 0);

  /** Counts that list no refused event, of which none was over quota nor clamped. */
  public IngestResult(
      int accepted,
      int late,
      int duplicates,
      int filtered,
      int expired,
      int closed,
      int future,
      int invalid) {
    this(
        accepted,
        late,
        duplicates,
        filtered,
        expired,
        closed,
        future,
        invalid,
        0,
        0,
        Rejections.NONE);
  }

  /** How many events these counts are of: each is accepted, a duplicate, filtered or refused. */
  public int events() {
    return accepted + duplicates + filtered + rejectedTotal();
  }

  /** How many events were refused: every one dropped, whether listed or not. */
  public int rejectedTotal() {
    return expired + closed + future + invalid + quota;
  }

  /** The counts of a batch whose first event is event {@code first} of its post. */
  public IngestResult at(int first) {
    return first == 0 ? this : withRejections(rejections.mapped(i -> first + i));
  }

  /** The same counts with {@code listed} as their rejections. */
  public IngestResult withRejections(Rejections listed) {
    return new IngestResult(
        accepted,
        late,
        duplicates,
        filtered,
        expired,
        closed,
        future,
        invalid,
        quota,
        clamped,
        listed);
  }

  public IngestResult plus(IngestResult o) {
    return new IngestResult(
        accepted + o.accepted,
        late + o.late,
        duplicates + o.duplicates,
        filtered + o.filtered,
        expired + o.expired,
        closed + o.closed,
        future + o.future,
        invalid + o.invalid,
        quota + o.quota,
        clamped + o.clamped,
        rejections.plus(o.rejections));
  }

  /** The answer's body: what {@code POST /events} acknowledges and {@code /simulate} sums up. */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("accepted", accepted);
    out.put("late", late);
    out.put("duplicates", duplicates);
    out.put("filtered", filtered);
    out.put("clamped", clamped);
    ObjectNode dropped = out.putObject("dropped");
    dropped.put("expired", expired);
    dropped.put("closed", closed);
    dropped.put("future", future);
    dropped.put("invalid", invalid);
    dropped.put("quota", quota);
    return out;
  }
}
