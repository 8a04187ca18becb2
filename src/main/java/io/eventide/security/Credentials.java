package io.eventide.security;

import java.security.Principal;

/** One name per credential, for limits that count per credential. */
public final class Credentials {
  private Credentials() {}

  /** {@code key:<name>} for API keys, {@code jwt:<subject>} for tokens. */
  public static String id(Principal principal) {
    return principal instanceof ApiKeyAuthentication
        ? principal.getName()
        : "jwt:" + principal.getName();
  }
}
