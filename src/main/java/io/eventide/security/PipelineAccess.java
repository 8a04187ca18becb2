package io.eventide.security;

import java.util.function.BiPredicate;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.authorization.ReactiveAuthorizationManager;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.server.authorization.AuthorizationContext;
import reactor.core.publisher.Mono;

/** Decides a route by the caller's grants on the pipeline its path names ({@code {name}}). */
final class PipelineAccess implements ReactiveAuthorizationManager<AuthorizationContext> {
  private final BiPredicate<Grants, String> rule;

  private PipelineAccess(BiPredicate<Grants, String> rule) {
    this.rule = rule;
  }

  static PipelineAccess admin() {
    return new PipelineAccess(Grants::canAdminister);
  }

  static PipelineAccess producer() {
    return new PipelineAccess(Grants::canProduce);
  }

  /**
   * The stream routes, whose path's {@code {name}} is the stream: the stream's grant, or any
   * producer role, lets the request reach the controller, which checks the role on each pipeline
   * that reads the stream ({@link StreamProducers}).
   */
  static PipelineAccess streamProducer() {
    return new PipelineAccess(
        (grants, stream) -> grants.canProduceStream(stream) || grants.producesAny());
  }

  static PipelineAccess reader() {
    return new PipelineAccess(Grants::canRead);
  }

  /** {@code /simulate}: no pipeline is named, but trying one out is a pipeline admin's work. */
  static PipelineAccess anyAdmin() {
    return new PipelineAccess((grants, ignored) -> grants.administersAny());
  }

  /** Routes about every pipeline at once: listing them, the actuator, the admin endpoints. */
  static PipelineAccess everyPipeline(BiPredicate<Grants, String> rule) {
    return new PipelineAccess((grants, ignored) -> rule.test(grants, Grants.ANY));
  }

  @Override
  public Mono<AuthorizationResult> authorize(
      Mono<Authentication> authentication, AuthorizationContext context) {
    Object name = context.getVariables().get("name");
    String pipeline = name == null ? Grants.ANY : name.toString();
    return authentication
        .filter(Authentication::isAuthenticated)
        .<AuthorizationResult>map(
            a ->
                new AuthorizationDecision(
                    rule.test(Grants.fromAuthorities(a.getAuthorities()), pipeline)))
        .defaultIfEmpty(new AuthorizationDecision(false));
  }
}
