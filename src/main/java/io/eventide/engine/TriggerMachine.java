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

    private TriggerNode node(int index, Trigger t) {
      return t.accept(new NodeAt(index));
    }

    /** The node of one trigger, numbered {@code index}; its children are compiled after it. */
    private final class NodeAt implements Trigger.Visitor<TriggerNode> {
      private final int index;

      NodeAt(int index) {
        this.index = index;
      }

      @Override
      public TriggerNode defaultTrigger(Trigger.Default t) {
        return new DefaultTriggerNode(index);
      }

      @Override
      public TriggerNode never(Trigger.Never t) {
        return new NeverTriggerNode(index);
      }

      @Override
      public TriggerNode afterCount(Trigger.AfterCount t) {
        return new AfterCountTriggerNode(index, slots++, t.count());
      }

      @Override
      public TriggerNode afterProcessingTime(Trigger.AfterProcessingTime t) {
        return new AfterProcessingTimeTriggerNode(index, slots++, t.delayMillis());
      }

      @Override
      public TriggerNode afterWatermark(Trigger.AfterWatermark t) {
        return watermark(index, t);
      }

      @Override
      public TriggerNode repeatedly(Trigger.Repeatedly t) {
        return new RepeatedlyTriggerNode(index, compile(t.trigger()));
      }

      @Override
      public TriggerNode afterEach(Trigger.AfterEach t) {
        return new AfterEachTriggerNode(index, compileAll(t.triggers()));
      }

      @Override
      public TriggerNode afterFirst(Trigger.AfterFirst t) {
        return new AfterFirstTriggerNode(index, compileAll(t.triggers()));
      }

      @Override
      public TriggerNode afterAll(Trigger.AfterAll t) {
        return new AfterAllTriggerNode(index, compileAll(t.triggers()));
      }

      @Override
      public TriggerNode orFinally(Trigger.OrFinally t) {
        return new OrFinallyTriggerNode(index, compile(t.trigger()), compile(t.until()));
      }
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
