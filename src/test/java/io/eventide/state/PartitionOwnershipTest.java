package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.core.IngestResult;
import io.eventide.core.OutputProgress;
import io.eventide.core.Rejection;
import io.eventide.core.Rejections;
import io.eventide.core.ShardChanges;
import io.eventide.core.ShardSnapshot;
import io.eventide.engine.DropReason;
import io.eventide.engine.Time;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.state.redis.RedisStateStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Cluster mode's ownership in Redis: opening a partition fences that partition's earlier owner and
 * no other; a commit records the partition's offset with its state, atomically, and the next owner
 * resumes from it; a drop fences every partition's owner; what each partition's sources say is read
 * back for all partitions at once. The owner's commits keep the partition's key order, from which a
 * page of keys is read in byte order from a cursor's key, reading only those; a partition whose
 * owner did not keep it (an earlier version, a whole-pipeline owner) is read whole, and gets it
 * again from its next partition owner.
 */
class PartitionOwnershipTest {
  /** In byte order; UTF-16 order would put the last three before "\uE000". */
  private static final List<String> KEYS =
      List.of(
          "a",
          "ab",
          "ab\u0000",
          "abc",
          "b",
          "\u00e9",
          "\uE000",
          "\uFFFD",
          "\uD800\uDC00",
          "\uD83D\uDE00",
          "\uD83D\uDE00a");

  private final String prefix = TestRedis.newKeyPrefix();
  private LettuceConnectionFactory factory;
  private RedisStateStore store;

  @BeforeEach
  void connect() {
    factory = TestRedis.connectionFactory(TestRedis.url());
    store = TestRedis.store(factory, prefix);
  }

  @AfterEach
  void close() {
    factory.destroy();
    TestRedis.delete(prefix);
  }

  /**
   * Issue 34: an open just after a delete's drop writes the pipeline's lineage back; releasing it
   * takes that and the partition's meta away again, but never what another owner or lineage wrote.
   */
  @Test
  void releasingAnOpenOfADeletedPipelineLeavesNoStateBehind() {
    PartitionState opened = store.openPartition("gone", "L", 0, 2).join();
    PartitionState earlier = store.openPartition("kept", "L", 1, 2).join();
    PartitionState later = store.openPartition("kept", "L", 1, 2).join();
    assertThat(TestRedis.keys(prefix + ":{gone}:*")).isNotEmpty();

    opened.release().join();
    earlier.release().join();

    assertThat(TestRedis.keys(prefix + ":{gone}:*")).isEmpty();
    // A later owner took partition 1 since: its meta stays. The pipeline's meta is of the released
    // lineage and goes, so that owner's next commit is fenced as after a drop.
    assertThat(TestRedis.keys(prefix + ":{kept}:shard:1:meta")).hasSize(1);
    assertThatThrownBy(() -> later.commit(step("a", 1, 1)).join())
        .hasCauseInstanceOf(CommitFencedException.class);
  }

  @Test
  void aPartitionsNewOwnerFencesItsEarlierOwnerAndNoOther() {
    PartitionState first = store.openPartition("p", "L", 0, 2).join();
    PartitionState other = store.openPartition("p", "L", 1, 2).join();
    first.commit(step("a", 10, 100)).join();
    assertThat(first.nextOffset()).isZero();

    PartitionState second = store.openPartition("p", "L", 0, 2).join();
    assertThat(second.nextOffset()).isEqualTo(10);
    assertThat(second.shard(0).keys()).containsOnlyKeys("a");
    assertThatThrownBy(() -> first.commit(step("b", 20, 200)).join())
        .isInstanceOf(CompletionException.class)
        .hasRootCauseMessage("FENCED another owner has taken this pipeline, or it was dropped");
    second.commit(step("b", 20, 200)).join();
    other.commit(step("c", 5, 50)).join();

    PartitionState third = store.openPartition("p", "L", 0, 2).join();
    assertThat(third.nextOffset()).isEqualTo(20);
    assertThat(third.shard(0).keys()).containsOnlyKeys("a", "b");
    assertThat(store.partitionWatermarks("p", 2).join())
        .containsExactly(
            new PartitionWatermark(0, 200, 200, OutputProgress.NONE),
            new PartitionWatermark(1, 50, 50, OutputProgress.NONE));
  }

