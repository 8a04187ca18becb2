/**
 * Operations: Micrometer metrics per pipeline, the readiness check of watermark stalls, and the
 * part of graceful shutdown that live streams need. Nothing here changes what the runtime computes.
 */
package io.eventide.ops;
