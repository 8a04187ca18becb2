package io.eventide.runtime;

/** The answer to an ingestion request: what became of each event. */
public record IngestResult(
    int accepted, int late, int duplicates, int expired, int closed, int future, int invalid) {

  static IngestResult of(ShardOutcome shards, int future, int invalid) {
    return new IngestResult(
        shards.accepted(),
        shards.late(),
        shards.duplicates(),
        shards.expired(),
        shards.closed(),
        future,
        invalid);
  }

  public IngestResult plus(IngestResult o) {
    return new IngestResult(
        accepted + o.accepted,
        late + o.late,
        duplicates + o.duplicates,
        expired + o.expired,
        closed + o.closed,
        future + o.future,
        invalid + o.invalid);
  }

  public static final IngestResult EMPTY = new IngestResult(0, 0, 0, 0, 0, 0, 0);
}