  @Test
  void aDropFencesTheOwnerOfEveryPartitionAndAnotherLineageIsRefused() {
    PartitionState owner = store.openPartition("p", "L", 1, 2).join();
    PartitionState other = store.openPartition("p", "L", 0, 2).join();
    owner.commit(step("a", 3, 30)).join();
    // A drop deletes the pipeline's meta first: from then on no partition's owner commits, even
    // one whose own meta the drop has not reached yet.
    TestRedis.call(redis -> redis.del(prefix + ":{p}:meta"));
    assertThatThrownBy(() -> other.commit(step("b", 4, 40)).join())
        .hasCauseInstanceOf(StateUnavailableException.class)
        .hasRootCauseMessage("FENCED the pipeline was dropped");
    store.drop("p").join();
    assertThatThrownBy(() -> owner.commit(step("b", 4, 40)).join())
        .hasCauseInstanceOf(StateUnavailableException.class)
        .hasRootCauseMessage("FENCED another owner has taken this pipeline, or it was dropped");
    assertThat(store.partitionWatermarks("p", 2).join())
        .containsExactly(
            new PartitionWatermark(0, Time.MIN, Time.MIN, OutputProgress.NONE),
            new PartitionWatermark(1, Time.MIN, Time.MIN, OutputProgress.NONE));

    PartitionState next = store.openPartition("p", "M", 1, 2).join();
    assertThat(next.nextOffset()).isZero();
    assertThat(next.shard(0).keys()).isEmpty();
    assertThatThrownBy(() -> store.openPartition("p", "L", 0, 2).join())
        .hasCauseInstanceOf(StaleLineageException.class);
  }

  @Test
  void aWaitingRequestsReceiptsAddUpAndAreReadOnceEveryPartitionCommittedPastItsRecords() {
    PartitionState zero = store.openPartition("p", "L", 0, 2).join();
    PartitionState one = store.openPartition("p", "L", 1, 2).join();
    // The request logged to partition 0 up to offset 11 and to partition 1 up to offset 4.
    Map<Integer, Long> last = Map.of(0, 11L, 1, 4L);
    assertThat(store.receipt("p", "r1", last).join()).isEmpty();

    zero.commit(step("a", 10, 100, new Receipt("r1", new IngestResult(3, 1, 0, 0, 1, 0, 0, 0))))
        .join();
    one.commit(step("b", 5, 100, new Receipt("r1", new IngestResult(2, 0, 1, 0, 0, 0, 0, 1))))
        .join();
    // Partition 0 has not committed past offset 11: its receipt may not be whole yet.
    assertThat(store.receipt("p", "r1", last).join()).isEmpty();

    zero.commit(step("c", 12, 100, new Receipt("r1", new IngestResult(1, 0, 0, 0, 0, 2, 0, 0))))
        .join();
    assertThat(store.receipt("p", "r1", last).join())
        .contains(new IngestResult(6, 1, 1, 0, 1, 2, 0, 1));
    // Another request's receipts are its own.
    assertThat(store.receipt("p", "r2", Map.of(0, 11L)).join()).contains(IngestResult.EMPTY);
  }

  @Test
  void aReceiptListsWhatItsOwnerRefusedBesidePartitionsThatRefusedNothingWithinTheLimit() {
    PartitionState zero = store.openPartition("p", "L", 0, 2).join();
    PartitionState one = store.openPartition("p", "L", 1, 2).join();
    Map<Integer, Long> last = Map.of(0, 10L, 1, 5L);
    zero.commit(step("a", 11, 100, new Receipt("r1", new IngestResult(1, 0, 0, 0, 0, 0, 0, 0))))
        .join();
    one.commit(step("b", 4, 100, new Receipt("r1", refused(expired(3))))).join();
    // A second commit of the request's records appends, up to the limit (two here).
    one.commit(step("c", 6, 100, new Receipt("r1", refused(expired(5), expired(7))))).join();
    IngestResult answer = store.receipt("p", "r1", last).join().orElseThrow();
    assertThat(answer.accepted()).isEqualTo(1);
    assertThat(answer.expired()).isEqualTo(3);
    assertThat(answer.rejections().listed()).containsExactly(expired(3), expired(5));

    // Each partition's list is whole in the sum, whatever the other's length: the request's
    // answer bounds them all together.
    zero.commit(step("d", 12, 100, new Receipt("r2", refused(expired(0), expired(2))))).join();
    one.commit(step("e", 7, 100, new Receipt("r2", refused(expired(1))))).join();
    assertThat(store.receipt("p", "r2", Map.of(0, 11L, 1, 6L)).join().orElseThrow().rejections())
        .extracting(Rejections::listed)
        .isEqualTo(List.of(expired(0), expired(1), expired(2)));
  }

