package io.eventide.state.redis;

import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.core.Rejections;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import io.eventide.core.ShardSnapshot;
import io.eventide.engine.KeyOrder;
import io.eventide.engine.Pane;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneEvent;
import io.eventide.state.Commit;
import io.eventide.state.CommitFencedException;
import io.eventide.state.OutputStore;
import io.eventide.state.PartitionProgress;
import io.eventide.state.PartitionState;
import io.eventide.state.PartitionStore;
import io.eventide.state.PartitionWatermark;
import io.eventide.state.PipelineState;
import io.eventide.state.Receipt;
import io.eventide.state.StaleLineageException;
import io.eventide.state.StateProperties;
import io.eventide.state.StateStore;
import io.eventide.state.StateUnavailableException;
import io.eventide.state.StoreLostException;
import io.eventide.state.UnreplicatedCommitException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.ByteBufferRecord;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.data.redis.serializer.RedisSerializer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps pipeline state in Redis: each commit is one script call (one round trip, atomic), whatever
 * the batch's size; reads and start-up use plain commands. Key names are in {@link RedisKeys}.
 */
public class RedisStateStore implements StateStore, OutputStore, PartitionStore {
  private static final Logger log = LoggerFactory.getLogger(RedisStateStore.class);

  /** Entries of a shard's state one call of a paged read takes. */
  private static final int STATE_PAGE = 1000;

