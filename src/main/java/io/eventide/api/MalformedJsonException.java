package io.eventide.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;

/** A request body that is not JSON; the problem names the parser's complaint and where it is. */
class MalformedJsonException extends ErrorResponseException {
  MalformedJsonException(JacksonException cause) {
    super(HttpStatus.BAD_REQUEST, problem(cause), cause);
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

  private static ProblemDetail problem(JacksonException cause) {
    ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.BAD_REQUEST);
    // A body past a read constraint may be well-formed; say which limit it broke.
    problem.setTitle(
        cause instanceof StreamConstraintsException ? "JSON exceeds a limit" : "Malformed JSON");
    TokenStreamLocation at = cause.getLocation();
    String message = cause.getOriginalMessage();
    if (at != null && at.getLineNr() > 0) {
      problem.setDetail("line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + message);
      problem.setProperty("line", at.getLineNr());
      problem.setProperty("column", at.getColumnNr());
    } else {
      problem.setDetail(message);
    }
    return problem;
  }
}
