package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.mailrestore.restore.Concurrency;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Enron subset into a live Dovecot (mdbox, default fsync) three ways, in one run: {@code
 * doveadm import} (no protocol: the local limit), mbsync (pipelined IMAP, the best open-source
 * pusher), a cold {@code mailrestore restore run --target imap://} process, as a user runs it, and
 * a restore posted to a running service whose target is the server. Then one folder of {@code
 * --large} messages and one of 500 through mailrestore in the same small heap, for memory.
 */
@Command(
    name = "imap",
    mixinStandardHelpOptions = true,
    description =
        "mailrestore over IMAP into Dovecot next to doveadm import and mbsync on the Enron subset;"
            + " CPU per 10k messages; a large folder's memory next to a small one's.")
final class ImapCommand implements Callable<Integer> {

  @Mixin ServerOptions mariadb;

  @Option(names = "--corpus", description = "The Enron subset (as for the peer benchmark)")
  Path corpus;

  @Option(
      names = "--large",
      defaultValue = "75000",
      description = "Messages in the large folder (default: ${DEFAULT-VALUE})")
  int large;

  @Option(
      names = "--folder-heap",
      defaultValue = "256m",
      description =
          "The one heap of the large- and small-folder restores (default: ${DEFAULT-VALUE})")
  String folderHeap;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Path doveadm = Path.of("/usr/bin/doveadm");
    Path mbsync = Path.of("/usr/bin/mbsync");
    Path time = ColdCli.TIME;
    for (Path tool : List.of(doveadm, mbsync, time)) {
      if (!Files.isExecutable(tool)) {
        System.err.println(
            tool + " is missing: apt-get install dovecot-imapd isync time (Debian) to run this");
        return 2;
      }
    }
    ColdCli cli = ColdCli.prepared();
    Path work = Files.createTempDirectory("mailrestore-imap-bench");
    try {
      Path unpacked =
          PeerCommand.unpack(
              corpus != null ? corpus : PeerCommand.defaultCorpus(), work.resolve("corpus"));
      Path tree = work.resolve("maildir");
      long messages = MaildirTree.layOut(unpacked, tree);
      List<String> users;
      try (Stream<Path> s = Files.list(tree)) {
        users = s.map(p -> p.getFileName().toString()).sorted().toList();
      }
      // mbsync renames the files it pushes (it adds its UIDs): it gets a tree of its own.
      Processes.run(
          List.of("cp", "-al", tree.toString(), work.resolve("mbsync-tree").toString()), null);
      Processes.openToAll(work);
      int parallel = Runtime.getRuntime().availableProcessors();

      DoveadmImport.Imported imported =
          DoveadmImport.importAll(
              doveadm, tree, users, work.resolve("doveadm"), parallel, "optimized");
      double importSeconds = imported.seconds();

      Report report = new Report("imap: the Enron subset into Dovecot over IMAP");
      try (BenchDovecot server = BenchDovecot.start(work.resolve("server"))) {
        report.context("messages", messages);
        report.context("users", users.size());
        report.context(
            "server", DoveadmImport.version() + ", mdbox, mail_fsync=optimized (default)");
        report.context(
            "mbsync", Processes.run(List.of(mbsync.toString(), "--version"), null).strip());
        report.context("mailrestore", cli.describe() + ", default heap");

        Measured pushed = mbsync(mbsync, time, server, work, users, parallel);
        // mbsync leaves out a few messages of this tree (it says nothing with -q); its rate is
        // counted on what it delivered.
        long mbsyncHeld = server.messages(users.stream().map(u -> u + "@mbsync.example").toList());
        report.context("mbsync delivered", mbsyncHeld + " of " + messages + " messages");
        Measured ours = ours(cli, server, tree, "ours.example", null, work);
        check(server, users, "ours.example", messages);
        // The floor: as many connections as the restore uses, nothing but the protocol.
        RawImapPush.Pushed raw =
            RawImapPush.push(
                server, tree, users, "raw.example", Concurrency.forMachine().accounts());
        check(server, users, "raw.example", messages);
        // The service path: a service whose target is this server (mailrestore.targets), warmed
        // by one restore of the tree into another domain, restores it from the POST to the
        // operation's end, as REST-triggered restores run.
        String target = "--mailrestore.targets[0].";
        double serviceServerCpu = server.cpuSeconds();
        ServicePath.Timed service =
            ServicePath.measure(
                mariadb,
                work,
                "imapsvc",
                tree,
                "svc.example",
                tree,
                List.of(
                    target + "kind=imap",
                    target + "location=imap://127.0.0.1:" + server.port,
                    target + "options.starttls=never",
                    target + "options.login=separator"),
                Map.of(
                    "MAILRESTORE_IMAP_USER", BenchDovecot.MASTER,
                    "MAILRESTORE_IMAP_PASSWORD", server.masterPassword));
        serviceServerCpu = server.cpuSeconds() - serviceServerCpu;
        check(server, users, "svc.example", messages);

        Report.Row importRow =
            report.add(
                "Enron subset", "doveadm import (local, no IMAP)", messages, 0, importSeconds);
        Report.Row mbsyncRow =
            report.add("Enron subset", "mbsync push over IMAP", mbsyncHeld, 0, pushed.seconds);
        report.add("Enron subset", "mailrestore (vs mbsync)", messages, 0, ours.seconds, mbsyncRow);
        report.add(
            "Enron subset",
            "mailrestore (vs doveadm import)",
            messages,
            0,
            ours.seconds,
            importRow);
        report.add(
            "Enron subset",
            "mailrestore service, POST to end (vs mbsync)",
            messages,
            0,
            service.seconds(),
            mbsyncRow);
        report.add(
            "Enron subset",
            "mailrestore service, POST to end (vs doveadm)",
            messages,
            0,
            service.seconds(),
            importRow);
        report.add(
            "Enron subset",
            "raw IMAP push (the floor, vs doveadm)",
            messages,
            0,
            raw.seconds(),
            importRow);

        Path folders = work.resolve("folders");
        long big = MaildirTree.oneFolder(tree, folders.resolve("large/big"), large);
        MaildirTree.oneFolder(tree, folders.resolve("small/little"), 500);
        Processes.openToAll(folders);
        Measured bigRun =
            ours(cli, server, folders.resolve("large"), "large.example", folderHeap, work);
        Measured smallRun =
            ours(cli, server, folders.resolve("small"), "small.example", folderHeap, work);
        check(server, List.of("big"), "large.example", big);
        report.add("one folder", "mailrestore, " + big + " messages", big, 0, bigRun.seconds);
        report.add("one folder", "mailrestore, 500 messages", 500, 0, smallRun.seconds);
        report.print(System.out);

        System.out.printf(
            Locale.ROOT,
            "  mailrestore: %.2fx mbsync's messages/s, %.2fx doveadm import's%n",
            (messages / ours.seconds) / (mbsyncHeld / pushed.seconds),
            importSeconds / ours.seconds);
        System.out.printf(
            Locale.ROOT,
            "  mailrestore service (its target this server, warmed by one restore of the tree),"
                + " POST to end: %.2fx doveadm import's; its JVM %.2f CPU-s per 10k messages"
                + " (Dovecot over both restores: %.2f)%n",
            importSeconds / service.seconds(),
            service.serviceCpuSeconds() * 10_000 / messages,
            serviceServerCpu * 10_000 / (2 * messages));
        System.out.printf(
            Locale.ROOT,
            "  raw IMAP push (in this JVM, the protocol alone): %.2fx doveadm import's, mailrestore"
                + " %.0f %% of it; CPU per 10k messages: its client %.2f s, Dovecot %.2f s%n",
            importSeconds / raw.seconds(),
            100 * raw.seconds() / ours.seconds,
            raw.clientCpu() * 10_000 / messages,
            raw.serverCpu() * 10_000 / messages);
        System.out.printf(
            Locale.ROOT,
            "  CPU per 10k messages: mailrestore JVM %.2f s, Dovecot %.2f s (while mailrestore"
                + " wrote); doveadm import %.2f s; mbsync %.2f s, Dovecot %.2f s (while mbsync"
                + " wrote)%n",
            ours.clientCpu * 10_000 / messages,
            ours.serverCpu * 10_000 / messages,
            imported.cpuSeconds() * 10_000 / messages,
            pushed.clientCpu * 10_000 / mbsyncHeld,
            pushed.serverCpu * 10_000 / mbsyncHeld);
        System.out.printf(
            Locale.ROOT,
            "  the database while mailrestore wrote the Enron subset: %s%n",
            ours.database.describe());
        System.out.printf(
            Locale.ROOT,
            "  max RSS: Enron %d MiB (default heap); one folder of %d messages %d MiB, of 500"
                + " messages %d MiB (both -Xmx%s)%n",
            ours.maxRssKib / 1024,
            big,
            bigRun.maxRssKib / 1024,
            smallRun.maxRssKib / 1024,
            folderHeap);
        if (json != null) {
          report.writeJson(json);
        }
      }
      return 0;
    } finally {
      try (Stream<Path> paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /**
   * Wall seconds, the contender's CPU seconds and maximum RSS, the server's CPU seconds, and what
   * the database did meanwhile (nothing for mbsync): on one machine its CPU is taken from the same
   * cores.
   */
  private record Measured(
      double seconds, double clientCpu, long maxRssKib, double serverCpu, ServerWork database) {}

  private Measured ours(
      ColdCli cli, BenchDovecot server, Path tree, String domain, String heap, Path work)
      throws Exception {
    try (BenchDatabase db =
        new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "imap", 1)) {
      List<String> arguments =
          List.of(
              "restore",
              "run",
              "--maildir",
              tree.toString(),
              "--maildir-domain",
              domain,
              "--target",
              "imap://127.0.0.1:" + server.port,
              "--imap-starttls",
              "never",
              "--imap-login",
              "separator",
              "--jdbc-url",
              db.jdbcUrl(),
              "--db-user",
              mariadb.user);
      Map<String, String> env =
          heap == null
              ? Map.of(
                  "MAILRESTORE_IMAP_USER", BenchDovecot.MASTER,
                  "MAILRESTORE_IMAP_PASSWORD", server.masterPassword)
              : Map.of(
                  "MAILRESTORE_IMAP_USER", BenchDovecot.MASTER,
                  "MAILRESTORE_IMAP_PASSWORD", server.masterPassword,
                  "MAILRESTORE_JAVA_OPTS", "-Xmx" + heap);
      double cpu = server.cpuSeconds();
      ServerWork before = ServerWork.now(mariadb.url, mariadb.user, mariadb.password());
      ColdCli.Measured run = cli.run(arguments, env, work);
      return new Measured(
          run.seconds(),
          run.cpuSeconds(),
          run.maxRssKib(),
          server.cpuSeconds() - cpu,
          ServerWork.now(mariadb.url, mariadb.user, mariadb.password()).since(before));
    }
  }

  /** mbsync pushes each user's Maildir (its own copy) into the server, users in parallel. */
  private static Measured mbsync(
      Path mbsync, Path time, BenchDovecot server, Path work, List<String> users, int parallel)
      throws Exception {
    Path configs = work.resolve("mbsync");
    Files.createDirectories(configs);
    List<List<String>> commands = new ArrayList<>();
    for (String user : users) {
      Path state = configs.resolve("state-" + user);
      Files.createDirectories(state);
      Path maildir = work.resolve("mbsync-tree").resolve(user);
      Path config = configs.resolve(user + ".rc");
      Files.writeString(
          config,
          String.join(
              "\n",
              "IMAPStore far",
              "Host 127.0.0.1",
              "Port " + server.port,
              "User " + user + "@mbsync.example*" + BenchDovecot.MASTER,
              "Pass " + server.masterPassword,
              "SSLType None",
              "AuthMechs LOGIN",
              "",
              "MaildirStore near",
              "Inbox " + maildir,
              "SubFolders Maildir++",
              "",
              "Channel push",
              "Far :far:",
              "Near :near:",
              "Patterns *",
              "Create Far",
              "Sync Push",
              "Expunge None",
              "CopyArrivalDate yes",
              "SyncState " + state + "/",
              ""));
      commands.add(
          List.of(
              time.toString(),
              "-o",
              configs.resolve(user + ".time").toString(),
              "-f",
              "%e %U %S %M",
              mbsync.toString(),
              "-q",
              "-c",
              config.toString(),
              "push"));
    }
    double cpu = server.cpuSeconds();
    long start = System.nanoTime();
    try (ExecutorService pool = Executors.newFixedThreadPool(parallel)) {
      List<Future<String>> runs = new ArrayList<>();
      for (List<String> command : commands) {
        runs.add(pool.submit(() -> Processes.run(command, null)));
      }
      for (Future<String> f : runs) {
        f.get();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double serverCpu = server.cpuSeconds() - cpu;
    double clientCpu = 0;
    long maxRss = 0;
    for (String user : users) {
      String[] t = Files.readString(configs.resolve(user + ".time")).strip().split("\\s+");
      clientCpu += Double.parseDouble(t[1]) + Double.parseDouble(t[2]);
      maxRss = Math.max(maxRss, Long.parseLong(t[3]));
    }
    return new Measured(seconds, clientCpu, maxRss, serverCpu, ServerWork.NONE);
  }

  private static void check(BenchDovecot server, List<String> users, String domain, long expected)
      throws Exception {
    List<String> logins = users.stream().map(u -> u + "@" + domain).toList();
    long held = server.messages(logins);
    if (held != expected) {
      throw new IllegalStateException(
          "the server holds " + held + " of the " + expected + " messages for " + domain);
    }
  }
}
