package io.eventide.api;

import io.eventide.definition.json.JsonSyntaxError;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import tools.jackson.core.JacksonException;

/**
 * A request body that is not JSON; the problem says what is wrong and where, in Eventide's words
 * ({@link JsonSyntaxError}), never in the parser's.
 */
class MalformedJsonException extends ErrorResponseException {
  MalformedJsonException(JacksonException cause) {
    super(HttpStatus.BAD_REQUEST, problem(JsonSyntaxError.of(cause)), cause);
  }

  /** A body that parses but is not the JSON expected, e.g. a number where events belong. */
  MalformedJsonException(String detail) {
    super(HttpStatus.BAD_REQUEST, problem(detail), null);
  }

  private static ProblemDetail problem(String detail) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
    problem.setTitle("Malformed JSON");
    return problem;
  }

  private static ProblemDetail problem(JsonSyntaxError error) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, error.describe());
    // A body past a read constraint may be well-formed; say which limit it broke.
    problem.setTitle(error.overLimit() ? "JSON exceeds a limit" : "Malformed JSON");
    if (error.line() > 0) {
      problem.setProperty("line", error.line());
      problem.setProperty("column", error.column());
    }
    return problem;
  }
}