  private static Rejection expired(int index) {
    return new Rejection(
        index, null, DropReason.EXPIRED, "the window is beyond its allowed lateness");
  }

  /** Counts of expired events, listing them within a limit of two. */
  private static IngestResult refused(Rejection... listed) {
    return new IngestResult(
        0, 0, 0, 0, listed.length, 0, 0, 0, 0, 0, Rejections.of(2, List.of(listed)));
  }

  @Test
  void whereKafkaSourcePartitionsStandIsCommittedWithThePartitionAndReadByItsNextOwner() {
    PartitionState first = store.openPartition("p", "L", 0, 1).join();
    assertThat(first.origins()).isEmpty();
    first.commit(progressOnly(7L, Map.of("src:0", 41L, "src:2", 9L))).join();
    first.commit(progressOnly(9L, Map.of("src:0", 44L))).join();
    PartitionState next = store.openPartition("p", "L", 0, 1).join();
    assertThat(next.nextOffset()).isEqualTo(9);
    assertThat(next.origins()).isEqualTo(Map.of("src:0", 44L, "src:2", 9L));
  }

  /**
   * How far each partition is final is committed with it and read by any replica; a commit that
   * moved only that leaves a bare marker in the pane log, which wakes streams elsewhere.
   */
  @Test
  void eachPartitionsProgressIsCommittedWithItAndMarkedInThePaneLog() {
    PartitionState zero = store.openPartition("p", "L", 0, 2).join();
    store.openPartition("p", "L", 1, 2).join();
    zero.commit(
            new Commit(
                List.of(),
                null,
                null,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                new PartitionProgress(3L, 90, 90, null, Map.of()),
                new OutputProgress(80, 90),
                null))
        .join();
    assertThat(store.partitionWatermarks("p", 2).join())
        .containsExactly(
            new PartitionWatermark(0, 90, 90, new OutputProgress(80, 90)),
            new PartitionWatermark(1, Time.MIN, Time.MIN, OutputProgress.NONE));
    assertThat(store.panesAfter("p", LogPage.START, 10).block().entries())
        .singleElement()
        .satisfies(e -> assertThat(e.kind()).isEqualTo(LogEntryKind.PROGRESS));
  }

  /** A commit that only reads up to {@code offset}, moving where Kafka source partitions stand. */
  private static Commit progressOnly(long offset, Map<String, Long> origins) {
    return new Commit(
        List.of(),
        null,
        List.of(),
        List.of(),
        List.of(),
        new PartitionProgress(offset, 0, 0, null, origins));
  }

  /**
   * A commit that writes one key into the partition's one shard (shard 0 of its owner) and reads up
   * to {@code offset}.
   */
  private static Commit step(String key, long offset, long watermark) {
    return step(key, offset, watermark, null);
  }

  private static Commit step(String key, long offset, long watermark, Receipt receipt) {
    return new Commit(
        List.of(
            new ShardChanges(
                0, Map.of(key, new byte[] {1}), List.of(key), List.of(), Map.of(), null)),
        null,
        List.of(),
        List.of(),
        List.of(),
        new PartitionProgress(offset, watermark, watermark, receipt, Map.of()));
  }

  @Test
  void commitsKeepTheKeyOrderAndAPageReadsOnlyItsKeysFromTheCursorsKey() {
    PartitionState owner = store.openPartition("p", "L", 1, 2).join();
    List<String> backwards = new ArrayList<>(KEYS);
    Collections.reverse(backwards);
    owner.commit(keys(1, List.of(), backwards, List.of())).join();
    // A key changed (not added) stays in the order, which it is not written to again; removed
    // keys leave it.
    owner.commit(keys(2, List.of("ab"), List.of(), List.of("b", "\uFFFD"))).join();
    List<String> held = KEYS.stream().filter(k -> !k.equals("b") && !k.equals("\uFFFD")).toList();
    assertThat(order("p", 1)).isEqualTo(held);
    assertThat(sortedByBytes(held)).isEqualTo(held);

    long before = store.keyStatesRead();
    assertThat(page("p", 1, null, 3)).containsExactly("a", "ab", "ab\u0000");
    assertThat(page("p", 1, "abc", 3)).containsExactly("abc", "\u00e9", "\uE000");
    // A cursor's key that has gone: from the next one.
    assertThat(page("p", 1, "b", 2)).containsExactly("\u00e9", "\uE000");
    assertThat(page("p", 1, "\uE000", 10))
        .containsExactly("\uE000", "\uD800\uDC00", "\uD83D\uDE00", "\uD83D\uDE00a");
    assertThat(store.keyStatesRead() - before).isEqualTo(3 + 3 + 2 + 4);
    // With the keys, their states and the partition's watermark.
    ShardSnapshot page = store.readPartitionKeys("p", 1, "ab", 1).join();
    assertThat(page.keys().get("ab")).containsExactly(2);
    assertThat(page.watermark()).isEqualTo(2L);
    // Another partition's are its own.
    assertThat(page("p", 0, null, 10)).isEmpty();
  }

