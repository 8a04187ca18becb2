package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.IngestLog;
import io.eventide.runtime.LogRecord;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * Writing and reading the ingest log's records. A watermark record whose body is not a number of
 * milliseconds, which Eventide never writes, is skipped like any record it did not write (issue 34:
 * before, it threw on the partitions' consumer thread, which then died for good).
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

  /**
   * The partitions an append wrote to travel on its first record in each partition
   * (docs/scaling.md#watermarks-across-partitions), and only there.
   */
  @Test
  void thePartitionsAnAppendWroteToTravelWithItsFirstRecord() {
    LogRecord event =
        new LogRecord(
            LogRecord.Kind.EVENT,
            "lineage",
            1_000,
            null,
            "{\"key\": \"k\"}".getBytes(StandardCharsets.UTF_8),
            null);
    BitSet written = new BitSet();
    written.set(0);
    written.set(9);
    written.set(130);
    assertThat(roundTrip(event.withAppendedTo(written)).appendedTo()).isEqualTo(written);
    assertThat(roundTrip(event).appendedTo()).isNull();
  }

  private static LogRecord roundTrip(LogRecord record) {
    ProducerRecord<byte[], byte[]> sent =
        IngestRecords.of("eventide.p.events", new IngestLog.Entry(9, "k", record));
    ConsumerRecord<byte[], byte[]> received =
        new ConsumerRecord<>(
            sent.topic(),
            sent.partition(),
            0L,
            sent.timestamp(),
            TimestampType.CREATE_TIME,
            -1,
            -1,
            sent.key(),
            sent.value(),
            sent.headers(),
            Optional.empty());
    return IngestRecords.read(received);
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
