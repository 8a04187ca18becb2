package io.eventide.api;

import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.runtime.IngestLogException;
import io.eventide.runtime.PipelineGoneException;
import io.eventide.runtime.RedefinitionConflictException;
import io.eventide.runtime.UnreadableBatchException;
import io.eventide.state.CommitUnresolvedException;
import io.eventide.state.StateProperties;
import io.eventide.state.StateUnavailableException;
import io.eventide.state.StoreLostException;
import io.eventide.state.UnreplicatedCommitException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Renders every error as RFC 9457 problem details. Spring's own exceptions (415, 405, missing body)
 * are handled by the base class; violations get an {@code errors} list naming each field.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {
  private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
  private final StateProperties state;

  ProblemHandler(StateProperties state) {
    this.state = state;
  }

  /** Nothing of the request was applied; the same request can simply be sent again. */
  @ExceptionHandler(StateUnavailableException.class)
  ResponseEntity<ProblemDetail> stateUnavailable(StateUnavailableException e) {
    if (e instanceof StoreLostException) {
      ProblemDetail problem =
          ProblemDetail.forStatusAndDetail(
              HttpStatus.SERVICE_UNAVAILABLE,
              "the state store lost its data (Redis restarted empty, was flushed or failed over);"
                  + " nothing of this request was applied, and this replica applies nothing until"
                  + " an operator restarts it");
      problem.setTitle("State store lost its data");
      return retryLater(problem);
    }
    return retryLater(stateUnavailableProblem());
  }

  private static ProblemDetail stateUnavailableProblem() {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.SERVICE_UNAVAILABLE,
            "the state store is unavailable; nothing of this request was applied, retry later");
    problem.setTitle("State store unavailable");
    return problem;
  }

  /**
   * The request may have been applied in whole or not at all; the problem says so, and which resend
   * is safe, instead of pretending either.
   */
  @ExceptionHandler(CommitUnresolvedException.class)
  ResponseEntity<ProblemDetail> commitUnresolved(CommitUnresolvedException e) {
    return retryLater(commitUnresolvedProblem());
  }

  private static ProblemDetail commitUnresolvedProblem() {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.SERVICE_UNAVAILABLE,
            "the state store did not confirm in time whether this request was applied: it was"
                + " applied in whole or not at all. Events with ids can be sent again safely;"
                + " events without ids may then be counted twice");
    problem.setTitle("Outcome unknown");
    problem.setProperty("outcome", "unknown");
    return problem;
  }

  /**
   * The answer the failure would have had, saying which part of the request was applied before it:
   * the producer resends only what follows.
   */
  @ExceptionHandler(PartlyAppliedException.class)
  ResponseEntity<ProblemDetail> partlyApplied(PartlyAppliedException e) {
    Throwable cause = e.getCause();
    ResponseEntity<ProblemDetail> answer;
    String before = "the events counted in applied were applied before this; ";
    if (cause instanceof UnreplicatedCommitException unreplicated) {
      answer = unreplicated(unreplicated);
      answer
          .getBody()
          .setDetail(
              "the events counted in applied were applied, but only "
                  + unreplicated.confirmed()
                  + " of the "
                  + unreplicated.required()
                  + " Redis replicas required confirmed the last of their batches in time;"
                  + " nothing after it was applied");
      answer
          .getBody()
          .setProperty(
              "applied",
              IngestAnswer.json(
                  unreplicated.applied() == null
                      ? e.applied()
                      : e.applied().plus(unreplicated.applied())));
      return answer;
    }
    if (cause instanceof CommitUnresolvedException unresolved) {
      answer = commitUnresolved(unresolved);
      answer
          .getBody()
          .setDetail(before + "of the batch after them, " + answer.getBody().getDetail());
    } else if (cause instanceof StateUnavailableException unavailable) {
      answer = stateUnavailable(unavailable);
      answer
          .getBody()
          .setDetail(before + "then the state store became unavailable and nothing more was");
    } else if (cause instanceof IngestionBusyException busy) {
      answer = busy(busy);
      answer.getBody().setDetail(before + "then " + busy.getMessage());
    } else if (cause instanceof ErrorResponse response) {
      answer =
          ResponseEntity.status(response.getStatusCode())
              .contentType(MediaType.APPLICATION_PROBLEM_JSON)
              .body(response.getBody());
    } else {
      ProblemDetail problem =
          ProblemDetail.forStatusAndDetail(
              HttpStatus.INTERNAL_SERVER_ERROR, before + "then the request failed");
      answer =
          ResponseEntity.internalServerError()
              .contentType(MediaType.APPLICATION_PROBLEM_JSON)
              .body(problem);
    }
    answer.getBody().setProperty("applied", IngestAnswer.json(e.applied()));
    return answer;
  }

  /**
   * Applied, but not on as many replicas as required: nothing to send again unless events carry
   * ids, and the problem says what was applied.
   */
  @ExceptionHandler(UnreplicatedCommitException.class)
  ResponseEntity<ProblemDetail> unreplicated(UnreplicatedCommitException e) {
    return retryLater(unreplicatedProblem(e));
  }

  private static ProblemDetail unreplicatedProblem(UnreplicatedCommitException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.SERVICE_UNAVAILABLE,
            "this request was applied, but only "
                + e.confirmed()
                + " of the "
                + e.required()
                + " Redis replicas required confirmed it in time, so a failover now could lose"
                + " it. Events with ids can be sent again safely; events without ids would be"
                + " counted twice");
    problem.setTitle("Applied, not replicated");
    problem.setProperty("outcome", "applied");
    if (e.applied() != null) {
      problem.setProperty("applied", IngestAnswer.json(e.applied()));
    }
    return problem;
  }

  /**
   * Cluster mode: the ingest log took nothing of the request (it can be sent again), or did not say
   * in time whether it took all of it.
   */
  @ExceptionHandler(IngestLogException.class)
  ResponseEntity<ProblemDetail> ingestLog(IngestLogException e) {
    return retryLater(ingestLogProblem(e));
  }

  private static ProblemDetail ingestLogProblem(IngestLogException e) {
    if (!e.outcomeKnown()) {
      ProblemDetail problem = commitUnresolvedProblem();
      problem.setDetail(
          "the ingest log did not confirm every event of this request: some or all of them may"
              + " have been logged, and will then be applied. Events with ids can be sent again"
              + " safely; events without ids may then be counted twice");
      return problem;
    }
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.SERVICE_UNAVAILABLE,
            "the ingest log is unavailable; nothing of this request was logged, retry later");
    problem.setTitle("Ingest log unavailable");
    return problem;
  }

  /** A strict post with events that cannot be read: nothing of it was applied. */
  @ExceptionHandler(UnreadableBatchException.class)
  ResponseEntity<ProblemDetail> unreadableBatch(UnreadableBatchException e) {
    return ResponseEntity.unprocessableContent()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(unreadableBatchProblem(e));
  }

  private static ProblemDetail unreadableBatchProblem(UnreadableBatchException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT, e.getMessage());
    problem.setTitle("Unreadable events");
    problem.setProperty("rejectedTotal", e.unreadable());
    problem.setProperty("rejected", IngestAnswer.listed(e.listed()));
    return problem;
  }

  /** Nothing of the request was applied: it can be sent again once fewer are in flight. */
  @ExceptionHandler(IngestionBusyException.class)
  ResponseEntity<ProblemDetail> busy(IngestionBusyException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    problem.setTitle("Too many ingestion requests in flight");
    return retryLater(problem);
  }

  /** The client's own uploads fill its slots; others are not refused. Nothing was applied. */
  @ExceptionHandler(TooManyUploadsException.class)
  ResponseEntity<ProblemDetail> tooManyUploads(TooManyUploadsException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.TOO_MANY_REQUESTS, e.getMessage());
    problem.setTitle("Too many uploads from this client");
    return retryLater(HttpStatus.TOO_MANY_REQUESTS, problem);
  }

  private ResponseEntity<ProblemDetail> retryLater(ProblemDetail problem) {
    return retryLater(HttpStatus.SERVICE_UNAVAILABLE, problem);
  }

  private ResponseEntity<ProblemDetail> retryLater(HttpStatus status, ProblemDetail problem) {
    return ResponseEntity.status(status)
        .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  String retryAfterSeconds() {
    return Long.toString(Math.max(1, state.retryAfter().toSeconds()));
  }

  /**
   * The problem a pipeline's own route would answer for an error that befell it, for answers that
   * report several pipelines at once (a post to a stream).
   */
  static ProblemDetail describe(Throwable error) {
    Throwable e =
        error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
    if (e instanceof StateUnavailableException) {
      return stateUnavailableProblem();
    }
    if (e instanceof CommitUnresolvedException) {
      return commitUnresolvedProblem();
    }
    if (e instanceof IngestLogException log) {
      return ingestLogProblem(log);
    }
    if (e instanceof UnreplicatedCommitException unreplicated) {
      return unreplicatedProblem(unreplicated);
    }
    if (e instanceof InvalidInputException invalid) {
      return invalidInputProblem(invalid);
    }
    if (e instanceof UnreadableBatchException unreadable) {
      return unreadableBatchProblem(unreadable);
    }
    if (e instanceof ErrorResponse response) {
      return response.getBody();
    }
    if (e instanceof PipelineGoneException gone) {
      ProblemDetail problem =
          ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
      problem.setTitle("Unknown pipeline");
      problem.setProperty("pipeline", gone.pipeline());
      return problem;
    }
    log.error("a pipeline failed to apply a request", e);
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.INTERNAL_SERVER_ERROR, "the pipeline failed to apply the request");
    problem.setTitle("Internal Server Error");
    return problem;
  }

  @ExceptionHandler(SimulationsBusyException.class)
  ResponseEntity<ProblemDetail> simulationsBusy(SimulationsBusyException e) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
    problem.setTitle("Simulations busy");
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "1")
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  @ExceptionHandler(InvalidInputException.class)
  ResponseEntity<ProblemDetail> invalidInput(InvalidInputException e) {
    return ResponseEntity.badRequest()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(invalidInputProblem(e));
  }

  private static ProblemDetail invalidInputProblem(InvalidInputException e) {
    List<Violation> violations = e.violations();
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.BAD_REQUEST,
            violations.size() == 1
                ? describe(violations.get(0))
                : violations.size() + " violations; see errors");
    problem.setTitle("Invalid request");
    problem.setProperty("errors", violations);
    return problem;
  }

  @ExceptionHandler(RedefinitionConflictException.class)
  ResponseEntity<ProblemDetail> conflict(RedefinitionConflictException e) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    problem.setTitle("Redefinition would invalidate running state");
    problem.setProperty("pipeline", e.pipeline());
    return ResponseEntity.status(HttpStatus.CONFLICT)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem);
  }

  /**
   * Problems are always problem+json: left to content negotiation, a refused pane stream (404, 429)
   * would be written as an SSE {@code data:} frame, since its client accepts only
   * text/event-stream.
   */
  @Override
  protected Mono<ResponseEntity<Object>> createResponseEntity(
      Object body, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
    if (body instanceof ProblemDetail) {
      HttpHeaders problemHeaders = new HttpHeaders();
      problemHeaders.putAll(headers);
      problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
      return super.createResponseEntity(body, problemHeaders, status, exchange);
    }
    return super.createResponseEntity(body, headers, status, exchange);
  }

  private static String describe(Violation v) {
    return (v.path().isEmpty() ? "the body" : v.path()) + " " + v.reason();
  }
}