  /**
   * A partition committed without the order, as an earlier version commits it: its pages are read
   * from the whole partition, in the same order, until its next owner builds the order.
   */
  @Test
  void aPartitionWrittenWithoutTheOrderIsReadWholeUntilItsNextOwnerBuildsIt() {
    PartitionState owner = store.openPartition("p", "L", 0, 1).join();
    owner.commit(keys(1, List.of(), KEYS, List.of())).join();
    asAnEarlierVersionLeftIt("p", 0);

    long before = store.keyStatesRead();
    assertThat(page("p", 0, "abc", 3)).containsExactly("abc", "b", "\u00e9");
    assertThat(store.keyStatesRead() - before).isEqualTo(KEYS.size());

    store.openPartition("p", "L", 0, 1).join();
    assertThat(order("p", 0)).isEqualTo(KEYS);
    before = store.keyStatesRead();
    assertThat(page("p", 0, "abc", 3)).containsExactly("abc", "b", "\u00e9");
    assertThat(store.keyStatesRead() - before).isEqualTo(3);
  }

  /**
   * One process owning the whole pipeline (the redis profile) commits without the order: opening
   * takes its mark off, so that readers read such shards whole and the next partition owner builds
   * the order again with the keys written meanwhile.
   */
  @Test
  void aWholePipelineOwnerLeavesTheOrderToBeBuiltAgain() {
    PartitionState partitionOwner = store.openPartition("p", "L", 0, 1).join();
    partitionOwner.commit(keys(1, List.of(), List.of("a", "b"), List.of())).join();
    PipelineState wholeOwner = store.open("p", "L", 1).join();
    wholeOwner.commit(keys(2, List.of(), List.of("c"), List.of("a"))).join();

    long before = store.keyStatesRead();
    assertThat(page("p", 0, null, 10)).containsExactly("b", "c");
    assertThat(store.keyStatesRead() - before).isEqualTo(2);

    store.openPartition("p", "L", 0, 1).join();
    assertThat(order("p", 0)).containsExactly("b", "c");
  }

  /**
   * A commit of shard 0 of its owner, at watermark {@code n}: keys {@code changed} and {@code
   * added} (new to the shard) written with state {@code n}, and keys removed.
   */
  private static Commit keys(
      int n, List<String> changed, List<String> added, List<String> removed) {
    Map<String, byte[]> states = new HashMap<>();
    changed.forEach(k -> states.put(k, new byte[] {(byte) n}));
    added.forEach(k -> states.put(k, new byte[] {(byte) n}));
    return new Commit(
        List.of(new ShardChanges(0, states, added, removed, Map.of(), (long) n)),
        null,
        List.of(),
        List.of(),
        List.of());
  }

  private List<String> page(String pipeline, int partition, String from, int count) {
    return List.copyOf(
        store.readPartitionKeys(pipeline, partition, from, count).join().keys().keySet());
  }

  private List<String> order(String pipeline, int partition) {
    return TestRedis.call(
        redis ->
            redis.zrange(prefix + ":{" + pipeline + "}:shard:" + partition + ":key-order", 0, -1));
  }

  /** What an earlier version leaves: no key order, no mark of it. */
  private void asAnEarlierVersionLeftIt(String pipeline, int partition) {
    String shard = prefix + ":{" + pipeline + "}:shard:" + partition;
    TestRedis.call(
        redis -> redis.del(shard + ":key-order") + redis.hdel(shard + ":meta", "keyOrder"));
  }

  private static List<String> sortedByBytes(List<String> keys) {
    return keys.stream()
        .sorted(
            (x, y) ->
                Arrays.compareUnsigned(
                    x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)))
        .toList();
  }
}
