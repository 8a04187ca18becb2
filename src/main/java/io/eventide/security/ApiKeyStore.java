package io.eventide.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * API keys by the SHA-256 of their plaintext; the plaintext is never stored. A plain hash rather
 * than a salted, slow one (bcrypt, PBKDF2): keys are 256 random bits, so there is no dictionary to
 * guard against, and a slow hash would cost every request what it costs an attacker once.
 */
@Component
public class ApiKeyStore {
  /** Generated keys carry a prefix so that a leaked one is recognisable in logs and scanners. */
  static final String PREFIX = "evt_";

  private final Map<String, ApiKeyPrincipal> byHash = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();

  public ApiKeyStore(SecurityProperties properties) {
    for (SecurityProperties.ApiKey k : properties.apiKeys()) {
      byHash.put(
          k.sha256().toLowerCase(Locale.ROOT),
          new ApiKeyPrincipal(k.name(), Grants.of(k.admin(), k.producer(), k.reader())));
    }
  }

  Optional<ApiKeyPrincipal> find(String key) {
    return Optional.ofNullable(byHash.get(sha256(key)));
  }

  /** Creates a key with these grants and returns its plaintext, which is not kept. */
  public String create(String name, Grants grants) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String key = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    byHash.put(sha256(key), new ApiKeyPrincipal(name, grants));
    return key;
  }

  public static String sha256(String key) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** The owner of a key and what it may do. */
  record ApiKeyPrincipal(String name, Grants grants) {}
}
