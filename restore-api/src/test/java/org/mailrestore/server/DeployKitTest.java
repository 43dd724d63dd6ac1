package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The deploy kits (deploy/, grafana/) parse, and agree with the application: the image, the port,
 * the health and metrics paths, and every environment variable binds to a real setting.
 */
class DeployKitTest {

  /** Variables that are not mailrestore settings but that the kits may set. */
  private static final Set<String> OTHER_VARIABLES =
      Set.of(
          "SPRING_DATASOURCE_URL",
          "SPRING_DATASOURCE_USERNAME",
          "SPRING_DATASOURCE_PASSWORD",
          "JAVA_TOOL_OPTIONS",
          "LC_ALL");

  private static final String IMAGE = "mailrestore:0.1.0";
  private static final String DATASOURCE_UID = "mailrestore-prometheus";

  static Path root;
  static Map<String, Object> application;
  static int port;

  @BeforeAll
  static void readApplication() throws IOException {
    root = Path.of("..").toAbsolutePath().normalize();
    assertThat(root.resolve("deploy")).isDirectory();
    try (InputStream in = DeployKitTest.class.getResourceAsStream("/application.yaml")) {
      application = new Yaml().load(in);
    }
    port = (Integer) path(application, "server.port");
    assertThat(String.valueOf(path(application, "management.endpoints.web.exposure.include")))
        .contains("health")
        .contains("prometheus");
    assertThat(path(application, "management.endpoint.health.probes.enabled")).isEqualTo(true);
  }

  @Test
  void composeStartsEverythingAndConfiguresTheServiceAsTheApplicationReadsIt() throws IOException {
    Path dir = root.resolve("deploy/compose");
    Map<String, Object> compose = yaml(dir.resolve("compose.yaml"));
    Map<String, Object> services = map(compose.get("services"));
    assertThat(services).containsKeys("mariadb", "s3", "mailrestore", "prometheus", "grafana");
    services.forEach((name, s) -> {
      String image = (String) map(s).get("image");
      assertThat(image).as("image of %s", name).isNotNull().contains(":").doesNotEndWith(":latest");
    });

    Map<String, Object> service = map(services.get("mailrestore"));
    assertThat(service.get("image")).isEqualTo(IMAGE);
    assertThat(map(service.get("build")).get("dockerfile")).isEqualTo("deploy/Dockerfile");
    assertThat(list(service.get("ports"))).contains(port + ":" + port);
    Map<String, String> env = strings(map(service.get("environment")));
    assertSettings(env, "compose");
    assertThat(env.get("SPRING_DATASOURCE_URL")).startsWith("jdbc:mariadb://mariadb:3306/");
    String profile = env.get("MAILRESTORE_VOLUME_S3PROFILE").toUpperCase(java.util.Locale.ROOT);
    assertThat(env)
        .containsKey("MAILRESTORE_S3PROFILES_" + profile + "_ENDPOINT")
        .containsEntry("MAILRESTORE_S3PROFILES_" + profile + "_ENDPOINT", "http://s3:9000");

    // Prometheus and Grafana get the shipped files, mounted where their configuration expects.
    assertMountsExist(dir, map(services.get("prometheus")));
    assertMountsExist(dir, map(services.get("grafana")));
    assertThat(list(map(services.get("prometheus")).get("volumes")))
        .contains("../prometheus:/etc/prometheus:ro");
    Map<String, Object> provider =
        map(
            list(yaml(root.resolve("grafana/provisioning/dashboards/mailrestore.yaml"))
                    .get("providers"))
                .getFirst());
    String dashboards = (String) map(provider.get("options")).get("path");
    assertThat(list(map(services.get("grafana")).get("volumes")))
        .contains("../../grafana/dashboards:" + dashboards + ":ro");
  }

