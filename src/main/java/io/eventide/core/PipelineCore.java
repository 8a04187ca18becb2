package io.eventide.core;

import io.eventide.core.read.Event;
import io.eventide.core.read.EventReadResult;
import io.eventide.core.read.EventReader;
import io.eventide.core.read.EventTexts;
import io.eventide.core.read.FilteredEvent;
import io.eventide.core.read.InvalidEvent;
import io.eventide.core.read.JsonLimits;
import io.eventide.core.read.UnreadableEvent;
import io.eventide.definition.FutureSkewAction;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WatermarkPolicy;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.engine.DropReason;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

/**
 * The rules of a pipeline above its shards, in one place for {@code /simulate} and the live
 * runtime: reading events, refusing those from the future, routing keys to shards, deriving the
 * input watermark from the sources, and the order of a step: a batch first sees the watermark as it
 * stood when the batch arrived, then the watermark moves on.
 *
 * <p>{@link #read} touches no mutable state, so callers may read batches in parallel; every other
 * method must be called one at a time, in the order the steps are to apply.
 */
public final class PipelineCore {
  private final int shardCount;
  private final boolean durable;

  /** Null when the watermark is {@link WatermarkMode#EXPLICIT}. */
  private final WatermarkTracker tracker;

  private volatile PipelineDefinition definition;
  private volatile EventReader reader;
  private final JsonLimits limits;

  /** Refused events a batch lists at most. */
  private final int maxListed;

  /** The watermark last handed to the shards. */
  private volatile long watermark;

  /** The tracker's state as last committed, so that an unchanged tracker is not rewritten. */
  private String trackerCommitted;

  private final LatenessAdvisor lateness;

  /**
   * In cluster mode, the partition this core is and the pipeline's view of every partition; null
   * when one process owns the whole pipeline.
   */
  private final Partition partition;

  /**
   * A core that is one partition of a pipeline in cluster mode: its sources' watermark is reported
   * to {@code watermarks}, and its input watermark is theirs over all partitions.
   */
  public record Partition(int index, PartitionWatermarks watermarks) {}

  /**
   * @param watermark the watermark the shards have reached (the lowest over shards on a restart)
   * @param restoredTracker the tracker's state as last committed, or null
   * @param durable whether the tracker's changes must be reported for commit
   */
  public PipelineCore(
      PipelineDefinition definition,
      WatermarkMode mode,
      int shardCount,
      long watermark,
      String restoredTracker,
      boolean durable,
      IngestBounds bounds) {
    this(definition, mode, shardCount, watermark, restoredTracker, null, durable, bounds, null);
  }

  /**
   * @param restoredLateness the lateness advisor's state as last committed ({@link #changes}), or
   *     null
   * @param partition the partition this core is in cluster mode (with one shard), else null
   */
  public PipelineCore(
      PipelineDefinition definition,
      WatermarkMode mode,
      int shardCount,
      long watermark,
      String restoredTracker,
      String restoredLateness,
      boolean durable,
      IngestBounds bounds,
      Partition partition) {
    this.partition = partition;
    this.shardCount = shardCount;
    this.durable = durable;
    this.watermark = watermark;
    this.definition = definition;
    this.limits = bounds.json();
    this.maxListed = bounds.maxRejectedListed();
    this.reader = EventReader.of(definition, definition.newAggregate(), limits);
    WatermarkPolicy policy = definition.watermark();
    this.tracker =
        mode == WatermarkMode.EXPLICIT
            ? null
            : new WatermarkTracker(
                policy.maxOutOfOrderness().toMillis(),
                policy.idleTimeout().toMillis(),
                policy.idleAdvance(),
                bounds);
    if (tracker != null && restoredTracker != null) {
      tracker.restore(restoredTracker);
      trackerCommitted = restoredTracker;
    }
    this.lateness =
        new LatenessAdvisor(
            definition.windowingStrategy().windowFn(),
            bounds.latenessSources(),
            bounds.latenessWriteInterval(),
            restoredLateness);
  }

  public PipelineDefinition definition() {
    return definition;
  }

  /**
   * Takes a definition that computes the same: new event pointers and watermark settings apply to
   * the next batch; windows and watermarks are kept.
   */
  public void redefine(PipelineDefinition next) {
    definition = next;
    reader = EventReader.of(next, next.newAggregate(), limits);
    if (tracker != null) {
      WatermarkPolicy policy = next.watermark();
      tracker.reconfigure(
          policy.maxOutOfOrderness().toMillis(),
          policy.idleTimeout().toMillis(),
          policy.idleAdvance());
    }
    if (partition != null) {
      partition.watermarks().reconfigure(next.watermark().idleTimeout().toMillis());
    }
  }

