package io.eventide.core;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pipeline's events needed of {@code allowedLateness} (see {@link LatenessAdvisor}), added
 * up over its owners' stored advisors: one for a pipeline owned whole by one process, one per
 * partition in cluster mode. Sources are merged by name.
 *
 * @param sources by source name, in name order
 * @param others the sources beyond each owner's cap, together; null when there were none
 * @param overall every event
 */
public record LatenessReport(
    Map<String, LatenessRecord> sources, LatenessRecord others, LatenessRecord overall) {

  /** The report of the stored advisors {@code stored} (none: nothing observed yet). */
  public static LatenessReport of(List<String> stored) {
    Map<String, LatenessRecord> sources = new TreeMap<>();
    LatenessRecord others = null;
    LatenessRecord overall = new LatenessRecord();
    for (String s : stored) {
      LatenessRecords.Decoded d = LatenessRecords.decode(s);
      d.sources()
          .forEach(
              (name, r) -> {
                sources.computeIfAbsent(name, n -> new LatenessRecord()).merge(r);
                overall.merge(r);
              });
      if (d.others() != null) {
        if (others == null) {
          others = new LatenessRecord();
        }
        others.merge(d.others());
        overall.merge(d.others());
      }
    }
    return new LatenessReport(sources, others, overall);
  }
}
