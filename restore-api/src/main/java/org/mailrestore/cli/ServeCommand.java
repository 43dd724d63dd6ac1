package org.mailrestore.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.mailrestore.server.MailrestoreServer;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** {@code mailrestore serve}: the REST service. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run the REST service (see docs/service.md). Settings: application.yaml beside the jar, the"
          + " environment, or --name=value arguments, e.g. --server.port=8081"
          + " --spring.datasource.url=jdbc:mariadb://db:3306/mailstore"
          + " --mailrestore.volume.location=/srv/blobs"
          + " --mailrestore.sources.allowed-roots=/srv/backups.",
      "Without spring.datasource.url it starts an embedded MariaDB under --mailrestore.data-dir."
    })
final class ServeCommand implements Callable<Integer> {

  @Option(names = "--port", description = "The HTTP port (default: 8080)")
  Integer port;

  @Unmatched List<String> springArguments = new ArrayList<>();

  @Override
  public Integer call() {
    List<String> args = new ArrayList<>(springArguments);
    if (port != null) {
      args.add("--server.port=" + port);
    }
    ConfigurableApplicationContext context;
    try {
      context = MailrestoreServer.start(args.toArray(String[]::new));
    } catch (RuntimeException e) {
      throw new IllegalStateException("the service did not start: " + ownReason(e), e);
    }
    String served = context.getEnvironment().getProperty("local.server.port", String.valueOf(port));
    System.out.println(
        "mailrestore: the console is at http://localhost:"
            + served
            + "/ (or this host's name); sign in with an API token"
            + " (mailrestore.security.tokens) or user:password (mailrestore.security.users),"
            + " see docs/console.md");
    // The service runs on its own (non-daemon) threads until it is stopped.
    return MailrestoreCli.RUNS_ON;
  }

  /**
   * The reason a start failed as our code gave it (a setting named, say), not the framework's
   * wrapping of it in the beans it was creating.
   */
  private static String ownReason(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (!t.getClass().getName().startsWith("org.springframework.") && t.getMessage() != null) {
        return t.getMessage();
      }
    }
    return String.valueOf(failure.getMessage());
  }
}
