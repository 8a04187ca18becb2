package io.eventide.api;

import java.time.Duration;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A request body that did not arrive in whole within {@code eventide.ingest.body-read-timeout}. */
class BodyReadTimeoutException extends ErrorResponseException {
  BodyReadTimeoutException(Duration timeout) {
    super(HttpStatus.REQUEST_TIMEOUT, problem(timeout), null);
  }

  private static ProblemDetail problem(Duration timeout) {
    ProblemDetail p =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.REQUEST_TIMEOUT,
            "the request body did not arrive in whole within "
                + timeout.toMillis()
                + " ms (eventide.ingest.body-read-timeout); of an event post, only what applied"
                + " counts was applied, if anything");
    p.setTitle("Request body too slow");
    p.setProperty("timeoutMillis", timeout.toMillis());
    return p;
  }
}