  /**
   * A batch read and sorted: each shard's part, and the events refused before any shard. Applying
   * it may refuse more (a source beyond the cap), so read its refusals and counts after {@link
   * #apply}.
   */
  public static final class ReadBatch {
    private final List<List<IncomingEvent>> parts;
    private final List<DeadLetter> rejected;
    private final List<Refusal> refusals;
    private final int filtered;
    private final int future;
    private final int clamped;
    private final int unreadable;
    private final int maxListed;
    private int invalid;

    /** Events refused when applied (a source beyond the cap); null until there is one. */
    private List<Rejection> refusedOnApply;

    ReadBatch(
        List<List<IncomingEvent>> parts,
        List<DeadLetter> rejected,
        List<Refusal> refusals,
        int filtered,
        int future,
        int clamped,
        int invalid,
        int maxListed) {
      this.parts = parts;
      this.rejected = rejected;
      this.refusals = refusals;
      this.filtered = filtered;
      this.future = future;
      this.clamped = clamped;
      this.invalid = invalid;
      this.unreadable = invalid;
      this.maxListed = maxListed;
    }

    /** The events read for shard {@code shard}, in the order they came. */
    public List<IncomingEvent> part(int shard) {
      return parts.get(shard);
    }

    /** The events refused before any shard; a caller may add its own (unreadable lines). */
    public List<DeadLetter> rejected() {
      return rejected;
    }

    /** Which texts reading refused, in the order of their letters in {@link #rejected()}. */
    public List<Refusal> refusals() {
      return refusals;
    }

    /** The batch's counts, given the outcome of its parts. */
    public IngestResult result(IngestResult shards) {
      return shards.plus(
          new IngestResult(
              0,
              0,
              0,
              filtered,
              0,
              0,
              future,
              invalid,
              0,
              clamped,
              readRejections().plus(appliedRejections())));
    }

    /**
     * How many events reading found invalid: what {@code ?strict=true} refuses a batch for. Events
     * from the future are readable; the source cap is met only when applying.
     */
    public int unreadable() {
      return unreadable;
    }

    /** The events reading found invalid, by position, as many as a batch lists. */
    public Rejections unreadableRejections() {
      return listed(DropReason.INVALID);
    }

    /**
     * What applying refused before any shard saw it, by position: known only where the batch is
     * applied (in cluster mode, at the partition's owner).
     */
    public Rejections appliedRejections() {
      return refusedOnApply == null ? Rejections.NONE : Rejections.of(maxListed, refusedOnApply);
    }

    /** What reading refused, by position: known wherever the batch is read. */
    public Rejections readRejections() {
      return listed(null);
    }

    /** The refusals of reading for {@code reason}, or all of them when it is null. */
    private Rejections listed(DropReason reason) {
      if (refusals.isEmpty()) {
        return Rejections.NONE;
      }
      List<Rejection> listed = new ArrayList<>();
      for (int i = 0; i < refusals.size(); i++) {
        DeadLetter letter = rejected.get(i);
        if (reason == null || letter.reason() == reason) {
          listed.add(Rejection.of(refusals.get(i).text(), letter));
        }
      }
      return Rejections.of(maxListed, listed);
    }

    private void refuse(int index, DeadLetter letter) {
      rejected.add(letter);
      invalid++;
      if (refusedOnApply == null) {
        refusedOnApply = new ArrayList<>();
      }
      refusedOnApply.add(Rejection.of(index, letter));
    }
  }

  /**
   * A text of the batch that reading refused.
   *
   * @param text its index in the batch
   * @param unreadable whether it is not JSON at all (else it is JSON, but not an event)
   */
  public record Refusal(int text, boolean unreadable) {}

  /**
   * Reads a batch at wall-clock time {@code now}. Safe to call from several threads at once.
   *
   * @param defaultSource the watermark source of event {@code i} when the event names none (the
   *     partitions of a Kafka poll); may return null for the default source
   */
  public ReadBatch read(EventTexts events, IntFunction<String> defaultSource, long now) {
    return read(events, defaultSource, i -> now);
  }

