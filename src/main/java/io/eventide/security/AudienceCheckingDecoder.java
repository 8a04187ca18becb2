package io.eventide.security;

import java.util.List;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import reactor.core.publisher.Mono;

/**
 * Refuses tokens minted for another service. It wraps whatever decoder Spring Boot built (from
 * {@code issuer-uri}, {@code jwk-set-uri} or a public key), so the check holds for each of them.
 */
final class AudienceCheckingDecoder implements ReactiveJwtDecoder {
  private final ReactiveJwtDecoder delegate;
  private final JwtClaimValidator<List<String>> audience;

  AudienceCheckingDecoder(ReactiveJwtDecoder delegate, String expected) {
    this.delegate = delegate;
    this.audience = new JwtClaimValidator<>("aud", aud -> aud != null && aud.contains(expected));
  }

  @Override
  public Mono<Jwt> decode(String token) {
    return delegate
        .decode(token)
        .flatMap(
            jwt -> {
              OAuth2TokenValidatorResult result = audience.validate(jwt);
              if (!result.hasErrors()) {
                return Mono.just(jwt);
              }
              List<OAuth2Error> errors = List.copyOf(result.getErrors());
              return Mono.error(
                  new JwtValidationException("the token's audience is not this service", errors));
            });
  }
}
