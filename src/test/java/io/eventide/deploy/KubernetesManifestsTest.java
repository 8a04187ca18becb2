package io.eventide.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** k8s/ against the application's configuration and the image. */
@SuppressWarnings("unchecked")
class KubernetesManifestsTest {
  private static final KnownProperties KNOWN = KnownProperties.load();
  private static final Set<String> READ_BY_ENTRYPOINT = Set.of("JAVA_OPTS");

  private static Map<String, Object> manifest(String file) {
    return ProjectFiles.yamlMap("k8s/" + file);
  }

  private static Object at(Map<String, Object> map, String dottedPath) {
    Object node = map;
    for (String key : dottedPath.split("\\.")) {
      assertThat(node).as(dottedPath).isInstanceOf(Map.class);
      node = ((Map<String, Object>) node).get(key);
    }
    return node;
  }

  private static Map<String, Object> map(Map<String, Object> map, String dottedPath) {
    return (Map<String, Object>) at(map, dottedPath);
  }

  private static List<Object> list(Map<String, Object> map, String dottedPath) {
    return (List<Object>) at(map, dottedPath);
  }

  private static Map<String, Object> container() {
    List<Object> containers = list(manifest("deployment.yaml"), "spec.template.spec.containers");
    assertThat(containers).hasSize(1);
    return (Map<String, Object>) containers.get(0);
  }

  private static String configMapYaml() {
    return (String) map(manifest("configmap.yaml"), "data").get("application.yaml");
  }

  /** What the pod runs with: the built-in defaults, its profiles, and the ConfigMap over them. */
  private static ApplicationConfig podConfig() {
    List<String> profiles = new ArrayList<>();
    for (Object e : list(container(), "env")) {
      Map<String, Object> env = (Map<String, Object>) e;
      if ("SPRING_PROFILES_ACTIVE".equals(env.get("name"))) {
        profiles.addAll(List.of(((String) env.get("value")).split(",")));
      }
    }
    return ApplicationConfig.of(profiles, configMapYaml());
  }

  private static int httpPort() {
    List<Object> ports = list(container(), "ports");
    assertThat(ports).hasSize(1);
    Map<String, Object> port = (Map<String, Object>) ports.get(0);
    assertThat(port).containsEntry("name", "http");
    return (Integer) port.get("containerPort");
  }

  @Test
  void kustomizationListsEveryManifest() throws IOException {
    List<Object> listed = list(manifest("kustomization.yaml"), "resources");
    List<String> files;
    try (Stream<Path> all = Files.list(ProjectFiles.path("k8s"))) {
      files =
          all.map(p -> p.getFileName().toString())
              .filter(f -> f.endsWith(".yaml") && !f.equals("kustomization.yaml"))
              .toList();
    }
    assertThat(listed).containsExactlyInAnyOrderElementsOf(files);
    assertThat(files.stream().map(f -> manifest(f).get("kind")))
        .containsExactlyInAnyOrder(
            "Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler", "PodDisruptionBudget");
  }

  @Test
  void containerPortIsTheServerPort() {
    assertThat(httpPort()).isEqualTo(podConfig().serverPort());
  }

  @Test
  void probesHitTheHealthGroupsOnTheActuatorPort() {
    ApplicationConfig config = podConfig();
    assertThat(config.managementPort()).isEqualTo(httpPort());
    for (String[] probe :
        List.of(
            new String[] {"startupProbe", "liveness"},
            new String[] {"livenessProbe", "liveness"},
            new String[] {"readinessProbe", "readiness"})) {
      Map<String, Object> get = map(container(), probe[0] + ".httpGet");
      assertThat(get.get("path")).isEqualTo(config.actuatorPath("health/" + probe[1]));
      assertThat(get.get("port")).isEqualTo("http");
    }
    assertThat(config.get("management.endpoint.health.probes.enabled", "false")).isEqualTo("true");
  }

  @Test
  void prometheusScrapesTheActuatorEndpoint() {
    Map<String, Object> annotations =
        map(manifest("deployment.yaml"), "spec.template.metadata.annotations");
    assertThat(annotations)
        .containsEntry("prometheus.io/path", podConfig().actuatorPath("prometheus"))
        .containsEntry("prometheus.io/port", String.valueOf(httpPort()));
  }

  @Test
  void runsAsTheImagesNonRootUserOnAReadOnlyRootFilesystem() {
    Map<String, Object> pod =
        map(manifest("deployment.yaml"), "spec.template.spec.securityContext");
    assertThat(pod).containsEntry("runAsNonRoot", true);
    String imageUser =
        Dockerfile.parse(ProjectFiles.read("docker/Dockerfile")).inFinalStage("USER");
    assertThat(String.valueOf(pod.get("runAsUser"))).isEqualTo(imageUser.split(":")[0]);
    Map<String, Object> own = map(container(), "securityContext");
    assertThat(own)
        .containsEntry("readOnlyRootFilesystem", true)
        .containsEntry("allowPrivilegeEscalation", false);
    assertThat(list(own, "capabilities.drop")).containsExactly("ALL");
  }

