package io.eventide.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * A trigger tree compiled into shared nodes, numbered in pre-order so that one {@code long} of
 * finished bits and one small {@code long[]} of slots hold a window's whole trigger state.
 */
final class TriggerMachine {
  /** Finished bits live in one long. */
  static final int MAX_NODES = 64;

  final TriggerNode root;
  final int slotCount;
  private final List<TriggerNode> nodes;

  private TriggerMachine(TriggerNode root, List<TriggerNode> nodes, int slotCount) {
    this.root = root;
    this.nodes = nodes;
    this.slotCount = slotCount;
  }

  static TriggerMachine compile(Trigger trigger) {
    Compiler c = new Compiler();
    TriggerNode root = c.compile(trigger);
    return new TriggerMachine(root, List.copyOf(c.nodes), c.slots);
  }

  /** Fresh slots for a new window: counters at zero, target times unset. */
  long[] newSlots() {
    if (slotCount == 0) {
      return null;
    }
    long[] slots = new long[slotCount];
    for (TriggerNode n : nodes) {
      if (n instanceof AfterProcessingTimeTriggerNode) {
        slots[n.slot] = TriggerNode.NO_TIME;
      }
    }
    return slots;
  }

  boolean isClosed(WindowState w) {
    return (w.finished & root.bit) != 0;
  }

  private static final class Compiler {
    final List<TriggerNode> nodes = new ArrayList<>();
    int slots;

    TriggerNode compile(Trigger t) {
      int index = nodes.size();
      if (index >= MAX_NODES) {
        throw new IllegalArgumentException("trigger has more than " + MAX_NODES + " nodes");
      }
      nodes.add(null);
      TriggerNode node = node(index, t);
      nodes.set(index, node);
      return node;
    }

    // Java 17 has no pattern matching for switch, hence the chain.
    private TriggerNode node(int index, Trigger t) {
      if (t instanceof Trigger.Default) {
        return new DefaultTriggerNode(index);
      } else if (t instanceof Trigger.Never) {
        return new NeverTriggerNode(index);
      } else if (t instanceof Trigger.AfterCount a) {
        return new AfterCountTriggerNode(index, slots++, a.count());
      } else if (t instanceof Trigger.AfterProcessingTime p) {
        return new AfterProcessingTimeTriggerNode(index, slots++, p.delayMillis());
      } else if (t instanceof Trigger.AfterWatermark w) {
        return watermark(index, w);
      } else if (t instanceof Trigger.Repeatedly r) {
        return new RepeatedlyTriggerNode(index, compile(r.trigger()));
      } else if (t instanceof Trigger.AfterEach e) {
        return new AfterEachTriggerNode(index, compileAll(e.triggers()));
      } else if (t instanceof Trigger.AfterFirst f) {
        return new AfterFirstTriggerNode(index, compileAll(f.triggers()));
      } else if (t instanceof Trigger.AfterAll a) {
        return new AfterAllTriggerNode(index, compileAll(a.triggers()));
      } else if (t instanceof Trigger.OrFinally o) {
        return new OrFinallyTriggerNode(index, compile(o.trigger()), compile(o.until()));
      }
      throw new IllegalArgumentException("unknown trigger " + t);
    }

    private TriggerNode watermark(int index, Trigger.AfterWatermark w) {
      if (w.early() == null && w.late() == null) {
        return new AfterWatermarkTriggerNode(index);
      }
      // Without early firings the early phase is a trigger that never fires, as in Beam.
      TriggerNode early = compile(w.early() == null ? new Trigger.Never() : w.early());
      TriggerNode late = w.late() == null ? null : compile(w.late());
      return new AfterWatermarkWithFiringsTriggerNode(index, early, late);
    }

    private TriggerNode[] compileAll(List<Trigger> ts) {
      TriggerNode[] out = new TriggerNode[ts.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = compile(ts.get(i));
      }
      return out;
    }
  }
}
