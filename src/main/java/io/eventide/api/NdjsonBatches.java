package io.eventide.api;

import io.eventide.core.read.EventTexts;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;

/**
 * Cuts an NDJSON body into batches of its non-blank lines as its bytes arrive. The lines are slices
 * of the arrays the bytes were copied into, read in place: bytes are only ever appended to an array
 * or copied on to a new one, never overwritten, so a batch handed on stays as it was while the next
 * fills. One copy of the bytes, none per line, and no line decoded to a string. Not thread-safe:
 * one per body.
 */
final class NdjsonBatches {
  private final int batchLines;
  private byte[] bytes = new byte[8192];
  private int length;
  private int lineStart;
  private int scanned;
  private EventTexts batch;

  /** The bytes of the batch being filled, blank lines included. */
  private int batchBytes;

  /** The bytes the last full batch took: an array for the next is made to hold as many. */
  private int lastBatchBytes = 8192;

  NdjsonBatches(int batchLines) {
    this.batchLines = batchLines;
    this.batch = new EventTexts(Math.min(batchLines, 1024));
  }

  /** Takes a chunk of the body (without releasing it); returns the batches it completed. */
  List<EventTexts> take(DataBuffer chunk) {
    int n = chunk.readableByteCount();
    reserve(n);
    chunk.read(bytes, length, n);
    length += n;
    return cut();
  }

  /** Takes a chunk of the body; returns the batches it completed. */
  List<EventTexts> take(byte[] chunk) {
    reserve(chunk.length);
    System.arraycopy(chunk, 0, bytes, length, chunk.length);
    length += chunk.length;
    return cut();
  }

  /** At the end of the body: the last batch, with a last line that has no newline; or null. */
  EventTexts finish() {
    line(length);
    return batch.isEmpty() ? null : batch;
  }

  private List<EventTexts> cut() {
    List<EventTexts> full = List.of();
    for (int i = scanned; i < length; i++) {
      if (bytes[i] != '\n') {
        continue;
      }
      line(i);
      batchBytes += i + 1 - lineStart;
      lineStart = i + 1;
      if (batch.size() == batchLines) {
        if (full.isEmpty()) {
          full = new ArrayList<>(2);
        }
        full.add(batch);
        batch = new EventTexts(Math.min(batchLines, 1024));
        lastBatchBytes = batchBytes;
        batchBytes = 0;
      }
    }
    scanned = length;
    return full;
  }

  /** The line from {@code lineStart} to {@code end}, into the batch unless it is blank. */
  private void line(int end) {
    for (int i = lineStart; i < end; i++) {
      if (!blank(bytes[i])) {
        batch.add(bytes, lineStart, end - lineStart);
        return;
      }
    }
  }

  /**
   * What {@link String#isBlank()} skips in a line read as ISO-8859-1, as lines were once read:
   * spaces, tabs, line and file separators.
   */
  private static boolean blank(byte b) {
    return b == ' ' || (b >= 9 && b <= 13) || (b >= 28 && b <= 31);
  }

  /**
   * Room for {@code n} more bytes: when the array is full, the line being read moves to a new one
   * made to hold a batch, and the lines already cut keep pointing into the old one.
   */
  private void reserve(int n) {
    if (length + n <= bytes.length) {
      return;
    }
    int kept = length - lineStart;
    byte[] rest =
        new byte[Math.max(lastBatchBytes + lastBatchBytes / 8, Math.max(kept + n, 2 * kept))];
    System.arraycopy(bytes, lineStart, rest, 0, kept);
    scanned -= lineStart;
    length = kept;
    lineStart = 0;
    bytes = rest;
  }
}
