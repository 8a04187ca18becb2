package io.eventide.api;

/** A request body beyond what its client may have being read at once; nothing of it was read. */
class TooManyUploadsException extends RuntimeException {
  TooManyUploadsException(int max) {
    super(
        "this client already has "
            + max
            + " request bodies being read (eventide.ingest.max-uploads-per-client); nothing of this"
            + " request was applied, retry once one of them is in");
  }
}
