package io.eventide.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.ApplicationConversionService;
import tools.jackson.databind.json.JsonMapper;

/** docker/Dockerfile and docker/compose.yaml against the application; no Docker engine needed. */
class DockerFilesTest {
  private static final KnownProperties KNOWN = KnownProperties.load();
  private static final ApplicationConfig DEFAULTS = ApplicationConfig.defaults();

  /** Read by the image's ENTRYPOINT rather than by the application. */
  private static final Set<String> READ_BY_ENTRYPOINT = Set.of("JAVA_OPTS");

  private final Dockerfile dockerfile = Dockerfile.parse(ProjectFiles.read("docker/Dockerfile"));

  @Test
  void buildsWithMavenAndRunsOnAJre() {
    List<String> froms = dockerfile.all("FROM");
    assertThat(froms).hasSize(2);
    assertThat(froms.get(0)).isEqualTo("maven:3.9-eclipse-temurin-17 AS build");
    assertThat(froms.get(1)).startsWith("eclipse-temurin:17-jre");
    assertThat(dockerfile.inFinalStage("COPY")).startsWith("--from=build ");
  }

  @Test
  void runsAsANumericNonRootUser() {
    String user = dockerfile.inFinalStage("USER");
    assertThat(user).matches("\\d+(:\\d+)?");
    assertThat(Integer.parseInt(user.split(":")[0])).isPositive();
  }

  @Test
  void exposesAndChecksTheServerPort() {
    int port = DEFAULTS.serverPort();
    assertThat(dockerfile.inFinalStage("EXPOSE")).isEqualTo(String.valueOf(port));
    assertThat(dockerfile.inFinalStage("HEALTHCHECK"))
        .contains("CMD wget ")
        .contains(
            "http://localhost:${SERVER_PORT:-"
                + port
                + "}"
                + DEFAULTS.actuatorPath("health/liveness"));
  }

  @Test
  void entryPointExecsJavaWithJavaOpts() {
    List<String> entrypoint =
        Arrays.asList(
            JsonMapper.shared().readValue(dockerfile.inFinalStage("ENTRYPOINT"), String[].class));
    assertThat(entrypoint.subList(0, 2)).containsExactly("sh", "-c");
    assertThat(entrypoint.get(2)).startsWith("exec java $JAVA_OPTS -jar /app/eventide.jar");
    assertThat(dockerfile.inFinalStage("WORKDIR")).isEqualTo("/app");
  }

  @Test
  void everyVariableTheImageSetsIsRead() {
    for (String env :
        dockerfile.finalStage().stream()
            .filter(i -> i.keyword().equals("ENV"))
            .map(i -> i.arguments().split("=", 2)[0])
            .toList()) {
      assertThat(READ_BY_ENTRYPOINT.contains(env) || KNOWN.isBoundByEnvironment(env))
          .as("%s is read by the entry point or the application", env)
          .isTrue();
    }
  }

