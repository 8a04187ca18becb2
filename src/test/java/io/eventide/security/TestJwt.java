package io.eventide.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Date;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

/** A local issuer: an RSA key made per run, tokens signed with it, and a decoder that trusts it. */
final class TestJwt {
  private static final KeyPair KEYS = generate();

  private TestJwt() {}

  static String token(String subject, String audience, String scope) {
    return token(subject, audience, scope, null);
  }

  /** A token whose header names the key {@code kid}, as an issuer with several keys signs. */
  static String token(String subject, String audience, String scope, String kid) {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject(subject)
            .audience(audience)
            .claim("scope", scope)
            .issueTime(new Date())
            .expirationTime(Date.from(Instant.now().plusSeconds(300)))
            .build();
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).build(), claims);
    try {
      jwt.sign(new RSASSASigner(KEYS.getPrivate()));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  private static KeyPair generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The issuer's key set, as a jwk-set-uri serves it: the one key, as {@code kid}. */
  static String jwks(String kid) {
    return new JWKSet(new RSAKey.Builder((RSAPublicKey) KEYS.getPublic()).keyID(kid).build())
        .toString();
  }

  /** What Spring Boot would build from jwk-set-uri, built here from the public key. */
  @TestConfiguration(proxyBeanMethods = false)
  static class Decoder {
    @Bean
    ReactiveJwtDecoder jwtDecoder() {
      return NimbusReactiveJwtDecoder.withPublicKey((RSAPublicKey) KEYS.getPublic()).build();
    }
  }
}
