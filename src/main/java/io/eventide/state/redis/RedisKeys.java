package io.eventide.state.redis;

import io.eventide.core.KeyedWindow;

/**
 * The names of Eventide's Redis keys (docs/redis.md lists them). A pipeline's keys share the hash
 * tag {@code {pipeline}}, so that on a Redis Cluster they live in one slot and a commit's script
 * may touch them all.
 */
final class RedisKeys {
  private final String prefix;

  RedisKeys(String prefix) {
    this.prefix = prefix;
  }

  /** String: the id written when the store was first used ({@link RedisStoreMarker}). */
  String marker() {
    return prefix + ":marker";
  }

  /** Every pipeline definition, by name. */
  String pipelines() {
    return prefix + ":pipelines";
  }

  /** Hash: a credential's token bucket for rate limiting, shared by replicas. */
  String rateLimit(String credential) {
    return prefix + ":rate:" + credential;
  }

  /** Pattern of every key of a pipeline, for dropping its state. */
  String allOf(String pipeline) {
    return base(pipeline) + "*";
  }

  /** Hash: the owner's epoch, the shard count and the watermark tracker's state. */
  String meta(String pipeline) {
    return base(pipeline) + "meta";
  }

  /** String: a counter written before each wait for replicas ({@link ReplicaWait}). */
  String replicationProbe(String pipeline) {
    return base(pipeline) + "replicated";
  }

  String results(String pipeline) {
    return base(pipeline) + "results";
  }

  String resultsIndex(String pipeline) {
    return base(pipeline) + "results:index";
  }

  String resultsOrder(String pipeline) {
    return base(pipeline) + "results:order";
  }

  /**
   * Sorted set: the results of one key, as the results order holds them (score the window's start,
   * member its field). With the empty key, the prefix every key's set begins with, which commit.lua
   * completes with the keys it writes.
   */
  String resultsOfKey(String pipeline, String key) {
    return base(pipeline) + "results:key:" + key;
  }

  /** String: the longest window, in milliseconds, that the results have held. */
  String resultsSpan(String pipeline) {
    return base(pipeline) + "results:span";
  }

  String paneLog(String pipeline) {
    return base(pipeline) + "panes";
  }

  /** String: the token of the replica whose pane forwarder holds the lease, expiring with it. */
  String forwarderLease(String pipeline) {
    return base(pipeline) + "forwarder:lease";
  }

  /** Hash: the pane forwarder's checkpoint, {@code position} and {@code read}. */
  String forwarderCheckpoint(String pipeline) {
    return base(pipeline) + "forwarder:checkpoint";
  }

  /**
   * Hash: what became of a waiting request's records, per partition ({@code <request>:<partition>}
   * to eight counts), written by the commits that applied them.
   */
  String receipts(String pipeline) {
    return base(pipeline) + "receipts";
  }

  /** Sorted set: the receipts' fields, scored by when they were last written, to prune them. */
  String receiptsByTime(String pipeline) {
    return base(pipeline) + "receipts:time";
  }

  String deadLetters(String pipeline) {
    return base(pipeline) + "dead-letters";
  }

  /** Hash: each key's encoded engine state. */
  String shardKeys(String pipeline, int shard) {
    return base(pipeline) + "shard:" + shard + ":keys";
  }

  /** Sorted set: event ids remembered for de-duplication, scored by when they may be forgotten. */
  String shardIds(String pipeline, int shard) {
    return base(pipeline) + "shard:" + shard + ":ids";
  }

  /** Hash: the shard's input watermark. */
  String shardMeta(String pipeline, int shard) {
    return base(pipeline) + "shard:" + shard + ":meta";
  }

  /** The field of a window in the results hashes: {@code <key>@<start>/<end>}. */
  static String windowField(String key, long start, long end) {
    return key + "@" + start + "/" + end;
  }

  /** The window a results field names. */
  static KeyedWindow window(String field) {
    int at = field.lastIndexOf('@');
    int slash = field.lastIndexOf('/');
    return new KeyedWindow(
        field.substring(0, at),
        Long.parseLong(field.substring(at + 1, slash)),
        Long.parseLong(field.substring(slash + 1)));
  }

  private String base(String pipeline) {
    return prefix + ":{" + pipeline + "}:";
  }
}
