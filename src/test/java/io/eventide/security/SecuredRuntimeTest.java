package io.eventide.security;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * The whole service on a random port with security on: three configured API keys (an admin, a
 * producer and a reader of {@code orders}), JWTs signed by {@link TestJwt}'s key for audience
 * {@code eventide}, a 1 MB body limit and two pane streams per credential. Every class that carries
 * it shares one application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.security.enabled=true",
      "eventide.security.jwt.audience=eventide",
      "eventide.security.rate-limit.per-second=10000",
      "eventide.security.rate-limit.burst=10000",
      "eventide.security.api-keys[0].name=root",
      "eventide.security.api-keys[0].sha256=" + SecuredRuntimeTest.ROOT_SHA,
      "eventide.security.api-keys[0].admin=*",
      "eventide.security.api-keys[1].name=orders-producer",
      "eventide.security.api-keys[1].sha256=" + SecuredRuntimeTest.PRODUCER_SHA,
      "eventide.security.api-keys[1].producer=orders",
      "eventide.security.api-keys[2].name=orders-reader",
      "eventide.security.api-keys[2].sha256=" + SecuredRuntimeTest.READER_SHA,
      "eventide.security.api-keys[2].reader=orders",
      "eventide.runtime.tick=20ms",
      "eventide.ingest.max-body-size=1048576B",
      "eventide.outputs.sse-heartbeat=250ms",
      "eventide.outputs.sse-max-per-credential=2"
    })
@Import(TestJwt.Decoder.class)
public @interface SecuredRuntimeTest {
  String ROOT = "root-key-0001";
  String ROOT_SHA = "d55bdfe1a1222919994d1bb78f0c24bb79c48251e1f1f9cc41d3fbe4a982203b";
  String PRODUCER = "producer-key-0001";
  String PRODUCER_SHA = "1ba71e8213e5fff1bf3d862e539b07a789dd766285adf2954ee9c0339b805aaf";
  String READER = "reader-key-0001";
  String READER_SHA = "f4e5d0d4091cec71ff2aa696b008c36dda1143f5ad8b9544065131fc45d22713";
}
