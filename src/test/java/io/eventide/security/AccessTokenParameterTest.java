package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

/**
 * What everything after {@link AccessTokenParameter} sees, the request log included: no {@code
 * access_token} in the URL however its name or value is encoded, and the credential, decoded, as
 * the bearer header on a stream route.
 */
class AccessTokenParameterTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "access_token=evt_k1&snapshot=true | evt_k1",
        "snapshot=true&access%5Ftoken=evt_k1 | evt_k1",
        "access%5ftoken=evt_k1&snapshot=true | evt_k1",
        "%61ccess_token=evt_k1&snapshot=true | evt_k1",
        "access_token=evt%5Fk1&snapshot=true | evt_k1",
        "snapshot=true&access_token=ab%2Bc%3D | ab+c=",
        "access%5Ftoken=evt_k1&snapshot=true&access_token=evt_k2 | evt_k1",
      })
  void theParameterLeavesTheUrlWhateverItsEncodingAndBecomesTheHeader(String query, String token) {
    ServerHttpRequest moved =
        AccessTokenParameter.moved(
            MockServerHttpRequest.method(
                    HttpMethod.GET, URI.create("http://localhost/pipelines/orders/panes?" + query))
                .build());

    assertThat(moved.getURI().toString())
        .isEqualTo("http://localhost/pipelines/orders/panes?snapshot=true");
    assertThat(moved.getQueryParams()).containsOnlyKeys("snapshot");
    assertThat(moved.getHeaders().getFirst(HttpHeaders.AUTHORIZATION)).isEqualTo("Bearer " + token);
  }

  @ParameterizedTest
  @CsvSource({"access%5Ftoken=evt_k1", "access_token=evt%5Fk1", "access_token"})
  void onAnyOtherRouteTheParameterStillLeavesTheUrlAndCountsForNothing(String query) {
    ServerHttpRequest moved =
        AccessTokenParameter.moved(
            MockServerHttpRequest.method(
                    HttpMethod.GET,
                    URI.create("http://localhost/pipelines/orders/results?" + query))
                .build());

    assertThat(moved.getURI().toString()).isEqualTo("http://localhost/pipelines/orders/results");
    assertThat(moved.getHeaders().containsHeader(HttpHeaders.AUTHORIZATION)).isFalse();
  }
}
