package io.eventide.state;

/**
 * A pipeline's state belongs to another lineage of its definition than the runtime asking for it:
 * the pipeline was deleted or reset since the runtime read its definition, or the state is left
 * over from an earlier pipeline of the same name.
 */
public final class StaleLineageException extends RuntimeException {
  public StaleLineageException(String pipeline) {
    super("the state of pipeline '" + pipeline + "' belongs to another definition of it");
  }
}
