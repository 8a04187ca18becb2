package io.eventide.core;

import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * The needs (see {@link LatenessAdvisor}) of one source's events: how many came on time (need 0),
 * and a KLL sketch of the others' needs in milliseconds, created with the first late event. Records
 * merge, so that partitions' owners keep their own and a reader adds them up.
 */
public final class LatenessRecord {
  /**
   * KLL's default k: a rank error of about 1.3 % over the late events (a smaller one over all, as
   * on-time events are counted exactly), and a sketch of a few kilobytes however many came.
   */
  static final int K = KllDoublesSketch.DEFAULT_K;

  long onTime;
  KllDoublesSketch late;

  LatenessRecord() {}

  LatenessRecord(long onTime, KllDoublesSketch late) {
    this.onTime = onTime;
    this.late = late;
  }

  void add(long need) {
    if (need == 0) {
      onTime++;
      return;
    }
    if (late == null) {
      late = KllDoublesSketch.newHeapInstance(K);
    }
    late.update(need);
  }

  /** Adds {@code other}'s events to this record's (it copies what it takes). */
  void merge(LatenessRecord other) {
    onTime += other.onTime;
    if (other.late == null) {
      return;
    }
    if (late == null) {
      late = KllDoublesSketch.newHeapInstance(K);
    }
    late.merge(other.late);
  }

  /** Every event observed. */
  public long events() {
    return onTime + lateEvents();
  }

  public long onTime() {
    return onTime;
  }

  private long lateEvents() {
    return late == null ? 0 : late.getN();
  }

  /**
   * The need that {@code fraction} of the events had at most (ms): the smallest lateness that would
   * have kept that fraction. 0 while the on-time events alone make the fraction; an error of at
   * most {@link #rankError()} in rank otherwise. Only for a record with events.
   */
  public long need(double fraction) {
    long events = events();
    double wanted = Math.ceil(fraction * events);
    if (wanted <= onTime) {
      return 0;
    }
    double rank = Math.min(1.0, (wanted - onTime) / lateEvents());
    return (long) late.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE);
  }

  /** The largest need observed (ms), exactly. */
  public long maxNeed() {
    return late == null ? 0 : (long) late.getMaxItem();
  }

  /** The fraction of the events whose need was at most {@code lateness} (ms): those it keeps. */
  public double kept(long lateness) {
    long late = lateEvents();
    if (late == 0) {
      return 1.0;
    }
    double keptLate = this.late.getRank(lateness, QuantileSearchCriteria.INCLUSIVE) * late;
    return (onTime + keptLate) / events();
  }

  /**
   * The bound on the error of {@link #need} and {@link #kept} as a fraction of all events: the
   * sketch's normalized rank error, scaled down by the share of late events; 0 while the sketch
   * still holds every late event (it has not compacted yet).
   */
  public double rankError() {
    if (late == null || !late.isEstimationMode()) {
      return 0;
    }
    return KllDoublesSketch.getNormalizedRankError(K, false) * late.getN() / events();
  }
}