  @Test
  void theBuildContextKeepsWhatTheBuildNeeds() {
    List<String> ignored =
        ProjectFiles.read("docker/Dockerfile.dockerignore")
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    for (String needed : List.of("pom.xml", "src", "config", "openapi.yaml", ".git")) {
      assertThat(ignored).noneMatch(p -> p.replaceAll("^/|/$", "").equals(needed) || p.equals("*"));
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> service(String name) {
    Map<String, Object> services =
        (Map<String, Object>) ProjectFiles.yamlMap("docker/compose.yaml").get("services");
    assertThat(services).containsKeys("redis", "kafka", "eventide");
    return (Map<String, Object>) services.get(name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> environment(String service) {
    Map<String, Object> env = (Map<String, Object>) service(service).get("environment");
    return env.entrySet().stream()
        .collect(
            java.util.stream.Collectors.toMap(
                Map.Entry::getKey, e -> String.valueOf(e.getValue())));
  }

  @Test
  @SuppressWarnings("unchecked")
  void composeBuildsThisDockerfile() {
    Map<String, Object> build = (Map<String, Object>) service("eventide").get("build");
    Path context = ProjectFiles.path("docker").resolve((String) build.get("context")).normalize();
    assertThat(context).isEqualTo(ProjectFiles.ROOT);
    assertThat(Files.isRegularFile(context.resolve((String) build.get("dockerfile")))).isTrue();
  }

  @Test
  void composeSetsOnlyVariablesTheAppReads() {
    Map<String, String> env = environment("eventide");
    assertThat(env).isNotEmpty();
    env.keySet()
        .forEach(
            name ->
                assertThat(READ_BY_ENTRYPOINT.contains(name) || KNOWN.isBoundByEnvironment(name))
                    .as("%s is read by the entry point or bound by the application", name)
                    .isTrue());
  }

  @Test
  void composeActivatesProfilesThatExist() {
    List<Object> defined =
        ApplicationConfig.documents().stream()
            .map(d -> d.get("spring.config.activate.on-profile"))
            .filter(p -> p != null)
            .toList();
    assertThat(environment("eventide").get("SPRING_PROFILES_ACTIVE").split(","))
        .isNotEmpty()
        .allMatch(defined::contains);
  }

  @Test
  @SuppressWarnings("unchecked")
  void composePublishesTheServerPort() {
    List<Object> ports = (List<Object>) service("eventide").get("ports");
    assertThat(ports).anyMatch(p -> String.valueOf(p).endsWith(":" + DEFAULTS.serverPort()));
  }

  @Test
  @SuppressWarnings("unchecked")
  void composePublishesOnlyEventideAndOnlyOnLoopback() {
    List<Object> ports = (List<Object>) service("eventide").get("ports");
    assertThat(ports).isNotEmpty().allMatch(p -> String.valueOf(p).startsWith("127.0.0.1:"));
    assertThat(service("redis")).doesNotContainKey("ports");
    assertThat(service("kafka")).doesNotContainKey("ports");
  }

  @Test
  void composeRunsWithSecurityOn() {
    assertThat(environment("eventide")).containsEntry("EVENTIDE_SECURITY_ENABLED", "true");
  }

  /**
   * Compose runs a deployment, so with what Kubernetes runs (k8s/deployment.yaml): the {@code prod}
   * profile's structured logs and security, not security alone over the laptop's defaults.
   */
  @Test
  void composeRunsTheProdProfileAsKubernetesDoes() {
    List<String> profiles =
        List.of(environment("eventide").get("SPRING_PROFILES_ACTIVE").split(","));
    assertThat(profiles).containsExactlyInAnyOrder("cluster", "prod");
    ApplicationConfig config = ApplicationConfig.of(profiles);
    assertThat(config.get("eventide.security.enabled", "false")).isEqualTo("true");
    assertThat(config.get("logging.structured.format.console", "")).isEqualTo("ecs");
  }

  /**
   * The admin key's hash comes from the operator's environment, and Compose refuses to start
   * without one ({@code ${VAR:?message}}): there is no default key to forget to change.
   */
  @Test
  void composeTakesTheAdminKeyFromTheEnvironmentAndWillNotStartWithout() {
    Map<String, String> env = environment("eventide");
    assertThat(env).containsEntry("EVENTIDE_SECURITY_APIKEYS_0_NAME", "admin");
    assertThat(env).containsEntry("EVENTIDE_SECURITY_APIKEYS_0_ADMIN_0", "*");
    assertThat(env.get("EVENTIDE_SECURITY_APIKEYS_0_SHA256"))
        .matches("\\$\\{EVENTIDE_ADMIN_KEY_SHA256:\\?[^}]+}");
    assertThat(ProjectFiles.read("docs/operations.md")).contains("EVENTIDE_ADMIN_KEY_SHA256");
  }

  @Test
  void composeWiresEventideToRedisAndKafka() {
    Map<String, String> env = environment("eventide");
    URI redis = URI.create(env.get("SPRING_DATA_REDIS_URL"));
    assertThat(redis.getHost()).isEqualTo("redis");

    Matcher advertised =
        Pattern.compile("PLAINTEXT://([^,]+)")
            .matcher(environment("kafka").get("KAFKA_ADVERTISED_LISTENERS"));
    assertThat(advertised.find()).isTrue();
    assertThat(env.get("SPRING_KAFKA_BOOTSTRAP_SERVERS")).isEqualTo(advertised.group(1));
    assertThat(environment("kafka").get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
  }

  @Test
  @SuppressWarnings("unchecked")
  void composeStartsEventideOnceItsServicesAreHealthy() {
    Map<String, Object> dependsOn = (Map<String, Object>) service("eventide").get("depends_on");
    for (String name : List.of("redis", "kafka")) {
      assertThat((Map<String, Object>) dependsOn.get(name))
          .containsEntry("condition", "service_healthy");
      assertThat(service(name)).containsKey("healthcheck");
    }
  }

  @Test
  void composeLetsGracefulShutdownFinish() {
    Duration grace =
        ApplicationConversionService.getSharedInstance()
            .convert(String.valueOf(service("eventide").get("stop_grace_period")), Duration.class);
    assertThat(grace).isGreaterThan(DEFAULTS.shutdownTimeout());
  }
}
