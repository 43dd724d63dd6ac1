package org.mailrestore.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.mailrestore.mail.Json;
import tools.jackson.databind.JsonNode;

/**
 * The service path (issue 43, goal 3): a Maildir tree restored by a restore posted to a running
 * {@code mailrestore serve}, as REST-triggered restores run, timed from the POST to the operation's
 * end. Each measured restore has a service, a database and a packed volume of its own (the
 * service's volume is its configuration), so none finds another's blobs already stored.
 */
final class ServicePath {

  /** One restore: seconds from the POST to the end, and the service's CPU meanwhile. */
  record Timed(double seconds, double serviceCpuSeconds) {}

  private ServicePath() {}

  /**
   * Starts a service ({@code name}: its database and directories under {@code work}), restores
   * {@code warmUp} first when given (a Maildir tree, unmeasured: a service whose compiler has seen
   * a restore), then the tree, measured; each restore must complete with no item failed.
   */
  static Timed measure(
      ServerOptions mariadb, Path work, String name, Path tree, String domain, Path warmUp)
      throws Exception {
    return measure(
        mariadb,
        work,
        name,
        tree,
        domain,
        warmUp,
        List.of(
            "--mailrestore.volume.kind=packed-local",
            "--mailrestore.volume.location=" + work.resolve(name + "-volume")),
        Map.of());
  }

  /**
   * As above, the service started with these settings (its targets, say) and environment (their
   * secrets); the warm-up goes to {@code warm-<domain>}.
   */
  static Timed measure(
      ServerOptions mariadb,
      Path work,
      String name,
      Path tree,
      String domain,
      Path warmUp,
      List<String> settings,
      Map<String, String> environment)
      throws Exception {
    try (BenchDatabase db =
            new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), name, 1);
        BenchService service =
            new BenchService(work.resolve(name), db, mariadb, work, settings, environment)) {
      if (warmUp != null) {
        restore(service, maildir(warmUp, "warm-" + domain));
      }
      long cpuBefore = Processes.cpuTicks(service.pid(), false);
      long start = System.nanoTime();
      restore(service, maildir(tree, domain));
      double seconds = (System.nanoTime() - start) / 1e9;
      double cpu =
          (Processes.cpuTicks(service.pid(), false) - cpuBefore) / Processes.TICKS_PER_SECOND;
      return new Timed(seconds, cpu);
    }
  }

  private static Map<String, Object> maildir(Path tree, String domain) {
    return Map.of(
        "kind", "maildir", "location", tree.toString(), "options", Map.of("domain", domain));
  }

  private static JsonNode restore(BenchService service, Map<String, Object> source)
      throws Exception {
    String body = Json.MAPPER.writeValueAsString(Map.of("source", source));
    String id = service.send("POST", "/api/v1/restores", body).path("id").asString();
    JsonNode ended = service.awaitEnd(id);
    // COMPLETED: every item restored (a failed item makes it PARTIAL)
    if (!"COMPLETED".equals(ended.path("state").asString())) {
      throw new IllegalStateException(
          "the service's restore of "
              + source.get("location")
              + " ended "
              + ended.path("state").asString()
              + ": "
              + ended.path("message").asString());
    }
    return ended;
  }
}
