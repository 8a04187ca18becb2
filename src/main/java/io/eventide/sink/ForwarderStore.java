package io.eventide.sink;

import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Where a pipeline's pane forwarder keeps its lease and its checkpoint, beside the pane log it
 * reads: in Redis for replicas that share it, in the process for the memory store. The lease makes
 * one forwarder per pipeline active at a time; its token fences the checkpoint, so that a holder
 * that lost the lease (paused past it, say) can neither move the checkpoint back nor forward.
 * Dropping a pipeline's state drops both.
 */
public interface ForwarderStore {
  /**
   * Takes the lease for {@code ttl} under {@code token} if nobody holds it; emits whether it did.
   */
  Mono<Boolean> acquire(String pipeline, String token, Duration ttl);

  /**
   * Extends the lease for {@code ttl} if {@code token} still holds it; emits whether it did. A
   * lease that expired, was taken or went with the pipeline's state is not taken back: its holder
   * acquires a new one under a new token, and reads the checkpoint again.
   */
  Mono<Boolean> extend(String pipeline, String token, Duration ttl);

  /** The checkpoint of the pipeline's forwarder; empty when none was written. */
  Mono<Checkpoint> checkpoint(String pipeline);

  /**
   * Writes the checkpoint if {@code token} still holds the lease, in one step with that check.
   * Emits whether it was written.
   */
  Mono<Boolean> saveCheckpoint(String pipeline, String token, Checkpoint checkpoint);

  /** Gives the lease up if {@code token} holds it, so that another replica may take it at once. */
  Mono<Void> release(String pipeline, String token);

  /**
   * How far a forwarder has got in a pipeline's pane log.
   *
   * @param position the last entry whose records the broker acknowledged (or that had none)
   * @param read how many entries of the log that position is from its beginning (as {@link
   *     LogPage#trimmed} counts them): what a forwarder that falls behind retention compares to
   *     tell how many it lost
   */
  record Checkpoint(String position, long read) {}
}
