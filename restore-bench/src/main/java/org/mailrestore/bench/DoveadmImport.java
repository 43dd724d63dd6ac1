package org.mailrestore.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The peer the benchmarks measure against: Dovecot's own {@code doveadm import} of Maildir trees
 * into mdbox stores, in single-user mode (no service), and what those stores then hold.
 */
final class DoveadmImport {

  private DoveadmImport() {}

  /** A whole import: its wall seconds, and the CPU seconds of all its processes. */
  record Imported(double seconds, double cpuSeconds) {}

  /** Imports every user's Maildir, {@code parallel} at a time. */
  static Imported importAll(
      Path doveadm, Path tree, List<String> users, Path store, int parallel, String fsync)
      throws Exception {
    Files.createDirectories(store.resolve("run"));
    Path config = store.resolve("dovecot.conf");
    Files.writeString(
        config,
        String.join(
            "\n",
            "mail_location = mdbox:~/mdbox",
            "mail_fsync = " + fsync,
            "ssl = no",
            "protocols =",
            "log_path = " + store.resolve("dovecot.log"),
            "base_dir = " + store.resolve("run"),
            ""),
        StandardCharsets.UTF_8);
    for (String user : users) {
      Files.createDirectories(store.resolve("home").resolve(user));
    }
    Processes.openToAll(store);
    long start = System.nanoTime();
    try (ExecutorService pool = Executors.newFixedThreadPool(parallel)) {
      List<Future<String>> runs = new ArrayList<>();
      for (String user : users) {
        List<String> command = new ArrayList<>();
        // time(1) outside runuser: it counts the user's processes it waited for, and writes as
        // root.
        command.addAll(
            List.of(
                ColdCli.TIME.toString(), "-o", timeFile(store, user).toString(), "-f", "%U %S"));
        command.addAll(
            doveadmAs(
                doveadm, store, user, "import", "-s", "maildir:" + tree.resolve(user), "", "ALL"));
        runs.add(pool.submit(() -> Processes.run(command, null)));
      }
      for (Future<String> f : runs) {
        f.get();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = 0;
    for (String user : users) {
      String[] t = Files.readString(timeFile(store, user)).strip().split("\\s+");
      cpu += Double.parseDouble(t[t.length - 2]) + Double.parseDouble(t[t.length - 1]);
    }
    return new Imported(seconds, cpu);
  }

  private static Path timeFile(Path store, String user) {
    return store.resolve("run").resolve(user + ".time");
  }

  /** How many messages Dovecot holds over all users. */
  static long count(Path doveadm, List<String> users, Path store) throws Exception {
    long total = 0;
    for (String user : users) {
      String out =
          Processes.run(
              doveadmAs(doveadm, store, user, "-f", "flow", "mailbox", "status", "messages", "*"),
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
   * A doveadm command on the store's configuration in Dovecot's single-user mode: no auth service,
   * the user and home from the environment.
   */
  private static List<String> doveadmAs(Path doveadm, Path store, String user, String... args) {
    List<String> full = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      full.addAll(List.of("runuser", "-u", "nobody", "--"));
    }
    full.addAll(
        List.of(
            "env", "HOME=" + store.resolve("home").resolve(user), "USER=" + user, "LANG=C.UTF-8"));
    full.addAll(List.of(doveadm.toString(), "-c", store.resolve("dovecot.conf").toString()));
    full.addAll(List.of(args));
    return full;
  }

  static String version() throws Exception {
    return "Dovecot " + Processes.run(List.of("/usr/sbin/dovecot", "--version"), null).strip();
  }
}