  @Test
  void kubernetesManifestsRunSeveralProbedReplicasOfTheSameImage() throws IOException {
    Path dir = root.resolve("deploy/kubernetes");
    Map<String, Map<String, Object>> byKind = new LinkedHashMap<>();
    List<String> files = new ArrayList<>();
    try (Stream<Path> paths = Files.list(dir)) {
      for (Path p : paths.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        Map<String, Object> doc = yaml(p);
        byKind.put((String) doc.get("kind"), doc);
        if (!p.getFileName().toString().equals("kustomization.yaml")) {
          files.add(p.getFileName().toString());
        }
      }
    }
    assertThat(byKind)
        .containsKeys(
            "Deployment",
            "Service",
            "ConfigMap",
            "ServiceMonitor",
            "Kustomization",
            "PodDisruptionBudget",
            "NetworkPolicy");
    assertThat(strings(list(byKind.get("Kustomization").get("resources"))))
        .containsExactlyInAnyOrderElementsOf(files);

    Map<String, Object> spec = map(byKind.get("Deployment").get("spec"));
    assertThat((Integer) spec.get("replicas")).isGreaterThanOrEqualTo(2);
    Map<String, Object> pod = map(map(spec.get("template")).get("spec"));
    assertThat(map(pod.get("securityContext")).get("runAsNonRoot")).isEqualTo(true);
    assertThat(path(pod, "securityContext.seccompProfile.type")).isEqualTo("RuntimeDefault");
    assertThat(pod.get("automountServiceAccountToken")).isEqualTo(false);
    Map<String, Object> container = map(list(pod.get("containers")).getFirst());
    assertThat(path(container, "lifecycle.preStop")).isNotNull();
    assertThat(path(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
    assertThat(container.get("image")).isEqualTo(IMAGE);
    Map<String, Object> http = map(list(container.get("ports")).getFirst());
    assertThat(http).containsEntry("name", "http").containsEntry("containerPort", port);
    assertThat(path(container, "livenessProbe.httpGet.path"))
        .isEqualTo("/actuator/health/liveness");
    assertThat(path(container, "startupProbe.httpGet.path")).isEqualTo("/actuator/health/liveness");
    assertThat(path(container, "readinessProbe.httpGet.path"))
        .isEqualTo("/actuator/health/readiness");
    assertThat(path(container, "resources.requests.memory")).isNotNull();
    assertThat(path(container, "resources.limits.memory")).isNotNull();

    // The variables: the ConfigMap's, and the container's own (from the Secret, or literal).
    Map<String, Object> configMap = byKind.get("ConfigMap");
    assertThat(path(container, "envFrom")).asString().contains("name=" + name(configMap));
    Map<String, String> env = new HashMap<>(strings(map(configMap.get("data"))));
    String readme = Files.readString(dir.resolve("README.md"));
    for (Object o : list(container.get("env"))) {
      Map<String, Object> e = map(o);
      Object secret = path(e, "valueFrom.secretKeyRef");
      if (secret != null) {
        String key = (String) map(secret).get("key");
        assertThat(readme).as("README explains the Secret's key %s", key).contains(key);
      }
      env.put((String) e.get("name"), e.get("value") == null ? "x" : (String) e.get("value"));
    }
    assertSettings(env, "kubernetes");

    Map<String, Object> service = byKind.get("Service");
    assertThat(path(service, "metadata.annotations"))
        .asString()
        .contains("prometheus.io/path=/actuator/prometheus")
        .contains("prometheus.io/port=" + port);
    assertThat(map(list(path(service, "spec.ports")).getFirst()))
        .containsEntry("targetPort", "http")
        .containsEntry("port", port);
    assertThat(map(list(path(byKind.get("ServiceMonitor"), "spec.endpoints")).getFirst()))
        .containsEntry("path", "/actuator/prometheus")
        .containsEntry("port", "http");
  }

  @Test
  void dockerfileRunsAsNonRootOnTheApplicationPortWithAHealthCheck() throws IOException {
    String dockerfile = Files.readString(root.resolve("deploy/Dockerfile"));
    assertThat(dockerfile).contains("EXPOSE " + port);
    assertThat(dockerfile).containsPattern("(?m)^USER 10001");
    assertThat(dockerfile).contains("127.0.0.1:" + port + "/actuator/health/liveness");
    assertThat(dockerfile).contains("extract --layers --launcher");
    Matcher env = Pattern.compile("(?m)\\b(MAILRESTORE_[A-Z0-9_]+)=(\\S+)").matcher(dockerfile);
    Map<String, String> variables = new HashMap<>();
    while (env.find()) {
      variables.put(env.group(1), env.group(2));
    }
    assertThat(variables).isNotEmpty();
    assertSettings(variables, "Dockerfile");
  }

  @Test
  void systemdUnitAndItsEnvironmentFile() throws IOException {
    Path dir = root.resolve("deploy/systemd");
    String unit = Files.readString(dir.resolve("mailrestore.service"));
    assertThat(unit).contains("mailrestore.jar serve").contains("User=mailrestore");
    assertThat(unit)
        .contains("ReadWritePaths=-/var/lib/mailrestore")
        .contains("PrivateDevices=yes")
        .contains("ProtectKernelModules=yes")
        .contains("ProtectKernelLogs=yes")
        .contains("RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6")
        .contains("SystemCallFilter=@system-service")
        .containsPattern("(?m)^CapabilityBoundingSet=$")
        .contains("UMask=0077")
        .contains("Environment=LC_ALL=C.UTF-8") // file names in UTF-8 (decision 0026)
        .doesNotContainPattern("(?m)^MemoryDenyWriteExecute");
    Map<String, String> env = new HashMap<>();
    for (String line : Files.readAllLines(dir.resolve("mailrestore.env.example"))) {
      if (!line.isBlank() && !line.startsWith("#")) {
        env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    Matcher inUnit = Pattern.compile("Environment=(\\w+)=(\\S+)").matcher(unit);
    while (inUnit.find()) {
      env.put(inUnit.group(1), inUnit.group(2));
    }
    assertSettings(env, "systemd");
  }

  @Test
  void prometheusScrapesTheMetricsPathOfTheApplicationPort() throws IOException {
    Path dir = root.resolve("deploy/prometheus");
    Map<String, Object> scrape =
        map(list(yaml(dir.resolve("prometheus.yml")).get("scrape_configs")).getFirst());
    assertThat(scrape.get("metrics_path")).isEqualTo("/actuator/prometheus");
    JsonNode targets =
        new ObjectMapper().readTree(dir.resolve("targets/mailrestore.json").toFile());
    assertThat(targets.get(0).get("targets").get(0).asString()).endsWith(":" + port);
  }

  @Test
  void dashboardsParseAndUseOnlyTheProvisionedDatasource() throws IOException {
    Map<String, Object> datasource =
        map(
            list(yaml(root.resolve("grafana/provisioning/datasources/prometheus.yaml"))
                    .get("datasources"))
                .getFirst());
    assertThat(datasource).containsEntry("uid", DATASOURCE_UID);
    ObjectMapper json = new ObjectMapper();
    List<String> uids = new ArrayList<>();
    try (Stream<Path> files = Files.list(root.resolve("grafana/dashboards"))) {
      for (Path file : files.sorted().toList()) {
        JsonNode dashboard = json.readTree(file.toFile());
        uids.add(dashboard.get("uid").asString());
        List<String> variables = dashboard.get("templating").get("list").findValuesAsString("name");
        assertThat(variables).as("%s", file).contains("job", "instance");
        List<JsonNode> datasources = dashboard.findValues("datasource");
        assertThat(datasources).as("%s", file).isNotEmpty();
        for (JsonNode ds : datasources) {
          assertThat(ds.get("uid").asString()).as("%s", file).isEqualTo(DATASOURCE_UID);
        }
        for (JsonNode panel : dashboard.get("panels")) {
          if (!panel.get("type").asString().equals("row")) {
            assertThat(panel.get("targets").size()).as("%s", panel.get("title")).isPositive();
            assertThat(panel.get("targets").findValuesAsString("expr")).doesNotContain("");
            assertThat(panel.at("/fieldConfig/defaults/unit").asString()).isNotBlank();
          }
        }
      }
    }
    assertThat(uids)
        .containsExactlyInAnyOrder(
            "mailrestore-overview", "mailrestore-pipeline", "mailrestore-resources");
  }

  /**
   * Every variable binds to a setting the application reads: all together they bind, and leaving
   * any one out changes what {@link ServerSettings} binds to (a misspelt name changes nothing).
   */
  private static void assertSettings(Map<String, String> env, String where) {
    ServerSettings all = bind(env);
    for (String name : env.keySet()) {
      if (name.startsWith("MAILRESTORE_")) {
        Map<String, String> without = new HashMap<>(env);
        without.remove(name);
        assertThat(bind(without))
            .as("%s: %s binds to no setting of mailrestore", where, name)
            .isNotEqualTo(all);
      } else {
        assertThat(OTHER_VARIABLES).as("%s: %s", where, name).contains(name);
      }
    }
  }

  private static ServerSettings bind(Map<String, ? extends Object> env) {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment
        .getPropertySources()
        .remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    @SuppressWarnings("unchecked")
    Map<String, Object> source = (Map<String, Object>) env;
    environment
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, source));
    return Binder.get(environment).bindOrCreate("mailrestore", ServerSettings.class);
  }

  private static void assertMountsExist(Path composeDir, Map<String, Object> service) {
    for (Object v : list(service.get("volumes"))) {
      String host = ((String) v).split(":")[0];
      if (host.startsWith(".")) {
        assertThat(composeDir.resolve(host).normalize()).as("mount %s", v).exists();
      }
    }
  }

  private static String name(Map<String, Object> doc) {
    return (String) map(doc.get("metadata")).get("name");
  }

  private static Map<String, Object> yaml(Path file) throws IOException {
    return new Yaml().load(Files.readString(file));
  }

  private static Object path(Map<String, Object> map, String dotted) {
    Object at = map;
    for (String key : dotted.split("\\.")) {
      if (!(at instanceof Map<?, ?> m)) {
        return null;
      }
      at = m.get(key);
    }
    return at;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    assertThat(o).isInstanceOf(Map.class);
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object o) {
    assertThat(o).isInstanceOf(List.class);
    return (List<Object>) o;
  }

  private static Map<String, String> strings(Map<String, Object> map) {
    Map<String, String> out = new HashMap<>();
    map.forEach((k, v) -> out.put(k, String.valueOf(v)));
    return out;
  }

  private static List<String> strings(List<Object> list) {
    return list.stream().map(String::valueOf).toList();
  }
}
