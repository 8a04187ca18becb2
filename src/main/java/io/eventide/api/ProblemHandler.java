package io.eventide.api;

import io.eventide.pipeline.InvalidInputException;
import io.eventide.pipeline.Violation;
import io.eventide.runtime.RedefinitionConflictException;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;

/**
 * Renders every error as RFC 9457 problem details. Spring's own exceptions (415, 405, missing body)
 * are handled by the base class; violations get an {@code errors} list naming each field.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

  @ExceptionHandler(InvalidInputException.class)
  ResponseEntity<ProblemDetail> invalidInput(InvalidInputException e) {
    List<Violation> violations = e.violations();
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.BAD_REQUEST,
            violations.size() == 1
                ? describe(violations.get(0))
                : violations.size() + " violations; see errors");
    problem.setTitle("Invalid request");
    problem.setProperty("errors", violations);
    return ResponseEntity.badRequest().body(problem);
  }

  @ExceptionHandler(RedefinitionConflictException.class)
  ResponseEntity<ProblemDetail> conflict(RedefinitionConflictException e) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    problem.setTitle("Redefinition would invalidate running state");
    problem.setProperty("pipeline", e.pipeline());
    return ResponseEntity.status(HttpStatus.CONFLICT).body(problem);
  }

  private static String describe(Violation v) {
    return (v.path().isEmpty() ? "the body" : v.path()) + " " + v.reason();
  }
}
