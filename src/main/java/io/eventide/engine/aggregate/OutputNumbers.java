package io.eventide.engine.aggregate;

/** Renders accumulated doubles as output numbers, so that a sum of integers reads 45, not 45.0. */
final class OutputNumbers {

  /**
   * Beyond 2^53 not every integer is a double, so an integral double no longer means an integer.
   */
  private static final double EXACT_INTEGER_LIMIT = 0x1p53;

  private OutputNumbers() {}

  /** A {@link Long} for an integral value below 2^53 in magnitude, otherwise a {@link Double}. */
  static Number of(double x) {
    if (Math.abs(x) < EXACT_INTEGER_LIMIT && x == Math.rint(x)) {
      return (long) x;
    }
    return x;
  }
}
