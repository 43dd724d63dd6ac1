package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.mailrestore.testkit.CyrusServer;
import org.mailrestore.testkit.DovecotServer;

/**
 * The real IMAP servers the tests start (Dovecot with its SQL userdb, Cyrus with its admin), as the
 * CLI addresses them, and what a real client (Python's imaplib, {@code imap/read-back.py}) reads
 * back from them.
 */
enum ImapServers {
  /** Accounts created by {@code --provision sql} in Dovecot's userdb; a master user acts. */
  DOVECOT,
  /** Accounts created beforehand by the admin ({@code CREATE user/...}); a proxy admin acts. */
  CYRUS;

  /** The server, started once per test JVM; the test is skipped where it is not installed. */
  Server start() throws Exception {
    return switch (this) {
      case DOVECOT -> {
        assumeTrue(DovecotServer.installed(), "Dovecot is not installed: .ci/run installs it");
        DovecotServer dovecot = DovecotServer.get();
        yield new Server(
            this,
            dovecot.url(),
            DovecotServer.MASTER,
            DovecotServer.MASTER_PASSWORD,
            List.of("--provision", "sql", "--imap-sql-url", dovecot.usersJdbcUrl()));
      }
      case CYRUS -> {
        assumeTrue(CyrusServer.installed(), "Cyrus is not here: .ci/run installs it");
        CyrusServer cyrus = CyrusServer.get();
        yield new Server(
            this,
            cyrus.url(),
            CyrusServer.ADMIN,
            CyrusServer.ADMIN_PASSWORD,
            List.of("--imap-acl-all-users", "anyone"));
      }
    };
  }

  /** One started server: the CLI's options for it and the admin who acts for its users. */
  record Server(ImapServers kind, String url, String admin, String password, List<String> options) {

    /** The same server reached at another address (through a proxy). */
    Server through(String otherUrl) {
      return new Server(kind, otherUrl, admin, password, options);
    }

    /** The options of {@code restore run} and {@code verify} that write to this server. */
    List<String> targetArgs() {
      List<String> args = new ArrayList<>(List.of("--target", url, "--imap-starttls", "never"));
      args.addAll(options);
      return args;
    }

    /** The admin's credentials, as the CLI takes them (the environment, never the command line). */
    Map<String, String> environment() {
      return Map.of("MAILRESTORE_IMAP_USER", admin, "MAILRESTORE_IMAP_PASSWORD", password);
    }

    /** Creates the accounts where the server's provisioning is not ours to do. */
    void prepare(List<String> logins) throws IOException {
      if (kind == CYRUS) {
        for (String login : logins) {
          CyrusServer.get().addUser(login);
        }
      }
    }

    /**
     * Every message and ACL entry of these users as a real client reads them: lines {@code
     * M\tuser\tfolder\tflags\tsha256\tinternaldate} and {@code
     * A\tuser\tfolder\tidentifier\trights}.
     */
    List<String> readBack(Path workDir, List<String> logins) throws Exception {
      assumeTrue(python() != null, "python3 is not installed: the real-client check needs it");
      Path script = workDir.resolve("read-back.py");
      try (InputStream in = ImapServers.class.getResourceAsStream("/imap/read-back.py")) {
        Files.write(script, in.readAllBytes());
      }
      Path out = Files.createTempFile(workDir, "read-back-", ".tsv");
      Path err = Files.createTempFile(workDir, "read-back-", ".err");
      List<String> command = new ArrayList<>(List.of(python(), script.toString()));
      command.addAll(logins);
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      URI uri = URI.create(url);
      builder.environment().put("IMAP_HOST", uri.getHost());
      builder.environment().put("IMAP_PORT", String.valueOf(uri.getPort()));
      builder.environment().put("IMAP_ADMIN", admin);
      builder.environment().put("IMAP_PASSWORD", password);
      Process p = builder.start();
      assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("read-back.py finished").isTrue();
      assertThat(p.exitValue())
          .as("read-back.py: %s", Files.readString(err, StandardCharsets.UTF_8))
          .isZero();
      return Files.readAllLines(out, StandardCharsets.UTF_8);
    }
  }

  private static String python() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, "python3");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }
}