  @Test
  void configMapIsMountedWhereSpringBootLooksAndHoldsOnlyKnownSettings() {
    String workdir =
        Dockerfile.parse(ProjectFiles.read("docker/Dockerfile")).inFinalStage("WORKDIR");
    Map<String, Object> mount =
        list(container(), "volumeMounts").stream()
            .map(m -> (Map<String, Object>) m)
            .filter(m -> "config".equals(m.get("name")))
            .findFirst()
            .orElseThrow();
    assertThat(mount.get("mountPath")).isEqualTo(workdir + "/config");
    Map<String, Object> volume =
        list(manifest("deployment.yaml"), "spec.template.spec.volumes").stream()
            .map(v -> (Map<String, Object>) v)
            .filter(v -> "config".equals(v.get("name")))
            .findFirst()
            .orElseThrow();
    assertThat(at(volume, "configMap.name"))
        .isEqualTo(at(manifest("configmap.yaml"), "metadata.name"));

    List<Object> docs = ProjectFiles.yamlDocumentsOf(new java.io.StringReader(configMapYaml()));
    assertThat(docs).hasSize(1);
    assertThat(ProjectFiles.flatten((Map<?, ?>) docs.get(0)).keySet())
        .isNotEmpty()
        .allMatch(KNOWN::isKnown, "is a property the application binds");
  }

  @Test
  void everyVariableIsReadAndSecretsAreReferencedNotCommitted() {
    for (Object e : list(container(), "env")) {
      Map<String, Object> env = (Map<String, Object>) e;
      String name = (String) env.get("name");
      assertThat(READ_BY_ENTRYPOINT.contains(name) || KNOWN.isBoundByEnvironment(name))
          .as("%s is read by the entry point or bound by the application", name)
          .isTrue();
      if (env.containsKey("valueFrom")) {
        Map<String, Object> ref = map(env, "valueFrom.secretKeyRef");
        assertThat(ref)
            .containsEntry("name", "eventide-credentials")
            .containsEntry("optional", true);
      }
    }
    try (Stream<Path> all = Files.list(ProjectFiles.path("k8s"))) {
      assertThat(all.map(p -> manifest(p.getFileName().toString()).get("kind")))
          .doesNotContain("Secret");
    } catch (IOException ex) {
      throw new java.io.UncheckedIOException(ex);
    }
  }

  @Test
  void terminationGraceOutlastsPreStopAndGracefulShutdown() {
    Map<String, Object> spec = map(manifest("deployment.yaml"), "spec.template.spec");
    List<Object> preStop = list(container(), "lifecycle.preStop.exec.command");
    assertThat(preStop.get(0)).isEqualTo("sleep");
    long preStopSeconds = Long.parseLong((String) preStop.get(1));
    long grace = ((Integer) spec.get("terminationGracePeriodSeconds")).longValue();
    assertThat(grace).isGreaterThan(preStopSeconds + podConfig().shutdownTimeout().toSeconds());
    assertThat(podConfig().get("server.shutdown", "immediate")).isEqualTo("graceful");
  }

  @Test
  void requestsAndLimitsResources() {
    Map<String, Object> resources = map(container(), "resources");
    assertThat(map(resources, "requests")).containsKeys("cpu", "memory");
    assertThat(map(resources, "limits")).containsKeys("memory");
  }

  @Test
  void serviceHpaAndPdbTargetTheDeployment() {
    Map<String, Object> deployment = manifest("deployment.yaml");
    Map<String, Object> labels = map(deployment, "spec.template.metadata.labels");
    assertThat(map(deployment, "spec.selector.matchLabels")).isEqualTo(labels);

    Map<String, Object> service = manifest("service.yaml");
    assertThat(map(service, "spec.selector")).isEqualTo(labels);
    assertThat(list(service, "spec.ports"))
        .allMatch(p -> "http".equals(((Map<String, Object>) p).get("targetPort")));

    Map<String, Object> hpa = manifest("hpa.yaml");
    assertThat(map(hpa, "spec.scaleTargetRef"))
        .containsEntry("kind", "Deployment")
        .containsEntry("name", at(deployment, "metadata.name"));
    assertThat((Integer) at(hpa, "spec.minReplicas"))
        .isLessThanOrEqualTo((Integer) at(hpa, "spec.maxReplicas"));

    assertThat(map(manifest("pdb.yaml"), "spec.selector.matchLabels")).isEqualTo(labels);
  }
}
