package io.eventide.security;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Authentication, authorization, rate limits and CORS (docs/security.md).
 *
 * @param enabled whether requests must authenticate; off, everything is permitted and a warning
 *     says so at start-up
 * @param apiKeys keys known from configuration, each by the SHA-256 of its plaintext
 * @param jwt checks on OAuth2 access tokens beyond Spring Boot's issuer and signature checks
 * @param rateLimit requests per credential
 * @param failedAuthentications failed authentications per client address
 * @param cors origins browsers may call from
 */
@Validated
@ConfigurationProperties("eventide.security")
public record SecurityProperties(
    @DefaultValue("false") boolean enabled,
    @DefaultValue List<@Valid ApiKey> apiKeys,
    @DefaultValue @Valid Jwt jwt,
    @DefaultValue @Valid RateLimit rateLimit,
    @DefaultValue @Valid FailedAuthentications failedAuthentications,
    @DefaultValue @Valid Cors cors) {

  /**
   * @param name who the key belongs to; shown in logs and used for per-credential limits
   * @param sha256 the SHA-256 of the key, 64 hex digits
   * @param admin pipelines the key administers ({@code *}: all, and the admin endpoints)
   * @param producer pipelines the key may send events and watermarks to
   * @param reader pipelines whose outputs the key may read
   */
  public record ApiKey(
      @NotBlank String name,
      @NotBlank @Pattern(regexp = "[0-9a-fA-F]{64}", message = "must be 64 hex digits")
          String sha256,
      @DefaultValue List<String> admin,
      @DefaultValue List<String> producer,
      @DefaultValue List<String> reader) {}

  /**
   * @param audience the value the token's {@code aud} claim must contain; empty skips the check
   * @param keySetRefetchInterval how long after fetching the issuer's key set it is fetched again
   *     at the earliest, however many tokens name a key it lacks
   */
  public record Jwt(
      @DefaultValue("") String audience, @DefaultValue("30s") Duration keySetRefetchInterval) {}

  /**
   * @param perSecond tokens a credential's bucket regains per second; 0 turns rate limiting off
   * @param burst the bucket's size: requests a credential may make at once
   * @param maxCredentials buckets kept at most; idle ones are forgotten first
   */
  public record RateLimit(
      @DefaultValue("50") @Min(0) int perSecond,
      @DefaultValue("100") @Min(1) int burst,
      @DefaultValue("100000") @Min(1) int maxCredentials) {}

  /**
   * @param perSecond failures a client address is forgiven per second; 0 turns the limit off
   * @param burst failures an address may have in a row before its requests with credentials are
   *     refused with 429, unauthenticated
   * @param maxAddresses addresses tracked at most; idle ones are forgotten first
   */
  public record FailedAuthentications(
      @DefaultValue("1") @Min(0) int perSecond,
      @DefaultValue("20") @Min(1) int burst,
      @DefaultValue("10000") @Min(1) int maxAddresses) {}

  /**
   * @param allowedOrigins origins allowed to call from a browser; empty turns CORS off. {@code *}
   *     is refused at start-up: any site's scripts could then call with a key a user typed in
   */
  public record Cors(
      @DefaultValue
          List<
                  @Pattern(
                      regexp = "(?!\\s*\\*\\s*$).*",
                      message =
                          "must name an origin, never *: any site's scripts could then call"
                              + " Eventide with a key a user typed in")
                  String>
              allowedOrigins) {}
}
