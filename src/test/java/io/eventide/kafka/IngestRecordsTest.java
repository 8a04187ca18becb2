package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LogRecord;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Reading the ingest log's records (issue 34): a watermark record whose body is not a number of
 * milliseconds, which Eventide never writes, is skipped like any record it did not write. Before,
 * it threw on the partitions' consumer thread, which then died for good.
 */
class IngestRecordsTest {
  @Test
  void aWatermarkThatIsNoNumberIsSkippedAndOneThatIsIsRead() {
    assertThat(IngestRecords.read(watermark("soon"))).isNull();
    assertThat(IngestRecords.read(watermark(""))).isNull();
    LogRecord read = IngestRecords.read(watermark("1767268800000"));
    assertThat(read.kind()).isEqualTo(LogRecord.Kind.WATERMARK);
    assertThat(new String(read.body(), StandardCharsets.UTF_8)).isEqualTo("1767268800000");
  }

  private static ConsumerRecord<byte[], byte[]> watermark(String body) {
    ConsumerRecord<byte[], byte[]> r =
        new ConsumerRecord<>(
            "eventide.p.events", 0, 7L, null, body.getBytes(StandardCharsets.UTF_8));
    r.headers().add(IngestRecords.KIND, "WATERMARK".getBytes(StandardCharsets.UTF_8));
    r.headers().add(IngestRecords.LINEAGE, "lineage".getBytes(StandardCharsets.UTF_8));
    return r;
  }
}