  /**
   * Like {@link #read(EventTexts, IntFunction, long)}, each event as of its own wall-clock time: in
   * cluster mode a partition's owner reads each logged event as of when the replica that logged it
   * read it, so that both come to the same verdict whatever their clocks say.
   */
  public ReadBatch read(
      EventTexts events, IntFunction<String> defaultSource, IntToLongFunction readAt) {
    PipelineDefinition d = definition;
    EventReader r = reader;
    long skew = tracker == null ? -1 : d.watermark().maxFutureSkew().toMillis();
    boolean clamp = d.watermark().onFutureSkew() == FutureSkewAction.CLAMP;
    List<List<IncomingEvent>> parts = new ArrayList<>(shardCount);
    int expected = events.size() / shardCount + 16;
    for (int i = 0; i < shardCount; i++) {
      parts.add(new ArrayList<>(expected));
    }
    List<DeadLetter> rejected = new ArrayList<>();
    List<Refusal> refusals = new ArrayList<>();
    // Texts that are not JSON are reported after the events refused, as they always were.
    List<DeadLetter> unreadable = List.of();
    List<Refusal> unreadableRefusals = List.of();
    int invalid = 0;
    int filtered = 0;
    int future = 0;
    int clamped = 0;
    try (EventReader.Reading reading = r.reading(events)) {
      for (int index = 0; index < events.size(); index++) {
        long now = readAt.applyAsLong(index);
        EventReadResult read = reading.read(index);
        if (read == FilteredEvent.INSTANCE) {
          filtered++;
        } else if (read == UnreadableEvent.INSTANCE) {
          invalid++;
          if (unreadable.isEmpty()) {
            unreadable = new ArrayList<>();
            unreadableRefusals = new ArrayList<>();
          }
          unreadable.add(
              DeadLetter.unreadable(
                  d.name(), events.string(index), r.whyUnreadable(events, index), now));
          unreadableRefusals.add(new Refusal(index, true));
        } else if (read instanceof InvalidEvent bad) {
          invalid++;
          rejected.add(
              DeadLetter.invalid(d.name(), events.tree(index), bad.path(), bad.reason(), now));
          refusals.add(new Refusal(index, false));
        } else if (read instanceof Event sent) {
          Event e = sent;
          if (clamp && skew >= 0 && e.timestamp() > now + skew) {
            // Stamped as it arrived, it moves no watermark past the wall clock.
            clamped++;
            e = e.stampedAt(now);
          }
          if (skew >= 0 && e.timestamp() > now + skew) {
            future++;
            rejected.add(
                DeadLetter.future(
                    d.name(),
                    events.tree(index),
                    e.timestampPath(),
                    d.watermark().maxFutureSkew(),
                    now));
            refusals.add(new Refusal(index, false));
          } else {
            String source = e.source() != null ? e.source() : defaultSource.apply(index);
            parts.get(shardOf(e.key())).add(new IncomingEvent(e, events, index, source));
          }
        }
      }
    }
    rejected.addAll(unreadable);
    refusals.addAll(unreadableRefusals);
    return new ReadBatch(parts, rejected, refusals, filtered, future, clamped, invalid, maxListed);
  }

  /** Dead letters for lines of a body, or records, that are not JSON at all. */
  public List<DeadLetter> unreadable(List<String> lines, long now) {
    List<DeadLetter> letters = new ArrayList<>(lines.size());
    EventReader r = reader;
    for (String line : lines) {
      letters.add(DeadLetter.unreadable(definition.name(), line, r.whyUnreadable(line), now));
    }
    return letters;
  }

  /**
   * Applies a batch read at {@code now}: each shard takes its part, the sources take the events'
   * times, and then, if that moved the watermark, every shard advances.
   *
   * @return the shards' steps, in the order they must be committed
   */
  public <S> List<S> apply(ReadBatch batch, long now, ShardOps<S> shards) {
    List<S> steps = new ArrayList<>(shardCount * 2);
    for (int i = 0; i < shardCount; i++) {
      List<IncomingEvent> part = observed(batch.parts.get(i), batch, now);
      if (part.isEmpty()) {
        continue;
      }
      steps.add(shards.apply(i, part));
    }
    advanceIfMoved(now, shards, steps);
    return steps;
  }

  /**
   * The sources take the part's event times; an event whose source would be one more than the cap
   * is refused before its shard sees it, so that no applied event goes untracked. The shards do not
   * read the tracker, so observing before they apply changes nothing. The lateness advisor takes
   * every event the shards are given, against the watermark they will apply it under.
   */
  private List<IncomingEvent> observed(List<IncomingEvent> part, ReadBatch batch, long now) {
    long applied = watermark;
    List<IncomingEvent> kept = null;
    for (int j = 0; j < part.size(); j++) {
      IncomingEvent in = part.get(j);
      long timestamp = in.event().timestamp();
      if (tracker != null && !tracker.observe(in.source(), timestamp, now)) {
        if (kept == null) {
          kept = new ArrayList<>(part.subList(0, j));
        }
        batch.refuse(
            in.index(),
            DeadLetter.invalid(
                definition.name(),
                in.raw(),
                definition.event().source(),
                tooManySources(in.source()),
                now));
        continue;
      }
      lateness.observe(in.source(), timestamp, applied);
      if (kept != null) {
        kept.add(in);
      }
    }
    return kept == null ? part : kept;
  }

