package io.eventide.runtime;

import java.util.Map;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;

/**
 * A run of records of a partition's ingest log (cluster mode), as its owner applies it.
 *
 * @param readAt when the replica that logged event {@code i} read it: the owner reads it as of then
 * @param nextOffset where the partition resumes once the run is committed
 * @param request the request waiting for the run's counts, whose receipt the commit leaves; or null
 * @param positions where event {@code i} of the run was in its request, for the receipt's
 *     rejections
 * @param origins where the run leaves the Kafka source partitions its events were read from
 * @param requests the traced requests the run's records were logged by
 */
record LoggedRun(
    IntToLongFunction readAt,
    long nextOffset,
    String request,
    IntUnaryOperator positions,
    Map<String, Long> origins,
    RequestSpans requests) {}
