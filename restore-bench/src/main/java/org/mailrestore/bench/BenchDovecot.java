package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.mailrestore.testkit.LocalDaemons;

/**
 * The IMAP benchmark's Dovecot: mdbox with the default fsync ({@code optimized}), a loopback port,
 * a master user, every user accepted (static userdb, homes under its own directory), so each
 * contender writes into users of its own domain. Not the package's system service.
 */
final class BenchDovecot implements AutoCloseable {

  static final String MASTER = "bench-master";

  final int port;
  final String masterPassword;
  private final Path dir;
  private final long pid;

  private BenchDovecot(Path dir, int port, long pid, String masterPassword) {
    this.dir = dir;
    this.port = port;
    this.pid = pid;
    this.masterPassword = masterPassword;
  }

  static BenchDovecot start(Path dir) throws Exception {
    Files.createDirectories(dir.resolve("run"));
    Files.createDirectories(dir.resolve("mail"));
    int port = LocalDaemons.freePort();
    boolean root = "root".equals(System.getProperty("user.name"));
    String me = System.getProperty("user.name");
    String password = "m-" + UUID.randomUUID();
    Files.writeString(dir.resolve("master.passwd"), MASTER + ":{PLAIN}" + password + "\n");
    String users =
        root
            ? "mail_uid = mail\nmail_gid = mail\nfirst_valid_uid = 8\nfirst_valid_gid = 8\n"
            : "default_internal_user = %1$s\ndefault_login_user = %1$s\ndefault_internal_group = %1$s\n"
                .formatted(me);
    Files.writeString(
        dir.resolve("dovecot.conf"),
        """
        base_dir = %1$s/run
        state_dir = %1$s/run
        log_path = %1$s/dovecot.log
        protocols = imap
        listen = 127.0.0.1
        ssl = no
        disable_plaintext_auth = no
        auth_mechanisms = plain login
        auth_master_user_separator = *
        mail_location = mdbox:~/mdbox
        %2$s
        service imap-login {
          inet_listener imap {
            address = 127.0.0.1
            port = %3$d
          }
          process_min_avail = 2
        }
        service stats {
          unix_listener stats-reader {
            mode = 0666
          }
          unix_listener stats-writer {
            mode = 0666
          }
        }
        passdb {
          driver = passwd-file
          master = yes
          args = %1$s/master.passwd
          pass = yes
        }
        passdb {
          driver = static
          args = password=%4$s
        }
        userdb {
          driver = static
          args = home=%1$s/mail/%%d/%%n allow_all_users=yes
        }
        namespace inbox {
          inbox = yes
          separator = /
        }
        """
            .formatted(dir, users, port, "unused-" + UUID.randomUUID()));
    Processes.run(List.of("chmod", "-R", "a+rX", dir.toString()), null);
    if (root) {
      Processes.run(List.of("chown", "-R", "mail:mail", dir.resolve("mail").toString()), null);
    }
    LocalDaemons.run(List.of("/usr/sbin/dovecot", "-c", dir.resolve("dovecot.conf").toString()));
    LocalDaemons.awaitPort(port, dir.resolve("dovecot.log"));
    return new BenchDovecot(dir, port, masterPid(dir.resolve("run/master.pid")), password);
  }

  /** The master's pid: Dovecot may write its file a moment after it listens. */
  private static long masterPid(Path file) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String pid = "";
    while (pid.isEmpty() && System.nanoTime() < deadline) {
      pid = Files.exists(file) ? Files.readString(file).strip() : "";
      if (pid.isEmpty()) {
        Thread.sleep(20);
      }
    }
    if (pid.isEmpty()) {
      throw new IOException("Dovecot wrote no pid to " + file + " within 10 s");
    }
    return Long.parseLong(pid);
  }

  /** Messages the server holds over these users' folders. */
  long messages(List<String> logins) throws Exception {
    long total = 0;
    for (String login : logins) {
      String out =
          Processes.run(
              List.of(
                  "/usr/bin/doveadm",
                  "-c",
                  dir.resolve("dovecot.conf").toString(),
                  "-f",
                  "flow",
                  "mailbox",
                  "status",
                  "-u",
                  login,
                  "messages",
                  "*"),
              null);
      for (String field : out.split("\\s+")) {
        if (field.startsWith("messages=")) {
          total += Long.parseLong(field.substring("messages=".length()));
        }
      }
    }
    return total;
  }

  /**
   * CPU seconds the server's processes used so far: the live ones', and those of the ones that
   * ended (the master reaped them: its children's times).
   */
  double cpuSeconds() throws IOException {
    long total = Processes.cpuTicks(pid, true);
    List<Long> live = new ArrayList<>();
    ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> live.add(d.pid())));
    for (long child : live) {
      total += Processes.cpuTicks(child, false);
    }
    return total / Processes.TICKS_PER_SECOND;
  }

  @Override
  public void close() throws Exception {
    Processes.run(
        List.of("/usr/bin/doveadm", "-c", dir.resolve("dovecot.conf").toString(), "stop"), null);
  }
}
