package io.eventide.definition.beam;

/**
 * A parameter of a form or method.
 *
 * @param takes what it takes, in words, for error messages
 */
record Param(String name, String takes, Arity arity) {
  enum Arity {
    REQUIRED,
    OPTIONAL,
    /** Every remaining positional argument (Java and Python varargs). */
    REST,
    /** One Go slice literal whose items are the values. */
    SLICE
  }

  static Param required(String name, String takes) {
    return new Param(name, takes, Arity.REQUIRED);
  }

  static Param optional(String name, String takes) {
    return new Param(name, takes + " (optional)", Arity.OPTIONAL);
  }

  static Param rest(String name, String takes) {
    return new Param(name, takes, Arity.REST);
  }

  static Param slice(String name, String takes) {
    return new Param(name, takes, Arity.SLICE);
  }
}
