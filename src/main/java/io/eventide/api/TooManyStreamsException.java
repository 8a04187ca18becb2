package io.eventide.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A pane stream beyond a subscriber cap. */
class TooManyStreamsException extends ErrorResponseException {
  TooManyStreamsException(String detail) {
    super(HttpStatus.TOO_MANY_REQUESTS, problem(detail), null);
  }

  private static ProblemDetail problem(String detail) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, detail);
    p.setTitle("Too many pane streams");
    return p;
  }
}
