package io.eventide.api;

/** Every simulation thread is busy and the queue is full; the client may try again shortly. */
class SimulationsBusyException extends RuntimeException {
  SimulationsBusyException() {
    super("every simulation slot is taken; retry shortly", null, false, false);
  }
}
