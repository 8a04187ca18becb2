package io.eventide.engine;

import java.util.List;

/**
 * The trigger grammar, as a tree of immutable specifications. {@link TriggerMachine} turns a tree
 * into the state machine that runs per window.
 */
public sealed interface Trigger
    permits Trigger.Default,
        Trigger.AfterWatermark,
        Trigger.AfterProcessingTime,
        Trigger.AfterCount,
        Trigger.Repeatedly,
        Trigger.AfterEach,
        Trigger.AfterFirst,
        Trigger.AfterAll,
        Trigger.OrFinally,
        Trigger.Never {

  /** Whether this trigger fires at most once and then finishes (Beam's {@code OnceTrigger}). */
  boolean isOnce();

  /** Whether this trigger can finish, closing its window to later elements. */
  boolean mayFinish();

  /** The sub-triggers, in order. */
  default List<Trigger> children() {
    return List.of();
  }

  /** Answers with what {@code visitor} makes of this kind of trigger. */
  <R> R accept(Visitor<R> visitor);

  /**
   * What a caller makes of each kind of trigger. Every kind has its method, so that a new kind does
   * not compile until the engine's compiler and the JSON and Beam writers all handle it, which a
   * chain of {@code instanceof} (Java 17 has no pattern switch) would leave unchecked.
   */
  interface Visitor<R> {
    R defaultTrigger(Default t);

    R afterWatermark(AfterWatermark t);

    R afterProcessingTime(AfterProcessingTime t);

    R afterCount(AfterCount t);

    R repeatedly(Repeatedly t);

    R afterEach(AfterEach t);

    R afterFirst(AfterFirst t);

    R afterAll(AfterAll t);

    R orFinally(OrFinally t);

    R never(Never t);
  }

  /** Fires when the watermark passes the end of the window, and again for every late batch. */
  record Default() implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.defaultTrigger(this);
    }

    @Override
    public boolean isOnce() {
      return false;
    }

    @Override
    public boolean mayFinish() {
      return false;
    }
  }

  /**
   * Fires when the watermark passes the end of the window; {@code early} and {@code late} (each may
   * be null) fire repeatedly before and after that.
   */
  record AfterWatermark(Trigger early, Trigger late) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterWatermark(this);
    }

    @Override
    public boolean isOnce() {
      return early == null && late == null;
    }

    @Override
    public boolean mayFinish() {
      return late == null;
    }

    @Override
    public List<Trigger> children() {
      if (early == null && late == null) {
        return List.of();
      }
      return late == null ? List.of(early) : List.of(early == null ? new Never() : early, late);
    }
  }

  /** Fires once processing time is past the first element of the pane plus {@code delayMillis}. */
  record AfterProcessingTime(long delayMillis) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterProcessingTime(this);
    }

    @Override
    public boolean isOnce() {
      return true;
    }

    @Override
    public boolean mayFinish() {
      return true;
    }
  }

  /** Fires once the pane holds at least {@code count} elements. */
  record AfterCount(long count) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterCount(this);
    }

    @Override
    public boolean isOnce() {
      return true;
    }

    @Override
    public boolean mayFinish() {
      return true;
    }
  }

  /** Fires whenever {@code trigger} fires, resetting it each time; never finishes. */
  record Repeatedly(Trigger trigger) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.repeatedly(this);
    }

    @Override
    public boolean isOnce() {
      return false;
    }

    @Override
    public boolean mayFinish() {
      return false;
    }

    @Override
    public List<Trigger> children() {
      return List.of(trigger);
    }
  }

  /** Runs each sub-trigger until it finishes, in order; finishes with the last. */
  record AfterEach(List<Trigger> triggers) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterEach(this);
    }

    public AfterEach {
      triggers = List.copyOf(triggers);
    }

    @Override
    public boolean isOnce() {
      return false;
    }

    @Override
    public boolean mayFinish() {
      return triggers.stream().allMatch(Trigger::mayFinish);
    }

    @Override
    public List<Trigger> children() {
      return triggers;
    }
  }

  /**
   * Fires and finishes when any sub-trigger fires. The sub-triggers may be any triggers, as Beam's
   * {@code AfterFirst.of(List<Trigger>)} takes them.
   */
  record AfterFirst(List<Trigger> triggers) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterFirst(this);
    }

    public AfterFirst {
      triggers = List.copyOf(triggers);
    }

    /** Whatever its sub-triggers: it finishes at its first firing, and Beam types it so. */
    @Override
    public boolean isOnce() {
      return true;
    }

    @Override
    public boolean mayFinish() {
      return true;
    }

    @Override
    public List<Trigger> children() {
      return triggers;
    }
  }

  /**
   * Fires and finishes when every sub-trigger that has not finished is ready to fire. The
   * sub-triggers may be any triggers, as Beam's {@code AfterAll.of(List<Trigger>)} takes them.
   */
  record AfterAll(List<Trigger> triggers) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.afterAll(this);
    }

    public AfterAll {
      triggers = List.copyOf(triggers);
    }

    /** Whatever its sub-triggers: it finishes at its first firing, and Beam types it so. */
    @Override
    public boolean isOnce() {
      return true;
    }

    @Override
    public boolean mayFinish() {
      return true;
    }

    @Override
    public List<Trigger> children() {
      return triggers;
    }
  }

  /** Fires when {@code trigger} fires; fires and finishes when {@code until} fires. */
  record OrFinally(Trigger trigger, Trigger until) implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.orFinally(this);
    }

    /** Never a single-fire trigger, whatever its parts: Beam's type system says so. */
    @Override
    public boolean isOnce() {
      return false;
    }

    @Override
    public boolean mayFinish() {
      return true;
    }

    @Override
    public List<Trigger> children() {
      return List.of(trigger, until);
    }
  }

  /** Never fires; only the closing pane at garbage collection can come out. */
  record Never() implements Trigger {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.never(this);
    }

    @Override
    public boolean isOnce() {
      return true;
    }

    @Override
    public boolean mayFinish() {
      return false;
    }
  }
}