  private String tooManySources(String source) {
    return "the pipeline tracks "
        + tracker.maxSources()
        + " sources already (eventide.ingest.max-sources); source \""
        + (source == null ? WatermarkTracker.DEFAULT_SOURCE : source)
        + "\" would be one more";
  }

  /** The result of an explicit watermark: whether it was taken, and the shards' steps. */
  public record Posted<S>(boolean accepted, List<S> steps) {}

  /**
   * Applies an explicit watermark for a source, or for every source when {@code source} is null.
   * One that would go backwards is ignored and reported so.
   */
  public <S> Posted<S> postWatermark(String source, long value, long now, ShardOps<S> shards) {
    List<S> steps = new ArrayList<>(shardCount);
    if (tracker == null) {
      boolean forward = value >= watermark;
      advance(value, shards, steps);
      return new Posted<>(forward, steps);
    }
    if (!tracker.admits(source)) {
      throw new InvalidInputException(List.of(new Violation("/source", tooManySources(source))));
    }
    boolean accepted = tracker.post(source, value, now);
    advanceIfMoved(now, shards, steps);
    return new Posted<>(accepted, steps);
  }

  /**
   * A beat of processing time: long-silent sources are forgotten, idle sources may move the
   * watermark, then timers fire.
   */
  public <S> List<S> beat(long now, ShardOps<S> shards) {
    List<S> steps = new ArrayList<>(shardCount * 2);
    if (tracker != null) {
      tracker.expire(now);
    }
    advanceIfMoved(now, shards, steps);
    for (int i = 0; i < shardCount; i++) {
      steps.add(shards.fireProcessingTimers(i));
    }
    return steps;
  }

  /** The input watermark last handed to the shards. */
  public long watermark() {
    return watermark;
  }

  /** The sources' watermarks as of {@code now}; none when the watermark is explicit. */
  public List<WatermarkTracker.SourceView> sources(long now) {
    return tracker == null ? List.of() : tracker.sources(now);
  }

  /**
   * What the core itself has to commit as of {@code now}: the tracker's state when durable and
   * changed since the last call, the lateness advisor's when changed and due (with every store: the
   * route reads it from there); each null otherwise.
   */
  public CoreChanges changes(long now) {
    String t = trackerChange();
    String l = lateness.change(now);
    return t == null && l == null ? CoreChanges.NONE : new CoreChanges(t, l);
  }

  /** The tracker's state when durable and changed since the last call, else null. */
  private String trackerChange() {
    if (!durable || tracker == null) {
      return null;
    }
    String now = tracker.snapshot();
    if (now.equals(trackerCommitted)) {
      return null;
    }
    trackerCommitted = now;
    return now;
  }

  /** The shard that owns {@code key}. */
  public int shardOf(String key) {
    // Spread String hash codes, whose low bits are weak for similar keys.
    int h = key.hashCode() * 0x9E3779B9;
    return Math.floorMod(h ^ (h >>> 16), shardCount);
  }

  private <S> void advanceIfMoved(long now, ShardOps<S> shards, List<S> steps) {
    if (tracker == null) {
      return;
    }
    long own = tracker.current(now);
    if (partition == null) {
      advance(own, shards, steps);
      return;
    }
    partition.watermarks().observe(partition.index(), own, tracker.lastHeard());
    advance(partition.watermarks().inputWatermark(now), shards, steps);
  }

  /**
   * What this partition's own sources say, for the other partitions' owners (cluster mode): their
   * watermark at {@code now} and when one was last heard from.
   */
  public PartitionWatermarks.OwnSources ownSources(long now) {
    return new PartitionWatermarks.OwnSources(tracker.current(now), tracker.lastHeard());
  }

  private <S> void advance(long candidate, ShardOps<S> shards, List<S> steps) {
    if (candidate <= watermark) {
      return;
    }
    watermark = candidate;
    for (int i = 0; i < shardCount; i++) {
      steps.add(shards.advanceWatermark(i, watermark));
    }
  }
}
