package io.eventide.definition;

import java.util.UUID;

/**
 * Which stored definition of a pipeline this is. {@code lineage} names the pipeline's state from
 * its creation or last reset on: the state store records it, so that a runtime left over from a
 * deleted or reset pipeline cannot open, and bring back, the state of a later one of the same name.
 * {@code version} counts the definitions stored within a lineage, so that concurrent redefinitions
 * apply one after another and a runtime never goes back to an older one.
 */
public record Revision(String lineage, long version) {
  /** What a definition carries until it is stored, and what one stored before revisions reads. */
  public static final Revision UNSTORED = new Revision("", 0);

  /** The revision of a definition stored in place of this one; a new lineage drops the state. */
  public Revision next(boolean newLineage) {
    return new Revision(newLineage ? UUID.randomUUID().toString() : lineage, version + 1);
  }

  /** Whether this definition is a later one than {@code other} of the same state. */
  public boolean supersedes(Revision other) {
    return lineage.equals(other.lineage) && version > other.version;
  }

  /** The revision in one string, as stored beside the definition. */
  public String tag() {
    return lineage + "." + version;
  }

  public static Revision ofTag(String tag) {
    int dot = tag.lastIndexOf('.');
    return new Revision(tag.substring(0, dot), Long.parseLong(tag.substring(dot + 1)));
  }
}
