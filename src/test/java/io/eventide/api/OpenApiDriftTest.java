package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.eventide.deploy.ProjectFiles;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * openapi.yaml is the document springdoc serves, and it must say what the controllers do: every
 * route, its path and query parameters and its request media types, and nothing else.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class OpenApiDriftTest {
  @Autowired WebTestClient client;

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  private JsonNode generated() {
    String body =
        client
            .get()
            .uri("/v3/api-docs")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    return JsonMapper.shared().readTree(body);
  }

  private static JsonNode contract() {
    return JsonMapper.shared().valueToTree(ProjectFiles.yamlMap("openapi.yaml"));
  }

  @Test
  void theServedDocumentIsOpenapiYaml() {
    List<String> differences =
        OpenApiTrees.differences(
            OpenApiTrees.normalise(contract()), OpenApiTrees.normalise(generated()));
    if (!differences.isEmpty()) {
      fail("openapi.yaml and /v3/api-docs differ:\n" + String.join("\n", differences));
    }
  }

  @Test
  void openapiYamlDescribesExactlyTheControllersRoutes() {
    JsonNode paths = contract().get("paths");
    List<String> problems = new ArrayList<>();
    Set<String> routed = new TreeSet<>();
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getHandlerMethods().entrySet()) {
      HandlerMethod handler = e.getValue();
      if (!handler.getBeanType().getPackageName().startsWith("io.eventide")) {
        continue;
      }
      RequestMappingInfo info = e.getKey();
      for (var pattern : info.getPatternsCondition().getPatterns()) {
        String path = pattern.getPatternString();
        for (var method : info.getMethodsCondition().getMethods()) {
          String verb = method.name().toLowerCase(Locale.ROOT);
          routed.add(verb + " " + path);
          JsonNode operation = paths.path(path).path(verb);
          if (operation.isMissingNode()) {
            problems.add(verb + " " + path + ": routed but not in openapi.yaml");
            continue;
          }
          checkParameters(
              verb + " " + path, handler, paths.get(path).path("parameters"), operation, problems);
          for (MediaType type : info.getConsumesCondition().getConsumableMediaTypes()) {
            if (operation
                .path("requestBody")
                .path("content")
                .path(type.toString())
                .isMissingNode()) {
              problems.add(
                  verb + " " + path + ": consumes " + type + " but the yaml has no body of it");
            }
          }
        }
      }
    }
    paths
        .propertyNames()
        .forEach(
            path ->
                paths
                    .get(path)
                    .propertyNames()
                    .forEach(
                        verb -> {
                          if (Set.of("get", "put", "post", "delete", "patch").contains(verb)
                              && !routed.contains(verb + " " + path)) {
                            problems.add(verb + " " + path + ": in openapi.yaml but not routed");
                          }
                        }));
    assertThat(problems).isEmpty();
  }

  /** Compares the handler's path and query parameters with the path item's and operation's. */
  private static void checkParameters(
      String operationName,
      HandlerMethod handler,
      JsonNode pathItemParameters,
      JsonNode operation,
      List<String> problems) {
    Set<String> documented = new TreeSet<>();
    for (JsonNode list : List.of(pathItemParameters, operation.path("parameters"))) {
      for (JsonNode p : list) {
        JsonNode resolved = p.has("$ref") ? parameterByRef(p.get("$ref").asString()) : p;
        documented.add(resolved.path("in").asString() + ":" + resolved.path("name").asString());
      }
    }
    Set<String> declared = new TreeSet<>();
    for (Parameter p : handler.getMethod().getParameters()) {
      RequestParam query = p.getAnnotation(RequestParam.class);
      PathVariable path = p.getAnnotation(PathVariable.class);
      RequestHeader header = p.getAnnotation(RequestHeader.class);
      if (query != null) {
        declared.add("query:" + (query.name().isEmpty() ? p.getName() : query.name()));
      } else if (path != null) {
        declared.add("path:" + (path.name().isEmpty() ? p.getName() : path.name()));
      } else if (header != null) {
        declared.add("header:" + (header.name().isEmpty() ? p.getName() : header.name()));
      }
    }
    // The producer's span is read by IngestSpans, a filter, on every event and watermark post.
    if (operationName.matches("post /(pipelines|streams)/\\{[a-z]+}/(events|watermark)")) {
      declared.add("header:traceparent");
    }
    if (!declared.equals(documented)) {
      problems.add(operationName + ": parameters " + declared + " but the yaml says " + documented);
    }
  }

  private static JsonNode parameterByRef(String ref) {
    return contract().at(ref.substring(1));
  }

  @Test
  void everyReferenceOfTheServedDocumentResolves() {
    Set<String> unresolved = new TreeSet<>(OpenApiTrees.unresolvedReferences(generated()));
    if (!unresolved.isEmpty()) {
      fail("$refs with no target:\n" + String.join("\n", unresolved));
    }
  }

  @Test
  void swaggerUiIsServed() {
    String location =
        client
            .get()
            .uri("/swagger-ui.html")
            .exchange()
            .expectStatus()
            .is3xxRedirection()
            .returnResult(Void.class)
            .getResponseHeaders()
            .getLocation()
            .getPath();
    assertThat(location).endsWith("/swagger-ui/index.html");
    client
        .get()
        .uri(location)
        .exchange()
        .expectStatus()
        .isOk()
        .expectHeader()
        .contentTypeCompatibleWith(MediaType.TEXT_HTML);
  }
}
