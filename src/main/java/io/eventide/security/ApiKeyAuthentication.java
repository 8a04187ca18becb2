package io.eventide.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;

/** A presented API key: unauthenticated until {@link ApiKeyAuthenticationManager} finds it. */
final class ApiKeyAuthentication extends AbstractAuthenticationToken {
  private final String key;
  private final String name;

  private ApiKeyAuthentication(String key, String name, Grants grants) {
    super(grants == null ? List.of() : grants.authorities());
    this.key = key;
    this.name = name;
    setAuthenticated(grants != null);
  }

  static ApiKeyAuthentication presented(String key) {
    return new ApiKeyAuthentication(key, null, null);
  }

  static ApiKeyAuthentication verified(String name, Grants grants) {
    return new ApiKeyAuthentication(null, name, grants);
  }

  @Override
  public Object getCredentials() {
    return key;
  }

  @Override
  public Object getPrincipal() {
    return name;
  }

  @Override
  public String getName() {
    return "key:" + name;
  }
}
