package io.eventide.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A post to a stream that no pipeline reads. */
class StreamNotFoundException extends ErrorResponseException {
  StreamNotFoundException(String stream) {
    super(HttpStatus.NOT_FOUND, problem(stream), null);
  }

  private static ProblemDetail problem(String stream) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.NOT_FOUND, "No pipeline reads stream '" + stream + "'");
    problem.setTitle("Unknown stream");
    problem.setProperty("stream", stream);
    return problem;
  }
}
