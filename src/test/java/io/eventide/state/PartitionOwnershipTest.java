package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.core.IngestResult;
import io.eventide.core.Rejection;
import io.eventide.core.Rejections;
import io.eventide.core.ShardChanges;
import io.eventide.engine.DropReason;
import io.eventide.engine.Time;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.state.redis.RedisStateStore;
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
 * back for all partitions at once.
 */
class PartitionOwnershipTest {
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
            new PartitionWatermark(0, 200, 200, Time.MIN),
            new PartitionWatermark(1, 50, 50, Time.MIN));
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
            new PartitionWatermark(0, Time.MIN, Time.MIN, Time.MIN),
            new PartitionWatermark(1, Time.MIN, Time.MIN, Time.MIN));

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
                90L,
                null))
        .join();
    assertThat(store.partitionWatermarks("p", 2).join())
        .containsExactly(
            new PartitionWatermark(0, 90, 90, 90),
            new PartitionWatermark(1, Time.MIN, Time.MIN, Time.MIN));
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
        List.of(new ShardChanges(0, Map.of(key, new byte[] {1}), List.of(), Map.of(), null)),
        null,
        List.of(),
        List.of(),
        List.of(),
        new PartitionProgress(offset, watermark, watermark, receipt, Map.of()));
  }
}
