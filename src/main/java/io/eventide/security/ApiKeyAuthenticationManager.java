package io.eventide.security;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.core.Authentication;
import reactor.core.publisher.Mono;

/** Verifies a presented API key against the store. */
final class ApiKeyAuthenticationManager implements ReactiveAuthenticationManager {
  private final ApiKeyStore store;

  ApiKeyAuthenticationManager(ApiKeyStore store) {
    this.store = store;
  }

  @Override
  public Mono<Authentication> authenticate(Authentication presented) {
    String key = (String) presented.getCredentials();
    return Mono.justOrEmpty(store.find(key))
        .<Authentication>map(p -> ApiKeyAuthentication.verified(p.name(), p.grants()))
        .switchIfEmpty(Mono.error(() -> new BadCredentialsException("unknown API key")));
  }
}
