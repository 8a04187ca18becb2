package io.eventide.runtime;

/** What became of one shard's part of a batch. */
record ShardOutcome(int accepted, int late, int duplicates, int expired, int closed) {
  static final ShardOutcome NONE = new ShardOutcome(0, 0, 0, 0, 0);

  ShardOutcome plus(ShardOutcome o) {
    return new ShardOutcome(
        accepted + o.accepted,
        late + o.late,
        duplicates + o.duplicates,
        expired + o.expired,
        closed + o.closed);
  }
}
