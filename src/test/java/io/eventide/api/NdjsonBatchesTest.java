package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.read.EventTexts;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

class NdjsonBatchesTest {
  private static final String[] BLANKS = {"", " ", "\t", "\r", " \u000b\f\r", "\u001c\u001f"};

  /**
   * However a body arrives in chunks, its batches are its non-blank lines in order, each batch as
   * many lines as asked but the last, each line's bytes exactly as sent.
   */
  @Test
  void cutsTheSameBatchesWhateverTheChunks() {
    Random random = new Random(18);
    for (int round = 0; round < 2_000; round++) {
      List<String> lines = new ArrayList<>();
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      int count = random.nextInt(60);
      for (int i = 0; i < count; i++) {
        String line =
            random.nextInt(4) == 0
                ? BLANKS[random.nextInt(BLANKS.length)]
                : "{\"k\":\""
                    + "é\u00a0x".repeat(random.nextInt(300))
                    + i
                    + "\"}"
                    + (random.nextBoolean() ? "\r" : "");
        if (!line.isBlank()) {
          lines.add(line);
        }
        body.writeBytes(line.getBytes(StandardCharsets.UTF_8));
        if (i < count - 1 || random.nextBoolean()) {
          body.write('\n');
        }
      }
      int batchLines = 1 + random.nextInt(7);
      List<String> expected = batches(lines, batchLines);
      assertThat(cut(body.toByteArray(), batchLines, random)).isEqualTo(expected);
    }
  }

  @Test
  void aLastLineWithoutNewlineIsALine() {
    NdjsonBatches cut = new NdjsonBatches(10);
    assertThat(cut.take("{}\n{\"a\":1}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(lines(cut.finish())).containsExactly("{}", "{\"a\":1}");
  }

  @Test
  void aBodyOfBlankLinesHasNoBatch() {
    NdjsonBatches cut = new NdjsonBatches(10);
    assertThat(cut.take("\n \n\t\r\n".getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(cut.finish()).isNull();
  }

  private static List<String> cut(byte[] body, int batchLines, Random random) {
    NdjsonBatches cut = new NdjsonBatches(batchLines);
    DefaultDataBufferFactory buffers = DefaultDataBufferFactory.sharedInstance;
    List<String> batches = new ArrayList<>();
    for (int at = 0; at < body.length; ) {
      int n = Math.min(body.length - at, 1 + random.nextInt(random.nextBoolean() ? 8 : 3000));
      byte[] chunk = java.util.Arrays.copyOfRange(body, at, at + n);
      cut.take(buffers.wrap(chunk)).forEach(b -> batches.add(String.join("\n", lines(b))));
      at += n;
    }
    EventTexts last = cut.finish();
    if (last != null) {
      batches.add(String.join("\n", lines(last)));
    }
    return batches;
  }

  private static List<String> batches(List<String> lines, int batchLines) {
    List<String> batches = new ArrayList<>();
    for (int from = 0; from < lines.size(); from += batchLines) {
      batches.add(
          String.join("\n", lines.subList(from, Math.min(lines.size(), from + batchLines))));
    }
    return batches;
  }

  private static List<String> lines(EventTexts batch) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      lines.add(batch.string(i));
    }
    return lines;
  }
}
