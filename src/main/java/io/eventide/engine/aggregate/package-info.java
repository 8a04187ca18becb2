/**
 * Combine functions for window contents: exact aggregates (count, sum, min, max, mean, collect,
 * latest, ohlc) and sketches (distinctCount, quantiles). Built with {@link
 * io.eventide.engine.aggregate.Aggregates#create}; pure Java plus Apache DataSketches.
 */
package io.eventide.engine.aggregate;
