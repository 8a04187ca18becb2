package io.eventide.api;

/** An ingestion request beyond the cap on those in flight; nothing of it was applied. */
class IngestionBusyException extends RuntimeException {
  IngestionBusyException(int max) {
    super(max + " ingestion requests are in flight (eventide.ingest.max-in-flight); retry later");
  }
}
