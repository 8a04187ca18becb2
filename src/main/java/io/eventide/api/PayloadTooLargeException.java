package io.eventide.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A request body beyond the configured limit. */
class PayloadTooLargeException extends ErrorResponseException {
  PayloadTooLargeException(long limit, String detail) {
    super(HttpStatus.PAYLOAD_TOO_LARGE, problem(limit, detail), null);
  }

  private static ProblemDetail problem(long limit, String detail) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.PAYLOAD_TOO_LARGE, detail);
    p.setTitle("Request body too large");
    p.setProperty("limitBytes", limit);
    return p;
  }
}
