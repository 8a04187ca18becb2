package io.eventide.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ConfigurationFilesTest {
  private static final KnownProperties KNOWN = KnownProperties.load();

  @Test
  void everySettingOfConfigApplicationYamlIsBoundAndCurrent() {
    List<String> unknown = new ArrayList<>();
    List<String> deprecated = new ArrayList<>();
    for (Map<String, Object> doc : ApplicationConfig.documents()) {
      for (String key : doc.keySet()) {
        if (!KNOWN.isKnown(key)) {
          unknown.add(key);
        } else if (KNOWN.isDeprecated(key)) {
          deprecated.add(key);
        }
      }
    }
    assertThat(unknown).as("settings no bound property reads").isEmpty();
    assertThat(deprecated).as("deprecated settings").isEmpty();
  }

  @Test
  void definesTheDocumentedProfiles() {
    List<Object> profiles =
        ApplicationConfig.documents().stream()
            .map(d -> d.get("spring.config.activate.on-profile"))
            .filter(p -> p != null)
            .toList();
    assertThat(profiles).containsExactlyInAnyOrder("redis", "kafka", "cluster", "prod");
  }

  @Test
  void theJarCarriesConfigApplicationYamlAsItsDefaults() throws IOException {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("application.yaml")) {
      assertThat(in).as("application.yaml on the classpath").isNotNull();
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo(ProjectFiles.read(ApplicationConfig.FILE));
    }
  }

  /** docs/configuration.md has a row for every property of Eventide's own records. */
  @Test
  void docsDescribeEveryEventideProperty() throws IOException {
    List<String> own = new ArrayList<>();
    JsonNode metadata =
        JsonMapper.shared()
            .readTree(
                ProjectFiles.read("target/classes/META-INF/spring-configuration-metadata.json"));
    for (JsonNode p : metadata.path("properties")) {
      own.add(p.path("name").asString());
    }
    List<String> documented = new ArrayList<>();
    Matcher row =
        Pattern.compile("^\\| `(eventide\\.[a-z.-]+)` \\|", Pattern.MULTILINE)
            .matcher(ProjectFiles.read("docs/configuration.md"));
    while (row.find()) {
      documented.add(row.group(1));
    }
    assertThat(own).isNotEmpty().allMatch(name -> name.startsWith("eventide."));
    assertThat(documented).containsExactlyInAnyOrderElementsOf(own);
  }
}