  /**
   * How long a waiting request's receipts are kept: past any wait ({@code
   * eventide.cluster.apply-timeout} is at most ten minutes), then pruned by later commits.
   */
  static final Duration RECEIPT_RETENTION = Duration.ofHours(1);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> COMMIT =
      RedisScript.of(new ClassPathResource("redis/commit.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> OPEN =
      RedisScript.of(new ClassPathResource("redis/open.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> OPEN_PARTITION =
      RedisScript.of(new ClassPathResource("redis/open-partition.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> PARTITION_WATERMARKS =
      RedisScript.of(new ClassPathResource("redis/partition-watermarks.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> RECEIPT =
      RedisScript.of(new ClassPathResource("redis/receipt.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> PANES =
      RedisScript.of(new ClassPathResource("redis/panes.lua"), List.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> RESULTS =
      RedisScript.of(new ClassPathResource("redis/results.lua"), List.class);

  private static final RedisScript<Long> RELEASE =
      RedisScript.of(new ClassPathResource("redis/release.lua"), Long.class);

  private static final RedisScript<Long> RELEASE_PARTITION =
      RedisScript.of(new ClassPathResource("redis/release-partition.lua"), Long.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> RESOLVE =
      RedisScript.of(new ClassPathResource("redis/resolve.lua"), List.class);

  private static final RedisScript<Long> UPGRADE_RESULTS =
      RedisScript.of(new ClassPathResource("redis/upgrade-results.lua"), Long.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> KEY_STATES =
      RedisScript.of(new ClassPathResource("redis/key-states.lua"), List.class);

  private static final Comparator<KeyedWindow> WINDOW_ORDER =
      Comparator.comparingDouble((KeyedWindow w) -> (double) w.start())
          .thenComparing(w -> utf8(member(w)), Arrays::compareUnsigned);

  private final ReactiveRedisTemplate<String, byte[]> bytes;
  private final ReactiveStringRedisTemplate strings;
  private final RedisKeys keys;
  private final OutputProperties outputs;
  private final StateProperties state;
  private final int maxIdsPerShard;
  private final SecureRandom random = new SecureRandom();
  private final LongAdder resultsVisited = new LongAdder();
  private final LongAdder keyStatesRead = new LongAdder();

  /** Null unless commits must reach replicas before they are acknowledged. */
  private final ReplicaWait replicaWait;

  private final RedisStoreMarker marker;

  /** Pipelines whose results this process has seen in this version's form (upgradeResults). */
  private final Set<String> resultsUpgraded = ConcurrentHashMap.newKeySet();

  public RedisStateStore(
      ReactiveRedisConnectionFactory factory,
      OutputProperties outputs,
      StateProperties state,
      IngestBounds bounds,
      RedisStoreMarker marker) {
    this.marker = marker;
    this.bytes =
        new ReactiveRedisTemplate<>(
            factory,
            RedisSerializationContext.<String, byte[]>newSerializationContext(
                    RedisSerializer.string())
                .value(RedisSerializer.byteArray())
                .hashKey(RedisSerializer.string())
                .hashValue(RedisSerializer.byteArray())
                .build());
    this.strings = new ReactiveStringRedisTemplate(factory);
    this.keys = new RedisKeys(state.keyPrefix());
    this.outputs = outputs;
    this.state = state;
    this.maxIdsPerShard = bounds.maxIdsPerShard();
    this.replicaWait = replicaWait(factory, state.redis());
  }

  private static ReplicaWait replicaWait(
      ReactiveRedisConnectionFactory factory, StateProperties.Redis redis) {
    if (redis.waitReplicas() == 0) {
      return null;
    }
    LettuceConnectionFactory lettuce = (LettuceConnectionFactory) factory;
    if (redis.waitTimeout().toMillis() >= lettuce.getTimeout()) {
      throw new IllegalStateException(
          "eventide.state.redis.wait-timeout ("
              + redis.waitTimeout()
              + ") must be shorter than spring.data.redis.timeout ("
              + lettuce.getTimeout()
              + " ms), or every wait for replicas would time out as a command");
    }
    return new ReplicaWait(
        lettuce.getRequiredNativeClient(), redis.waitReplicas(), redis.waitTimeout());
  }

  /** Closes the connection that waits for replicas, if there is one. */
  public void close() {
    if (replicaWait != null) {
      replicaWait.close();
    }
  }

  @Override
  public boolean durable() {
    return true;
  }

  @Override
  public CompletableFuture<PipelineState> open(
      String pipeline, String lineage, int proposedShards) {
    String meta = keys.meta(pipeline);
    String epoch = newEpoch();
    // Opening is where a store that lost its data would be taken for a new one: asked every time.
    return marker
        .verify()
        .then(upgradeResults(pipeline))
        .thenMany(
            strings.execute(
                OPEN, List.of(meta), List.of(lineage, epoch, Integer.toString(proposedShards))))
        .collectList()
        .onErrorMap(RedisStateStore::unavailable)
        .flatMap(
            reply -> {
              Map<String, String> fields = metaFields(pipeline, reply);
              int shardCount = Integer.parseInt(fields.get("shards"));
              String tracker = fields.get("tracker");
              String lateness = fields.get(LATENESS);
              return Flux.range(0, shardCount)
                  .concatMap(i -> withoutKeyOrder(pipeline, i).then(readShard(pipeline, i)))
                  .collectList()
                  .<PipelineState>map(
                      shards ->
                          new RedisPipelineState(
                              pipeline, lineage, epoch, meta, 0, false, shards, tracker, lateness))
                  .onErrorMap(RedisStateStore::unavailable);
            })
        .toFuture();
  }

  /**
   * A whole-pipeline owner does not keep its shards' key order (its own runtime answers {@code
   * /windows}): the mark that says the order is kept goes, so that a partition owner in cluster
   * mode later builds it again (open-partition.lua) and readers meanwhile read such a shard whole.
   */
  private Mono<Long> withoutKeyOrder(String pipeline, int shard) {
    return strings.opsForHash().remove(keys.shardMeta(pipeline, shard), KEY_ORDER);
  }

  @Override
  public CompletableFuture<PartitionState> openPartition(
      String pipeline, String lineage, int partition, int partitions) {
    String meta = keys.shardMeta(pipeline, partition);
    String epoch = newEpoch();
    return marker
        .verify()
        .then(upgradeResults(pipeline))
        .thenMany(
            strings.execute(
                OPEN_PARTITION,
                List.of(
                    keys.meta(pipeline),
                    meta,
                    keys.shardKeys(pipeline, partition),
                    keys.shardKeyOrder(pipeline, partition)),
                List.of(lineage, epoch, Integer.toString(partitions))))
        .collectList()
        .onErrorMap(RedisStateStore::unavailable)
        .flatMap(
            reply -> {
              Map<String, String> fields = metaFields(pipeline, reply);
              long offset = Long.parseLong(fields.getOrDefault("offset", "0"));
              Map<String, Long> origins = new HashMap<>();
              fields.forEach(
                  (field, value) -> {
                    if (field.startsWith(ORIGIN_FIELD)) {
                      origins.put(field.substring(ORIGIN_FIELD.length()), Long.parseLong(value));
                    }
                  });
              return readShard(pipeline, partition)
                  .<PartitionState>map(
                      shard ->
                          new RedisPartitionState(
                              pipeline,
                              lineage,
                              epoch,
                              partition,
                              shard,
                              fields.get("tracker"),
                              fields.get(LATENESS),
                              offset,
                              origins))
                  .onErrorMap(RedisStateStore::unavailable);
            })
        .toFuture();
  }

  @Override
  public CompletableFuture<List<PartitionWatermark>> partitionWatermarks(
      String pipeline, int partitions) {
    List<String> metas = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      metas.add(keys.shardMeta(pipeline, p));
    }
    return strings
        .execute(PARTITION_WATERMARKS, metas, List.of())
        .collectList()
        .map(
            reply -> {
              // A list of [watermark, heard, final through, output watermark] per partition.
              List<?> pairs = scriptReply(reply);
              List<PartitionWatermark> out = new ArrayList<>(partitions);
              for (int p = 0; p < pairs.size(); p++) {
                List<?> pair = (List<?>) pairs.get(p);
                Object watermark = pair.get(0);
                OutputProgress through = outputProgress(pair.get(2), pair.get(3));
                out.add(
                    watermark == null
                        ? new PartitionWatermark(p, Time.MIN, Time.MIN, through)
                        : new PartitionWatermark(
                            p,
                            Long.parseLong(text(watermark)),
                            Long.parseLong(text(pair.get(1))),
                            through));
              }
              return out;
            })
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  @Override
  public CompletableFuture<ShardSnapshot> readPartition(
      String pipeline, int partition, String key) {
    Mono<Optional<Long>> watermark = shardWatermark(pipeline, partition);
    Mono<Map<String, byte[]>> state =
        bytes
            .<String, byte[]>opsForHash()
            .get(keys.shardKeys(pipeline, partition), key)
            .map(b -> Map.of(key, b))
            .defaultIfEmpty(Map.of());
    return Mono.zip(watermark, state)
        .map(t -> new ShardSnapshot(t.getT1().orElse(null), t.getT2(), Map.of()))
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  @Override
  public CompletableFuture<ShardSnapshot> readPartitionKeys(
      String pipeline, int partition, String from, int count) {
    return bytes
        .execute(
            KEY_STATES,
            List.of(
                keys.shardMeta(pipeline, partition),
                keys.shardKeys(pipeline, partition),
                keys.shardKeyOrder(pipeline, partition)),
            List.of(from == null ? new byte[0] : utf8(from), number(count)))
        .collectList()
        .flatMap(
            reply -> {
              List<?> items = scriptReply(reply);
              String watermark = text(items.get(0));
              Long shardWatermark = watermark.isEmpty() ? null : Long.parseLong(watermark);
              if (text(items.get(1)).equals("0")) {
                return readShard(pipeline, partition)
                    .doOnNext(whole -> keyStatesRead.add(whole.keys().size()))
                    .map(whole -> keysFrom(whole, from, count));
              }
              Map<String, byte[]> states = new LinkedHashMap<>();
              for (int i = 2; i + 1 < items.size(); i += 2) {
                states.put(text(items.get(i)), (byte[]) items.get(i + 1));
              }
              keyStatesRead.add(states.size());
              return Mono.just(new ShardSnapshot(shardWatermark, states, Map.of()));
            })
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  /**
   * What key-states.lua reads, taken from a shard read whole: at most {@code count} keys from
   * {@code from} on, in key order.
   */
  private static ShardSnapshot keysFrom(ShardSnapshot whole, String from, int count) {
    Map<String, byte[]> states = new LinkedHashMap<>();
    whole.keys().keySet().stream()
        .filter(k -> from == null || KeyOrder.compare(k, from) >= 0)
        .sorted(KeyOrder.ORDER)
        .limit(count)
        .forEach(k -> states.put(k, whole.keys().get(k)));
    return new ShardSnapshot(whole.watermark(), states, Map.of());
  }

  @Override
  public long keyStatesRead() {
    return keyStatesRead.sum();
  }

  @Override
  public CompletableFuture<Optional<IngestResult>> receipt(
      String pipeline, String request, Map<Integer, Long> lastOffsets) {
    List<String> scriptKeys = new ArrayList<>(1 + lastOffsets.size());
    List<String> args = new ArrayList<>(1 + 2 * lastOffsets.size());
    scriptKeys.add(keys.receipts(pipeline));
    args.add(request);
    lastOffsets.forEach(
        (partition, offset) -> {
          scriptKeys.add(keys.shardMeta(pipeline, partition));
          args.add(Integer.toString(partition));
          args.add(Long.toString(offset));
        });
    return strings
        .execute(RECEIPT, scriptKeys, args)
        .collectList()
        .map(
            reply -> {
              List<?> items = scriptReply(reply);
              if (Long.parseLong(text(items.get(0))) == 0) {
                return Optional.<IngestResult>empty();
              }
              IngestResult sum = IngestResult.EMPTY;
              // Per partition its counts, then what it refused; either null where it has none.
              for (int i = 1; i < items.size(); i += 2) {
                Object counts = items.get(i);
                Object refused = i + 1 < items.size() ? items.get(i + 1) : null;
                if (counts != null) {
                  IngestResult part = counts(text(counts));
                  sum =
                      sum.plus(
                          refused == null
                              ? part
                              : part.withRejections(ReceiptRejections.parse(text(refused))));
                }
              }
              return Optional.of(sum);
            })
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  /** A receipt's field in the receipts hash. */
  private static String receiptField(String request, int partition) {
    return request + ":" + partition;
  }

  /**
   * A receipt's counts as stored: nine numbers in {@link IngestResult}'s order (receipts written
   * before the quota count have eight). Clamping is decided where a batch is read, never by the
   * partition's owner, so no receipt carries it.
   */
  private static String counts(IngestResult r) {
    return r.accepted()
        + ","
        + r.late()
        + ","
        + r.duplicates()
        + ","
        + r.filtered()
        + ","
        + r.expired()
        + ","
        + r.closed()
        + ","
        + r.future()
        + ","
        + r.invalid()
        + ","
        + r.quota();
  }

  private static IngestResult counts(String stored) {
    String[] n = stored.split(",");
    return new IngestResult(
        Integer.parseInt(n[0]),
        Integer.parseInt(n[1]),
        Integer.parseInt(n[2]),
        Integer.parseInt(n[3]),
        Integer.parseInt(n[4]),
        Integer.parseInt(n[5]),
        Integer.parseInt(n[6]),
        Integer.parseInt(n[7]),
        n.length > 8 ? Integer.parseInt(n[8]) : 0,
        0,
        Rejections.NONE);
  }

  /** A new owner's epoch: random, so that no two opens ever share one. */
  private String newEpoch() {
    byte[] token = new byte[8];
    random.nextBytes(token);
    return HexFormat.of().formatHex(token);
  }

  /** An open script's reply as the meta hash's fields; fails when the lineage was another. */
  private static Map<String, String> metaFields(String pipeline, List<?> reply) {
    List<String> pairs = flatten(reply);
    if (pairs.isEmpty()) {
      throw new StaleLineageException(pipeline);
    }
    Map<String, String> fields = new HashMap<>();
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      fields.put(pairs.get(i), pairs.get(i + 1));
    }
    return fields;
  }

  /**
   * A shard's state, read in pages (HSCAN, ZSCAN) so that no single reply grows with the shard and
   * a large pipeline reopens within the command timeout.
   */
  private Mono<ShardSnapshot> readShard(String pipeline, int shard) {
    ScanOptions page = ScanOptions.scanOptions().count(STATE_PAGE).build();
    Mono<Optional<Long>> watermark = shardWatermark(pipeline, shard);
    Mono<Map<String, byte[]>> state =
        bytes
            .<String, byte[]>opsForHash()
            .scan(keys.shardKeys(pipeline, shard), page)
            .collectMap(Map.Entry::getKey, Map.Entry::getValue, HashMap::new);
    Mono<Map<String, Long>> ids =
        strings
            .opsForZSet()
            .scan(keys.shardIds(pipeline, shard), page)
            .collectMap(t -> t.getValue(), t -> t.getScore().longValue(), HashMap::new);
    return Mono.zip(watermark, state, ids)
        .map(t -> new ShardSnapshot(t.getT1().orElse(null), t.getT2(), t.getT3()));
  }

  @Override
  public Mono<List<String>> lateness(String pipeline) {
    return strings
        .<String, String>opsForHash()
        .get(keys.meta(pipeline), LATENESS)
        .map(List::of)
        .defaultIfEmpty(List.of())
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public CompletableFuture<List<String>> partitionLateness(String pipeline, int partitions) {
    // One small read per partition, only when a client asks: no script for it.
    return Flux.range(0, partitions)
        .concatMap(
            p -> strings.<String, String>opsForHash().get(keys.shardMeta(pipeline, p), LATENESS))
        .collectList()
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  @Override
  public Mono<OutputProgress> progress(String pipeline) {
    return strings
        .<String, String>opsForHash()
        .multiGet(keys.meta(pipeline), List.of(FINAL_THROUGH, OUTPUT_WATERMARK))
        .map(got -> outputProgress(got.get(0), got.get(1)))
        .onErrorMap(RedisStateStore::unavailable);
  }

  /**
   * The progress an owner's meta hash holds; a version before the output watermark was kept wrote
   * the final time only, which its progress events gave as the watermark too.
   */
  private static OutputProgress outputProgress(Object finalThrough, Object outputWatermark) {
    if (finalThrough == null) {
      return OutputProgress.NONE;
    }
    long through = Long.parseLong(text(finalThrough));
    return new OutputProgress(
        outputWatermark == null ? through : Long.parseLong(text(outputWatermark)), through);
  }

  /** The engine's input watermark a shard last committed, if it committed one. */
  private Mono<Optional<Long>> shardWatermark(String pipeline, int shard) {
    return strings
        .opsForHash()
        .get(keys.shardMeta(pipeline, shard), "watermark")
        .map(w -> Optional.of(Long.parseLong((String) w)))
        .defaultIfEmpty(Optional.empty());
  }

  @Override
  public CompletableFuture<Boolean> hasState(String pipeline) {
    // Every open writes the meta hash; the outputs count too, should a drop have stopped half way.
    return strings
        .countExistingKeys(
            List.of(
                keys.meta(pipeline),
                keys.results(pipeline),
                keys.paneLog(pipeline),
                keys.deadLetters(pipeline)))
        .map(n -> n > 0)
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  @Override
  public CompletableFuture<Void> drop(String pipeline) {
    // The meta hash goes first: with its epoch gone, no commit of the old owner can write again
    // while the rest is being deleted.
    return strings
        .delete(keys.meta(pipeline))
        .thenMany(
            strings.scan(ScanOptions.scanOptions().match(keys.allOf(pipeline)).count(1000).build()))
        .buffer(500)
        .concatMap(batch -> strings.unlink(batch.toArray(String[]::new)))
        .then()
        .onErrorMap(RedisStateStore::unavailable)
        .toFuture();
  }

  @Override
  public Mono<ResultsPage> results(
      String pipeline, String key, long from, long to, KeyedWindow after, int limit) {
    return page(pipeline, key, from, to, after, limit, false)
        .map(
            reply -> {
              List<JsonNode> records = new ArrayList<>(reply.size() / 2);
              KeyedWindow next =
                  pageOf(reply, 1, limit, r -> records.add(JsonMapper.shared().readTree(r)));
              return new ResultsPage(records, next);
            });
  }

  @Override
  public Mono<Snapshot> snapshot(String pipeline, String key, KeyedWindow after, int limit) {
    return page(pipeline, key, Time.MIN, Time.MAX, after, limit, true)
        .map(
            reply -> {
              String position = reply.get(1);
              List<PaneEvent> windows = new ArrayList<>(reply.size() / 2);
              KeyedWindow next =
                  pageOf(reply, 2, limit, r -> windows.add(snapshotItem(position, r)));
              return new Snapshot(position, windows, next);
            });
  }

  /**
   * The results order's own: by score (the start, as Redis holds it, a double), then by the bytes
   * of the field.
   */
  @Override
  public Comparator<KeyedWindow> windowOrder() {
    return WINDOW_ORDER;
  }

  @Override
  public long resultsVisited() {
    return resultsVisited.sum();
  }

  /**
   * results.lua's reply, flattened, with what it visited counted: with {@code position}, the pane
   * log's newest id follows the count.
   */
  private Mono<List<String>> page(
      String pipeline,
      String key,
      long from,
      long to,
      KeyedWindow after,
      int limit,
      boolean position) {
    List<String> scriptKeys = new ArrayList<>(5);
    scriptKeys.add(keys.resultsOrder(pipeline));
    scriptKeys.add(keys.results(pipeline));
    scriptKeys.add(keys.resultsByKey(pipeline));
    scriptKeys.add(keys.resultsExtent(pipeline));
    if (position) {
      scriptKeys.add(keys.paneLog(pipeline));
    }
    List<String> args =
        List.of(
            after == null ? "" : member(after),
            after == null ? "0" : Long.toString(after.start()),
            key == null ? "" : RedisKeys.keyPrefix(key),
            from <= Time.MIN ? "" : Long.toString(from),
            Long.toString(to),
            Integer.toString(limit));
    return upgradeResults(pipeline)
        .thenMany(strings.execute(RESULTS, scriptKeys, args))
        .collectList()
        .map(RedisStateStore::flatten)
        .doOnNext(reply -> resultsVisited.add(Long.parseLong(reply.get(0))))
        .onErrorMap(RedisStateStore::unavailable);
  }

  /**
   * Brings the pipeline's results to this version's form (upgrade-results.lua) the first time this
   * process touches them; a no-op in Redis once they are.
   */
  private Mono<Void> upgradeResults(String pipeline) {
    if (resultsUpgraded.contains(pipeline)) {
      return Mono.empty();
    }
    return strings
        .execute(
            UPGRADE_RESULTS,
            List.of(
                keys.resultsOrder(pipeline),
                keys.resultsByKey(pipeline),
                keys.resultsExtent(pipeline),
                keys.earlierResultsSpan(pipeline),
                keys.earlierResultsOfKey(pipeline)),
            List.of())
        .then()
        .doOnSuccess(v -> resultsUpgraded.add(pipeline))
        .onErrorMap(RedisStateStore::unavailable);
  }

  private static String member(KeyedWindow w) {
    return RedisKeys.resultMember(w.key(), w.start(), w.end());
  }

  /**
   * The longest window among the panes, in milliseconds, as commit.lua keeps it ('' for none); the
   * global window's overflows a long and is held as the longest there is.
   */
  private static byte[] longestWindow(List<RenderedPane> panes) {
    if (panes.isEmpty()) {
      return new byte[0];
    }
    long longest = 0;
    for (RenderedPane r : panes) {
      Window w = r.pane().window();
      long length = w.end() - w.start();
      longest = Math.max(longest, length < 0 ? Long.MAX_VALUE : length);
    }
    return number(longest);
  }

  /**
   * Hands the records of a reply's (field, record) pairs from {@code first} on to {@code records},
   * at most {@code limit}; the window to continue after when the reply had one more.
   */
  private static KeyedWindow pageOf(
      List<String> reply, int first, int limit, Consumer<String> records) {
    KeyedWindow last = null;
    int taken = 0;
    for (int i = first; i + 1 < reply.size(); i += 2) {
      if (taken == limit) {
        return last;
      }
      records.accept(reply.get(i + 1));
      last = RedisKeys.window(reply.get(i));
      taken++;
    }
    return null;
  }

  /** A stored result as a snapshot item: what filters read is in the record itself. */
  private static PaneEvent snapshotItem(String position, String record) {
    JsonNode json = JsonMapper.shared().readTree(record);
    return new PaneEvent(
        position,
        LogEntryKind.SNAPSHOT,
        json.get("key").asString(),
        Timing.valueOf(json.at("/pane/timing").asString()),
        json.get("final").asBoolean(),
        record);
  }

  @Override
  public Mono<List<JsonNode>> deadLetters(String pipeline, int limit) {
    return strings
        .opsForStream()
        .reverseRange(keys.deadLetters(pipeline), Range.unbounded(), Limit.limit().count(limit))
        .map(r -> JsonMapper.shared().readTree((String) r.getValue().get("record")))
        .collectList()
        .onErrorMap(RedisStateStore::unavailable);
  }

  /**
   * A read after an id the log still holds is one native {@code XRANGE} from that id on: the
   * entry's presence proves nothing after it was trimmed, since trimming only removes the oldest
   * entries. Every other read (from the start, after an id the log no longer holds or never held,
   * or of no entries) is panes.lua, which reads the bounds and the page at one moment. A page
   * through the script cost Redis several times the native read: every byte of every entry became a
   * Lua string on the way out.
   */
  @Override
  public Mono<LogPage> panesAfter(String pipeline, String position, int limit) {
    if (limit == 0 || LogPage.START.equals(position)) {
      return pageWithBounds(pipeline, position, limit);
    }
    ByteBuffer log = ByteBuffer.wrap(utf8(keys.paneLog(pipeline)));
    return bytes
        .execute(
            c ->
                c.streamCommands()
                    .xRange(log, Range.closed(position, "+"), Limit.limit().count(limit + 1)))
        .collectList()
        .flatMap(
            records ->
                !records.isEmpty() && records.get(0).getId().getValue().equals(position)
                    ? Mono.just(LogPage.held(entries(records.subList(1, records.size()))))
                    : pageWithBounds(pipeline, position, limit))
        .onErrorMap(RedisStateStore::unavailable);
  }

  private static List<PaneEvent> entries(List<ByteBufferRecord> records) {
    List<PaneEvent> entries = new ArrayList<>(records.size());
    for (ByteBufferRecord r : records) {
      EntryFields fields = new EntryFields();
      r.getValue().forEach((name, value) -> fields.add(copy(name), copy(value)));
      entries.add(fields.event(r.getId().getValue()));
    }
    return entries;
  }

  private static byte[] copy(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  private Mono<LogPage> pageWithBounds(String pipeline, String position, int limit) {
    return bytes
        .execute(PANES, List.of(keys.paneLog(pipeline)), List.of(ascii(position), number(limit)))
        .collectList()
        .map(RedisStateStore::logPage)
        .onErrorMap(RedisStateStore::unavailable);
  }

  /**
   * The reply of panes.lua: trimmed-through id, end id, the entries as XRANGE gives them, then how
   * many entries were trimmed. Read from the reply's bytes: a subscriber reads every pane back, and
   * strings for the field names and a map per entry were most of what reading one cost.
   */
  private static LogPage logPage(List<?> replies) {
    // The script's one reply, a nested list, arrives as the one element of the Flux.
    List<?> reply = (List<?>) replies.get(0);
    List<?> raw = (List<?>) reply.get(2);
    List<PaneEvent> entries = new ArrayList<>(raw.size());
    for (Object entry : raw) {
      List<?> idAndFields = (List<?>) entry;
      List<?> values = (List<?>) idAndFields.get(1);
      EntryFields fields = new EntryFields();
      for (int i = 0; i + 1 < values.size(); i += 2) {
        fields.add((byte[]) values.get(i), (byte[]) values.get(i + 1));
      }
      entries.add(fields.event(text(idAndFields.get(0))));
    }
    return new LogPage(
        entries, text(reply.get(0)), text(reply.get(1)), ((Number) reply.get(3)).longValue());
  }

  /** One pane log entry's fields as commit.lua writes them, read by name in any order. */
  private static final class EntryFields {
    private byte[] kind;
    private String key;
    private String record;
    private Timing timing;
    private boolean last;
    private String trace;

    void add(byte[] name, byte[] value) {
      if (Arrays.equals(name, KIND)) {
        kind = value;
      } else if (Arrays.equals(name, KEY)) {
        key = new String(value, StandardCharsets.UTF_8);
      } else if (Arrays.equals(name, RECORD)) {
        record = new String(value, StandardCharsets.UTF_8);
      } else if (Arrays.equals(name, TIMING)) {
        timing = timing(value);
      } else if (Arrays.equals(name, FINAL)) {
        last = Arrays.equals(value, ONE);
      } else if (Arrays.equals(name, TRACE)) {
        trace = new String(value, StandardCharsets.US_ASCII);
      }
    }

    PaneEvent event(String id) {
      if (Arrays.equals(kind, MERGE)) {
        return PaneEvent.merge(id, key, record);
      }
      if (Arrays.equals(kind, PROGRESS)) {
        return PaneEvent.progress(id);
      }
      if (Arrays.equals(kind, FINAL_AGAIN)) {
        return PaneEvent.finalAgain(id, key, record, trace);
      }
      LogEntryKind k;
      if (Arrays.equals(kind, PANE)) {
        k = LogEntryKind.PANE;
      } else if (Arrays.equals(kind, RETRACTION)) {
        k = LogEntryKind.RETRACTION;
      } else {
        throw new IllegalStateException(
            "unknown pane log entry "
                + (kind == null ? null : new String(kind, StandardCharsets.UTF_8)));
      }
      return new PaneEvent(id, k, key, timing, last, record, trace);
    }
  }

  private static Timing timing(byte[] name) {
    for (int t = 0; t < TIMINGS.length; t++) {
      if (Arrays.equals(name, TIMING_NAMES[t])) {
        return TIMINGS[t];
      }
    }
    throw new IllegalStateException(
        "unknown pane timing " + new String(name, StandardCharsets.UTF_8));
  }

  private static String text(Object o) {
    return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : o.toString();
  }

  static StateUnavailableException unavailable(Throwable e) {
    return e instanceof StateUnavailableException u
        ? u
        : new StateUnavailableException("Redis: " + e.getMessage(), e);
  }

  /**
   * One owner's handle: commits carry its epoch, so a fenced owner's commits fail. The owner is the
   * whole pipeline (its meta holds the epoch, its shards are numbered from 0) or, in cluster mode,
   * one partition (whose shard meta holds the epoch, and whose one shard is the partition).
   */
  private class RedisPipelineState implements PipelineState {
    private final String pipeline;
    private final byte[] lineage;
    private final String epochText;
    private final byte[] epoch;
    private final String ownerMeta;
    private final int firstShard;

    /** Whether commits keep the shards' key order (commit.lua): a partition's owner's do. */
    private final boolean keyOrder;

    private final List<ShardSnapshot> shards;
    private final String tracker;
    private final String lateness;

    /** The sequence number of the last commit issued; commits are issued one after another. */
    private long sequence;

    private final PackedStrings packed = new PackedStrings(1 << 16);

    RedisPipelineState(
        String pipeline,
        String lineage,
        String epoch,
        String ownerMeta,
        int firstShard,
        boolean keyOrder,
        List<ShardSnapshot> shards,
        String tracker,
        String lateness) {
      this.pipeline = pipeline;
      this.lineage = utf8(lineage);
      this.epochText = epoch;
      this.epoch = utf8(epoch);
      this.ownerMeta = ownerMeta;
      this.firstShard = firstShard;
      this.keyOrder = keyOrder;
      this.shards = shards;
      this.tracker = tracker;
      this.lateness = lateness;
    }

    @Override
    public int shardCount() {
      return shards.size();
    }

    @Override
    public ShardSnapshot shard(int index) {
      return shards.get(index);
    }

    @Override
    public String tracker() {
      return tracker;
    }

    @Override
    public String lateness() {
      return lateness;
    }

    @Override
    public CompletableFuture<Void> release() {
      return strings
          .execute(RELEASE, List.of(ownerMeta), List.of(epochText))
          .then()
          .onErrorMap(RedisStateStore::unavailable)
          .toFuture();
    }

    /** The keys a commit adds to the shard's key order: none where it is not kept. */
    private List<String> addedKeys(ShardChanges c) {
      return keyOrder ? c.added() : List.of();
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<List<String>> commit(Commit commit) {
      if (marker.lost() != null) {
        return CompletableFuture.failedFuture(new StoreLostException(marker.lost()));
      }
      List<String> scriptKeys = new ArrayList<>(11 + 4 * commit.shards().size());
      scriptKeys.add(ownerMeta);
      scriptKeys.add(keys.meta(pipeline));
      scriptKeys.add(keys.results(pipeline));
      scriptKeys.add(keys.resultsIndex(pipeline));
      scriptKeys.add(keys.resultsOrder(pipeline));
      scriptKeys.add(keys.paneLog(pipeline));
      scriptKeys.add(keys.deadLetters(pipeline));
      scriptKeys.add(keys.receipts(pipeline));
      scriptKeys.add(keys.receiptsByTime(pipeline));
      scriptKeys.add(keys.resultsByKey(pipeline));
      scriptKeys.add(keys.resultsExtent(pipeline));
      long number = ++sequence;
      List<byte[]> args = new ArrayList<>(22 + 5 * commit.shards().size());
      args.add(epoch);
      args.add(number(number));
      args.add(number(state.paneLogMaxLength()));
      args.add(number(outputs.deadLettersPerPipeline()));
      args.add(number(outputs.resultsPerPipeline()));
      args.add(commit.tracker() == null ? new byte[0] : utf8(commit.tracker()));
      args.add(number(maxIdsPerShard));
      args.add(lineage);
      PartitionProgress progress = commit.progress();
      args.add(
          progress == null || progress.nextOffset() == null
              ? new byte[0]
              : number(progress.nextOffset()));
      args.add(progress == null ? new byte[0] : number(progress.sourceWatermark()));
      args.add(progress == null ? new byte[0] : number(progress.heard()));
      Receipt receipt = progress == null ? null : progress.receipt();
      args.add(receipt == null ? new byte[0] : utf8(receiptField(receipt.request(), firstShard)));
      args.add(receipt == null ? new byte[0] : utf8(counts(receipt.counts())));
      args.add(number(RECEIPT_RETENTION.toMillis()));
      args.add(number(commit.shards().size()));
      OutputProgress moved = commit.outputProgress();
      args.add(moved == null ? new byte[0] : number(moved.finalThrough()));
      Rejections refused = receipt == null ? Rejections.NONE : receipt.counts().rejections();
      args.add(refused.isEmpty() ? new byte[0] : utf8(ReceiptRejections.json(refused)));
      args.add(number(refused.limit()));
      args.add(longestWindow(commit.panes()));
      args.add(commit.traceparent() == null ? new byte[0] : ascii(commit.traceparent()));
      args.add(keyOrder ? ONE : new byte[0]);
      args.add(moved == null ? new byte[0] : number(moved.watermark()));
      for (ShardChanges c : commit.shards()) {
        int shard = firstShard + c.shard();
        scriptKeys.add(keys.shardKeys(pipeline, shard));
        scriptKeys.add(keys.shardIds(pipeline, shard));
        scriptKeys.add(keys.shardMeta(pipeline, shard));
        scriptKeys.add(keys.shardKeyOrder(pipeline, shard));
        args.add(packed.pack(p -> c.changed().forEach((key, value) -> p.add(key).add(value))));
        args.add(packed.pack(p -> addedKeys(c).forEach(key -> p.add(0).add(key))));
        args.add(packed.pack(p -> c.removed().forEach(p::add)));
        args.add(packed.pack(p -> c.ids().forEach((id, expiry) -> p.add(expiry).add(id))));
        args.add(c.watermark() == null ? new byte[0] : number(c.watermark()));
      }
      args.add(
          packed.pack(
              p -> {
                for (RenderedPane r : commit.panes()) {
                  Pane pane = r.pane();
                  Window w = pane.window();
                  p.add(RedisKeys.windowField(pane.key(), w.start(), w.end()))
                      .add(pane.info().index())
                      .add(w.start())
                      .add(pane.retraction() ? 1 : 0)
                      .add(pane.key())
                      .add(pane.info().timing().name())
                      .add(pane.isFinal() ? 1 : 0)
                      .add(r.json())
                      .add(RedisKeys.resultMember(pane.key(), w.start(), w.end()));
                }
              }));
      args.add(
          packed.pack(
              p -> {
                for (MergedWindow m : commit.mergedAway()) {
                  KeyedWindow w = m.window();
                  p.add(RedisKeys.windowField(w.key(), w.start(), w.end()))
                      .add(w.key())
                      .add(m.json())
                      .add(member(w));
                }
              }));
      args.add(
          packed.pack(
              p ->
                  commit
                      .deadLetters()
                      .forEach(d -> p.add(d.reason().wireName()).add(d.toJson().toString()))));
      Map<String, Long> origins = progress == null ? Map.of() : progress.origins();
      args.add(
          packed.pack(
              p -> {
                origins.forEach((partition, offset) -> p.add(ORIGIN_FIELD + partition).add(offset));
                if (commit.lateness() != null) {
                  p.add(LATENESS).add(commit.lateness());
                }
              }));
      args.add(
          packed.pack(
              p -> {
                for (KeyedWindow w : commit.finals()) {
                  p.add(RedisKeys.windowField(w.key(), w.start(), w.end())).add(w.key());
                }
              }));
      return bytes
          .execute(COMMIT, scriptKeys, args)
          .collectList()
          .map(RedisStateStore::flatten)
          .onErrorResume(
              error -> {
                if (CommitFailure.fenced(error)) {
                  return Mono.error(new CommitFencedException(pipeline, error));
                }
                return CommitFailure.neverRan(error)
                    ? Mono.error(unavailable(error))
                    : resolve(number, commit.panes().size(), error);
              })
          .flatMap(this::replicated)
          .toFuture();
    }

    /**
     * The commit's pane ids once enough replicas have it, or {@link UnreplicatedCommitException}
     * when they did not confirm it in time (a failed wait confirms nothing).
     */
    private Mono<List<String>> replicated(List<String> paneIds) {
      if (replicaWait == null) {
        return Mono.just(paneIds);
      }
      return replicaWait
          .acknowledged(keys.replicationProbe(pipeline))
          .onErrorReturn(0L)
          .flatMap(
              confirmed ->
                  confirmed >= replicaWait.required()
                      ? Mono.just(paneIds)
                      : Mono.error(
                          new UnreplicatedCommitException(
                              paneIds, confirmed, replicaWait.required())));
    }

    /**
     * Asks Redis, until it answers or the resolve timeout passes, whether a commit whose reply was
     * lost landed. The answer is final: a commit found not to have landed is given up, so that a
     * copy still on its way cannot land after the producer was told it did not.
     */
    @SuppressWarnings("unchecked")
    private Mono<List<String>> resolve(long number, int panes, Throwable lost) {
      Duration timeout = state.redis().commitResolveTimeout();
      return Mono.defer(
              () ->
                  strings
                      .execute(
                          RESOLVE, List.of(ownerMeta), List.of(epochText, Long.toString(number)))
                      .collectList())
          .retryWhen(
              Retry.backoff(Long.MAX_VALUE, RESOLVE_BACKOFF)
                  .maxBackoff(RESOLVE_BACKOFF.multipliedBy(10))
                  .filter(e -> !CommitFailure.isErrorReply(e)))
          .timeout(timeout)
          .onErrorMap(e -> CommitFailure.unresolved(pipeline, number, lost))
          .doOnNext(
              reply ->
                  log.warn(
                      "the reply to commit {} of pipeline {} was lost ({}); Redis says: {}",
                      number,
                      pipeline,
                      lost.toString(),
                      flatten(reply).get(0)))
          .flatMap(
              reply -> {
                List<String> fields = flatten(reply);
                return switch (fields.get(0)) {
                  case "landed" -> Mono.just(CommitFailure.paneIds(fields, panes, pipeline, lost));
                  case "abandoned" ->
                      Mono.error(
                          new StateUnavailableException(
                              "Redis did not apply commit "
                                  + number
                                  + " of pipeline '"
                                  + pipeline
                                  + "': "
                                  + lost.getMessage(),
                              lost));
                  default -> Mono.error(CommitFailure.unresolved(pipeline, number, lost));
                };
              });
    }
  }

  /** One partition's owner in cluster mode: its commits record the offset it has read to. */
  private final class RedisPartitionState extends RedisPipelineState implements PartitionState {
    private final String pipeline;
    private final String lineage;
    private final String epoch;
    private final int partition;
    private final long nextOffset;
    private final Map<String, Long> origins;

    RedisPartitionState(
        String pipeline,
        String lineage,
        String epoch,
        int partition,
        ShardSnapshot shard,
        String tracker,
        String lateness,
        long nextOffset,
        Map<String, Long> origins) {
      super(
          pipeline,
          lineage,
          epoch,
          keys.shardMeta(pipeline, partition),
          partition,
          true,
          List.of(shard),
          tracker,
          lateness);
      this.pipeline = pipeline;
      this.lineage = lineage;
      this.epoch = epoch;
      this.partition = partition;
      this.nextOffset = nextOffset;
      this.origins = Map.copyOf(origins);
    }

    @Override
    public long nextOffset() {
      return nextOffset;
    }

    @Override
    public Map<String, Long> origins() {
      return origins;
    }

    /**
     * Undone only for a pipeline deleted meanwhile: its offset then goes with it, as the delete's
     * drop would have taken it.
     */
    @Override
    public CompletableFuture<Void> release() {
      return strings
          .execute(
              RELEASE_PARTITION,
              List.of(keys.meta(pipeline), keys.shardMeta(pipeline, partition)),
              List.of(epoch, lineage))
          .then()
          .onErrorMap(RedisStateStore::unavailable)
          .toFuture();
    }
  }

  private static final Duration RESOLVE_BACKOFF = Duration.ofMillis(50);

  /** A partition meta's field for the last record applied of a Kafka source partition. */
  private static final String ORIGIN_FIELD = "origin:";

  private static final byte[] ONE = {'1'};

  /** A pane log entry's field names and kinds, as commit.lua writes them. */
  private static final byte[] KIND = ascii("kind");

  private static final String FINAL_THROUGH = "finalThrough";
  private static final String OUTPUT_WATERMARK = "outputWatermark";

  /**
   * A shard meta's field naming the owner whose commits keep the shard's key order: readers trust
   * the order while it is the owner's epoch (open-partition.lua, key-states.lua).
   */
  private static final String KEY_ORDER = "keyOrder";

  /** The owner's meta's field for its lateness advisor (see LatenessReport). */
  private static final String LATENESS = "lateness";

  private static final byte[] KEY = ascii("key");
  private static final byte[] RECORD = ascii("record");
  private static final byte[] TIMING = ascii("timing");
  private static final byte[] FINAL = ascii("final");
  private static final byte[] TRACE = ascii("trace");
  private static final byte[] PANE = ascii("pane");
  private static final byte[] RETRACTION = ascii("retraction");
  private static final byte[] MERGE = ascii("merge");
  private static final byte[] PROGRESS = ascii("progress");
  private static final byte[] FINAL_AGAIN = ascii("final");

  private static final Timing[] TIMINGS = Timing.values();
  private static final byte[][] TIMING_NAMES =
      Arrays.stream(TIMINGS).map(t -> ascii(t.name())).toArray(byte[][]::new);

  /** A script's reply, a list: the Flux's one element, or its elements. */
  private static List<?> scriptReply(List<?> reply) {
    return reply.size() == 1 && reply.get(0) instanceof List<?> list ? list : reply;
  }

  /** A script's reply (stream ids, hash fields) as one list of strings, however it is nested. */
  private static List<String> flatten(List<?> reply) {
    List<String> out = new ArrayList<>();
    for (Object o : reply) {
      if (o instanceof List<?> inner) {
        out.addAll(flatten(inner));
      } else if (o instanceof byte[] b) {
        out.add(new String(b, StandardCharsets.UTF_8));
      } else if (o != null) {
        out.add(o.toString());
      }
    }
    return out;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] number(long n) {
    return ascii(Long.toString(n));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
