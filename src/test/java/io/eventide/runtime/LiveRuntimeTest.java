package io.eventide.runtime;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The whole service on a random port, with settings that make the live runtime observable in a
 * test: a fast clock beat, short heartbeats, small NDJSON batches, small SSE buffers, a small body
 * limit, few pipelines per stream and the lateness advisor written with every commit (so that
 * {@code /lateness} answers what a request's 202 applied). Every class that carries it shares one
 * application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.runtime.tick=20ms",
      "eventide.runtime.shards=4",
      "eventide.ingest.ndjson-batch-events=" + LiveRuntimeTest.NDJSON_BATCH,
      "eventide.ingest.max-body-size=" + LiveRuntimeTest.MAX_BODY_BYTES + "B",
      "eventide.outputs.sse-heartbeat=250ms",
      "eventide.outputs.sse-poll=200ms",
      "eventide.ingest.max-pipelines-per-stream=" + LiveRuntimeTest.MAX_STREAM_READERS,
      "eventide.ingest.lateness-write-interval=0s"
    })
public @interface LiveRuntimeTest {
  int NDJSON_BATCH = 10;
  int MAX_BODY_BYTES = 1024 * 1024;
  int MAX_STREAM_READERS = 3;
}
