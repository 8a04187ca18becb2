package io.eventide.security;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;
import reactor.core.publisher.Mono;

/**
 * Who may post to a stream: a credential with the stream's grant ({@code stream:<stream>} among its
 * producer grants), or with the producer role on every pipeline reading the stream. Which pipelines
 * read it is known only once the registry has been asked, so the route's filter lets producers
 * through and the controller asks here, with the very pipelines the post will reach.
 */
@Component
public class StreamProducers {
  private final boolean enabled;

  StreamProducers(SecurityProperties properties) {
    this.enabled = properties.enabled();
  }

  /** Completes when the caller may post to {@code stream} read by {@code pipelines}; else 403. */
  public Mono<Void> check(String stream, List<String> pipelines) {
    if (!enabled) {
      return Mono.empty();
    }
    return ReactiveSecurityContextHolder.getContext()
        .map(SecurityContext::getAuthentication)
        .filter(Authentication::isAuthenticated)
        .map(a -> Grants.fromAuthorities(a.getAuthorities()))
        .defaultIfEmpty(Grants.of(List.of(), List.of(), List.of()))
        .flatMap(
            grants -> {
              if (grants.canProduceStream(stream)) {
                return Mono.empty();
              }
              long lacking = pipelines.stream().filter(p -> !grants.canProduce(p)).count();
              return lacking == 0 ? Mono.empty() : Mono.error(denied(stream, lacking, pipelines));
            });
  }

  private static ErrorResponseException denied(String stream, long lacking, List<String> readers) {
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(
            HttpStatus.FORBIDDEN,
            "the credential may not produce to stream '"
                + stream
                + "': it lacks the producer role on "
                + lacking
                + " of the "
                + readers.size()
                + " pipelines reading it and has no grant stream:"
                + stream
                + "; nothing applied");
    problem.setTitle("Forbidden");
    return new ErrorResponseException(HttpStatus.FORBIDDEN, problem, null);
  }
}
