package io.eventide.api;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A request named a pipeline that is not defined. */
class PipelineNotFoundException extends ErrorResponseException {
  PipelineNotFoundException(String name) {
    super(HttpStatus.NOT_FOUND, problem(name), null);
  }

  private static ProblemDetail problem(String name) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No pipeline named '" + name + "'");
    problem.setTitle("Unknown pipeline");
    return problem;
  }
}
