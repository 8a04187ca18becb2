package io.eventide.api;

import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.security.ApiKeyStore;
import io.eventide.security.Grants;
import io.eventide.security.SecurityProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Creates API keys at run time; only a global admin reaches it (SecurityConfiguration). */
@RestController
class ApiKeyController {
  private static final Set<String> FIELDS = Set.of("name", "admin", "producer", "reader");
  private static final int MAX_NAME = 100;

  private final ApiKeyStore store;
  private final RequestJson requestJson;
  private final SecurityProperties properties;

  ApiKeyController(ApiKeyStore store, RequestJson requestJson, SecurityProperties properties) {
    this.store = store;
    this.requestJson = requestJson;
    this.properties = properties;
  }

  @PostMapping(
      path = "/admin/api-keys",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<JsonNode> create(@RequestBody byte[] body) {
    if (!properties.enabled()) {
      ProblemDetail problem =
          ProblemDetail.forStatusAndDetail(
              HttpStatus.CONFLICT, "security is off, so a key would grant nothing");
      problem.setTitle("Security is disabled");
      throw new ErrorResponseException(HttpStatus.CONFLICT, problem, null);
    }
    JsonNode json = requestJson.parse(body);
    List<Violation> violations = new ArrayList<>();
    if (!json.isObject()) {
      throw new InvalidInputException(List.of(new Violation("", "must be a JSON object")));
    }
    for (Map.Entry<String, JsonNode> field : json.properties()) {
      if (!FIELDS.contains(field.getKey())) {
        violations.add(new Violation("/" + field.getKey(), "is not a known field"));
      }
    }
    JsonNode name = json.get("name");
    if (name == null || !name.isString() || name.asString().isBlank()) {
      violations.add(new Violation("/name", "is required, a non-empty string"));
    } else if (name.asString().length() > MAX_NAME) {
      violations.add(new Violation("/name", "must be at most " + MAX_NAME + " characters"));
    }
    List<String> admin = pipelines(json, "admin", violations);
    List<String> producer = pipelines(json, "producer", violations);
    List<String> reader = pipelines(json, "reader", violations);
    if (!violations.isEmpty()) {
      throw new InvalidInputException(violations);
    }
    Grants grants = Grants.of(admin, producer, reader);
    String key = store.create(name.asString(), grants);
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("name", name.asString());
    out.put("key", key);
    out.put("sha256", ApiKeyStore.sha256(key));
    grants.admin().stream().sorted().forEach(out.putArray("admin")::add);
    grants.producer().stream().sorted().forEach(out.putArray("producer")::add);
    grants.reader().stream().sorted().forEach(out.putArray("reader")::add);
    return ResponseEntity.status(HttpStatus.CREATED).body(out);
  }

  private static List<String> pipelines(JsonNode json, String field, List<Violation> violations) {
    JsonNode list = json.get(field);
    List<String> out = new ArrayList<>();
    if (list == null || list.isNull()) {
      return out;
    }
    if (!list.isArray()) {
      violations.add(new Violation("/" + field, "must be an array of pipeline names or \"*\""));
      return out;
    }
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      if (!item.isString() || item.asString().isBlank()) {
        violations.add(new Violation("/" + field + "/" + i, "must be a pipeline name or \"*\""));
      } else {
        out.add(item.asString());
      }
    }
    return out;
  }
}
