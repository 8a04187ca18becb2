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
   * Sorted set: every result's {@linkplain #resultMember member}, all scored 0, so that a key's
   * results are one range of it in byte order ({@code ZRANGE … BYLEX}) and in window order.
   */
  String resultsByKey(String pipeline) {
    return base(pipeline) + "results:by-key";
  }

  /**
   * String: the longest window, in milliseconds, that the results have held. Its presence also says
   * that the results are held as this version holds them (see upgrade-results.lua).
   */
  String resultsExtent(String pipeline) {
    return base(pipeline) + "results:extent";
  }

  /** The results' span and sets of single keys as an earlier version kept them, to upgrade. */
  String earlierResultsSpan(String pipeline) {
    return base(pipeline) + "results:span";
  }

  /** The prefix of an earlier version's sorted set of one key's results. */
  String earlierResultsOfKey(String pipeline) {
    return base(pipeline) + "results:key:";
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

  /**
   * Sorted set: in cluster mode, the keys of the partition's {@linkplain #shardKeys keys hash}, all
   * scored 0, so that a page of them in key order ({@link io.eventide.engine.KeyOrder}: their
   * bytes' order) is one {@code ZRANGE … BYLEX} from a cursor.
   */
  String shardKeyOrder(String pipeline, int shard) {
    return base(pipeline) + "shard:" + shard + ":key-order";
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

  /**
   * The member of a window's result in the results order and by key: the key, its end marked
   * ({@link #keyPrefix}), the start in a form whose bytes sort as the numbers do, then the field.
   * Byte order over members is so key, then start, then the field: a key's results are one range
   * whose start is found by its window start, and the field is read off the end of the member.
   */
  static String resultMember(String key, long start, long end) {
    String field = windowField(key, start, end);
    StringBuilder b = new StringBuilder(field.length() * 2 + 24);
    b.append(keyPrefix(key));
    appendSortable(b, start);
    return b.append(field).toString();
  }

  /**
   * What every member of a key's results begins with: the key, each NUL in it doubled as NUL and
   * 0x01, then two NULs, which no other key's members begin with (no key's text has two NULs in a
   * row once escaped, so none is another's prefix up to them).
   */
  static String keyPrefix(String key) {
    return (key.indexOf('\0') < 0 ? key : key.replace("\0", "\0\1")) + "\0\0";
  }

  /**
   * A time as 20 digits whose byte order is the numbers' order: {@code 1} and the value for one not
   * below zero, {@code 0} and the nines' complement of its magnitude for a negative one.
   */
  static void appendSortable(StringBuilder b, long value) {
    String digits = value >= 0 ? Long.toString(value) : Long.toUnsignedString(-value);
    b.append(value >= 0 ? '1' : '0');
    for (int i = digits.length(); i < 19; i++) {
      b.append(value >= 0 ? '0' : '9');
    }
    for (int i = 0; i < digits.length(); i++) {
      char d = digits.charAt(i);
      b.append(value >= 0 ? d : (char) ('9' - (d - '0')));
    }
  }

  private String base(String pipeline) {
    return prefix + ":{" + pipeline + "}:";
  }
}
