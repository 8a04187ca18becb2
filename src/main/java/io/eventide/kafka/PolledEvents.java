package io.eventide.kafka;

import io.eventide.core.IngestResult;
import io.eventide.core.read.EventTexts;
import io.eventide.runtime.PipelineInput;
import io.eventide.runtime.SourceOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One poll of an event topic as one batch: each record's value as it came (read by the pipeline's
 * reader, which dead-letters one that is not JSON as invalid), or the CloudEvent the record carries
 * ({@link CloudEventRecords}), the watermark source of each value's partition (a CloudEvent's own
 * source goes first), and the records without a value; for each, where it was read from.
 */
record PolledEvents(
    EventTexts events,
    List<String> sources,
    List<SourceOffset> eventOffsets,
    List<String> unreadable,
    List<SourceOffset> unreadableOffsets) {
  static PolledEvents of(List<ConsumerRecord<String, byte[]>> records) {
    EventTexts events = new EventTexts(records.size());
    List<String> sources = new ArrayList<>(records.size());
    List<SourceOffset> eventOffsets = new ArrayList<>(records.size());
    List<String> unreadable = new ArrayList<>();
    List<SourceOffset> unreadableOffsets = new ArrayList<>();
    // A poll holds each partition's records together: its names are made once per run of them.
    String topic = null;
    int partition = -1;
    String source = null;
    String origin = null;
    for (ConsumerRecord<String, byte[]> record : records) {
      if (record.partition() != partition || !record.topic().equals(topic)) {
        topic = record.topic();
        partition = record.partition();
        source = sourceName(topic, partition);
        origin = topic + ":" + partition;
      }
      SourceOffset offset = new SourceOffset(origin, record.offset());
      Header[] headers = record.headers().toArray();
      CloudEventRecords.Mode mode =
          headers.length == 0 ? CloudEventRecords.Mode.PLAIN : CloudEventRecords.mode(headers);
      if (record.value() == null && mode != CloudEventRecords.Mode.BINARY) {
        unreadable.add("");
        unreadableOffsets.add(offset);
        continue;
      }
      switch (mode) {
        case PLAIN -> events.add(record.value());
        case STRUCTURED -> events.addCloudEvent(record.value());
        // A binary-mode record without a value is an event without data, refused as such.
        case BINARY -> events.addCloudEvent(CloudEventRecords.structured(headers, record.value()));
      }
      sources.add(source);
      eventOffsets.add(offset);
    }
    return new PolledEvents(events, sources, eventOffsets, unreadable, unreadableOffsets);
  }

  /** Hands the poll to a pipeline as one batch. */
  CompletableFuture<IngestResult> ingestInto(PipelineInput input) {
    return input.ingestPolled(
        events, unreadable, sources::get, eventOffsets::get, unreadableOffsets::get);
  }

  /** The watermark source of events read from a partition, when they name none themselves. */
  static String sourceName(String topic, int partition) {
    return "kafka:" + topic + ":" + partition;
  }
}
