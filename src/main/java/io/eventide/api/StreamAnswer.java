package io.eventide.api;

import io.eventide.runtime.Delivery;
import io.eventide.runtime.UnreadableBatchException;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answer to a post to a stream: each pipeline's own answer, by name. When every pipeline
 * applied the post, {@code {"stream", "pipelines": {name: answer}}}; otherwise a problem whose
 * {@code applied} holds the answers of those that did and {@code failed} the problem each of the
 * others would have answered on its own route, so that each pipeline's part is told as it is.
 */
final class StreamAnswer {
  private StreamAnswer() {}

  /**
   * @param partly what a failed pipeline had applied before it failed (the NDJSON batches before
   *     the failure), or null for nothing
   */
  static <T> ResponseEntity<JsonNode> of(
      String stream,
      HttpStatus success,
      Map<String, Delivery<T>> outcomes,
      Function<T, JsonNode> json,
      Function<String, JsonNode> partly,
      String retryAfter) {
    ObjectNode applied = JsonNodeFactory.instance.objectNode();
    ObjectNode failed = JsonNodeFactory.instance.objectNode();
    HttpStatusCode status = null;
    for (Map.Entry<String, Delivery<T>> e : outcomes.entrySet()) {
      if (e.getValue() instanceof Delivery.Applied<T> a) {
        applied.set(e.getKey(), json.apply(a.result()));
      } else if (e.getValue() instanceof Delivery.Failed<T> f) {
        ProblemDetail problem = ProblemHandler.describe(f.error());
        HttpStatusCode own = HttpStatusCode.valueOf(problem.getStatus());
        // A retry is what fixes a store outage, so it decides the status when there is one.
        if (status == null || own.value() == HttpStatus.SERVICE_UNAVAILABLE.value()) {
          status = own;
        }
        failed.set(e.getKey(), failure(problem, partly.apply(e.getKey())));
      }
    }
    if (status == null) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      out.put("stream", stream);
      out.set("pipelines", applied);
      return ResponseEntity.status(success).body(out);
    }
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            status,
            "applied to "
                + applied.size()
                + " of the "
                + outcomes.size()
                + " pipelines reading stream '"
                + stream
                + "'; see applied and failed");
    problem.setTitle("Not applied to every pipeline of the stream");
    problem.setProperty("stream", stream);
    problem.setProperty("applied", applied);
    problem.setProperty("failed", failed);
    ErrorResponseException error = new ErrorResponseException(status, problem, null);
    if (status.value() == HttpStatus.SERVICE_UNAVAILABLE.value()) {
      error.getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfter);
    }
    throw error;
  }

  /**
   * Refuses a strict post with 422 when any reader cannot read some of it: {@code failed} holds
   * each such reader's problem, as its own route would give it. A check that failed otherwise is
   * left to the delivery, which reports it.
   */
  static void refuseUnreadable(String stream, Map<String, Delivery<Boolean>> checks) {
    ObjectNode failed = JsonNodeFactory.instance.objectNode();
    checks.forEach(
        (name, check) -> {
          if (check instanceof Delivery.Failed<Boolean> f
              && unwrap(f.error()) instanceof UnreadableBatchException) {
            failed.set(name, failure(ProblemHandler.describe(f.error()), null));
          }
        });
    if (failed.isEmpty()) {
      return;
    }
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.UNPROCESSABLE_CONTENT,
            failed.size()
                + " of the "
                + checks.size()
                + " pipelines reading stream '"
                + stream
                + "' cannot read events of the body; nothing of it was applied; see failed");
    problem.setTitle("Unreadable events");
    problem.setProperty("stream", stream);
    problem.setProperty("applied", JsonNodeFactory.instance.objectNode());
    problem.setProperty("failed", failed);
    throw new ErrorResponseException(HttpStatus.UNPROCESSABLE_CONTENT, problem, null);
  }

  private static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }

  private static ObjectNode failure(ProblemDetail problem, JsonNode partly) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("status", problem.getStatus());
    out.put("title", problem.getTitle());
    out.put("detail", problem.getDetail());
    if (problem.getProperties() != null) {
      problem.getProperties().forEach((k, v) -> out.putPOJO(k, v));
    }
    if (partly != null) {
      out.set("applied", partly);
    }
    return out;
  }
}
