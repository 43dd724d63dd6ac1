package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * mailrestore next to a peer on the same mail, in the same run: Dovecot's {@code doveadm import} of
 * the Enron subset into its mdbox store, and mailrestore's restore of the same Maildir tree through
 * its Maildir reader into MariaDB and a packed file volume, both with fsync on. mailrestore runs as
 * a user runs it, a cold CLI process timed from start to exit, and again warm (in a JVM that has
 * restored once) for the code's own speed. Then the large-folder scenario: every message in one
 * folder of one account, imported by Dovecot as one user and restored by a cold CLI. Last, each
 * with nothing to import (an empty Maildir): what a run costs before its first message. And the
 * service path: the same tree and folder restored by restores posted to a running service.
 */
@Command(
    name = "peer",
    mixinStandardHelpOptions = true,
    description =
        "Dovecot (doveadm import into mdbox) and mailrestore restore the same Maildir tree of the"
            + " Enron subset; messages/s side by side, both with fsync on.")
final class PeerCommand implements Callable<Integer> {

  @Mixin ServerOptions mariadb;

  @Option(
      names = "--corpus",
      description =
          "The Enron subset: enron-maildir-subset.tar.zst or its unpacked directory (default:"
              + " $MAILRESTORE_CORPORA/enron-maildir-subset.tar.zst, else"
              + " ../shared/corpora/enron-maildir-subset.tar.zst)")
  Path corpus;

  @Option(
      names = "--heap",
      defaultValue = "1g",
      description = "Heap of mailrestore's restore JVM (default: ${DEFAULT-VALUE})")
  String heap;

  @Option(
      names = "--one-folder",
      defaultValue = "75000",
      description =
          "Messages in the one-folder scenario: the tree's messages in turn, each copy after the"
              + " first made distinct (default: ${DEFAULT-VALUE})")
  int oneFolderMessages;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  private static final String DOMAIN = "enron.example";

  @Override
  public Integer call() throws Exception {
    Path doveadm = Path.of("/usr/bin/doveadm");
    if (!Files.isExecutable(doveadm)) {
      System.err.println(
          "Dovecot is not installed: apt-get install dovecot-core (Debian) to compare with it");
      return 2;
    }
    Path archive = corpus != null ? corpus : defaultCorpus();
    Path work = Files.createTempDirectory("mailrestore-peer");
    try {
      Path unpacked = unpack(archive, work.resolve("corpus"));
      Path tree = work.resolve("maildir");
      long messages = MaildirTree.layOut(unpacked, tree);
      List<String> users;
      try (Stream<Path> s = Files.list(tree)) {
        users = s.map(p -> p.getFileName().toString()).sorted().toList();
      }

      // Dovecot refuses root: it runs as nobody, who must reach and read the tree (and write its
      // stores, opened as they are made).
      Processes.openToAll(work);
      ColdCli cli = ColdCli.prepared();
      Concurrency machine = Concurrency.forMachine();
      int parallel = Runtime.getRuntime().availableProcessors();
      double dovecotSeconds =
          DoveadmImport.importAll(doveadm, tree, users, work.resolve("dovecot"), parallel, "always")
              .seconds();
      long dovecotMessages = DoveadmImport.count(doveadm, users, work.resolve("dovecot"));
      DoveadmImport.Imported optimized =
          DoveadmImport.importAll(
              doveadm, tree, users, work.resolve("dovecot-optimized"), parallel, "optimized");
      double optimizedSeconds = optimized.seconds();

      RestoreRun.Result ours;
      String server;
      String flush;
      try (BenchDatabase warmup =
              new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "peerwarm", 1);
          BenchDatabase db =
              new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "peer", 1)) {
        server = db.serverVersion();
        flush = db.variable("innodb_flush_log_at_trx_commit");
        RestoreRun.Params params =
            new RestoreRun.Params(
                db.jdbcUrl(),
                mariadb.user,
                mariadb.password(),
                MaildirSourceKind.of(tree, DOMAIN, "maildir"),
                work.resolve("volume").toString(),
                VolumeSpec.Kind.PACKED_LOCAL,
                1000,
                machine.accounts(),
                machine.clustersPerAccount(),
                machine.blobTransfers(),
                null,
                warmup.jdbcUrl());
        ours = RestoreRun.inChild(params, heap, work);
      }
      ColdCli.Measured cold = coldRestore(cli, tree, work, "peercold");

      Path oneFolder = work.resolve("one-folder");
      long folderMessages =
          MaildirTree.distinctFolder(tree, oneFolder.resolve("big"), oneFolderMessages);
      Processes.openToAll(oneFolder);
      DoveadmImport.Imported oneFolderImported =
          DoveadmImport.importAll(
              doveadm,
              oneFolder,
              List.of("big"),
              work.resolve("dovecot-one-folder"),
              parallel,
              "optimized");
      double oneFolderDovecot = oneFolderImported.seconds();
      ColdCli.Measured oneFolderOurs = coldRestore(cli, oneFolder, work, "peerone");
      // The service path: a service of its own for each (its volume is its configuration), warmed
      // by a restore of 100,000 messages that share no digest with the measured ones.
      Path warmUp = work.resolve("warm-up");
      MaildirTree.distinctFolder(
          tree, warmUp.resolve("warm"), 100_000, 4 * Math.max(oneFolderMessages, (int) messages));
      ServicePath.Timed serviceFirst =
          ServicePath.measure(mariadb, work, "peersvcfirst", tree, DOMAIN, null);
      ServicePath.Timed serviceTree =
          ServicePath.measure(mariadb, work, "peersvc", tree, DOMAIN, warmUp);
      ServicePath.Timed serviceOneFolder =
          ServicePath.measure(mariadb, work, "peersvcone", oneFolder, DOMAIN, warmUp);
      // And warmed by a tree of the tree's shape (its folders, its messages made distinct): a
      // service that has restored mailboxes like these, as the warm JVM above has.
      Path shapeWarmUp = work.resolve("shape-warm-up");
      MaildirTree.distinctTree(tree, shapeWarmUp, 8 * Math.max(oneFolderMessages, (int) messages));
      ServicePath.Timed serviceShaped =
          ServicePath.measure(mariadb, work, "peersvcshape", tree, DOMAIN, shapeWarmUp);
      long oneFolderHeld =
          DoveadmImport.count(doveadm, List.of("big"), work.resolve("dovecot-one-folder"));

      // Each program with nothing to do: what a run costs before its first message (a process's
      // start, its store's creation, its exit), next to the times above.
      Path empty = work.resolve("empty");
      MaildirTree.oneFolder(tree, empty.resolve("nobody"), 0);
      Processes.openToAll(empty);
      double emptyDovecot =
          DoveadmImport.importAll(
                  doveadm, empty, List.of("nobody"), work.resolve("dovecot-empty"), 1, "optimized")
              .seconds();
      ColdCli.Measured emptyOurs = coldRestore(cli, empty, work, "peerempty");
      if (oneFolderHeld != folderMessages) {
        System.err.printf(
            Locale.ROOT,
            "Dovecot holds %,d of the %,d messages of one folder%n",
            oneFolderHeld,
            folderMessages);
        return 1;
      }
      if (!ours.state().equals("COMPLETED")) {
        System.err.printf(Locale.ROOT, "our restore ended %s%n", ours.state());
        return 1;
      }
      if (dovecotMessages != messages) {
        System.err.printf(
            Locale.ROOT,
            "Dovecot holds %,d messages of the %,d laid out%n",
            dovecotMessages,
            messages);
        return 1;
      }

      Report report = new Report("peer: the Enron subset into Dovecot and into mailrestore");
      report.context("messages", messages);
      report.context("users", users.size());
      report.context("Dovecot", DoveadmImport.version() + ", mdbox");
      report.context("Dovecot imports at once", parallel);
      report.context(
          "Dovecot import's CPU, optimized",
          String.format(
              Locale.ROOT,
              "%.1f CPU-s (one folder: %.1f CPU-s)",
              optimized.cpuSeconds(),
              oneFolderImported.cpuSeconds()));
      report.context(
          "mailrestore",
          "MariaDB "
              + server
              + " (innodb_flush_log_at_trx_commit="
              + flush
              + "), packed volume (as mdbox packs messages), every blob fsynced before its rows commit");
      report.context(
          "mailrestore, cold",
          String.format(
              Locale.ROOT,
              "%s, launcher defaults; %.1f CPU-s, max RSS %d MiB (one folder: %.1f CPU-s, %d MiB)",
              cli.describe(),
              cold.cpuSeconds(),
              cold.maxRssKib() >> 10,
              oneFolderOurs.cpuSeconds(),
              oneFolderOurs.maxRssKib() >> 10));
      report.context(
          "mailrestore, warm",
          "a restore JVM, -Xmx" + heap + ", after one unmeasured warm-up restore");
      report.restoreFigures(ours);
      Report.Row dovecotRow =
          report.add(
              "Enron subset", "Dovecot import, mail_fsync=always", messages, 0, dovecotSeconds);
      Report.Row optimizedRow =
          report.add(
              "Enron subset",
              "Dovecot import, mail_fsync=optimized",
              messages,
              0,
              optimizedSeconds);
      // A process from start to exit, against Dovecot's processes from start to exit.
      report.add(
          "Enron subset",
          "mailrestore, cold CLI (vs fsync always)",
          messages,
          ours.bytesRestored(),
          cold.seconds(),
          dovecotRow);
      report.add(
          "Enron subset",
          "mailrestore, cold CLI (vs fsync optimized)",
          messages,
          ours.bytesRestored(),
          cold.seconds(),
          optimizedRow);
      // The warm figure: the whole restore (three phases, folders included) inside a JVM.
      double warmSeconds =
          (ours.provisioningMillis() + ours.dataMillis() + ours.sharesMillis()) / 1000.0;
      report.add(
          "Enron subset",
          "mailrestore, warm JVM (vs fsync optimized)",
          messages,
          ours.bytesRestored(),
          warmSeconds,
          optimizedRow);
      // The service path (goal 3 of issue 43): from the POST to the operation's end.
      report.add(
          "Enron subset",
          "mailrestore service, its first restore (vs fsync optimized)",
          messages,
          ours.bytesRestored(),
          serviceFirst.seconds(),
          optimizedRow);
      report.add(
          "Enron subset",
          "mailrestore service, POST to end (vs fsync optimized)",
          messages,
          ours.bytesRestored(),
          serviceTree.seconds(),
          optimizedRow);
      report.add(
          "Enron subset",
          "mailrestore service, warmed by a tree of this shape (vs fsync optimized)",
          messages,
          ours.bytesRestored(),
          serviceShaped.seconds(),
          optimizedRow);
      Report.Row oneFolderRow =
          report.add(
              "one folder",
              "Dovecot import, mail_fsync=optimized",
              folderMessages,
              0,
              oneFolderDovecot);
      report.add(
          "one folder",
          "mailrestore, cold CLI (vs fsync optimized)",
          folderMessages,
          0,
          oneFolderOurs.seconds(),
          oneFolderRow);
      report.add(
          "one folder",
          "mailrestore service, POST to end (vs fsync optimized)",
          folderMessages,
          0,
          serviceOneFolder.seconds(),
          oneFolderRow);
      report.context(
          "mailrestore service",
          String.format(
              Locale.ROOT,
              "mailrestore serve (launcher defaults), a service, database and packed volume for"
                  + " each; its first restore, or after one of 100,000 other messages in one"
                  + " folder, or after one of a tree of this shape; service CPU-s: %.1f (first),"
                  + " %.1f (tree), %.1f (one folder), %.1f (tree, after a tree)",
              serviceFirst.serviceCpuSeconds(),
              serviceTree.serviceCpuSeconds(),
              serviceOneFolder.serviceCpuSeconds(),
              serviceShaped.serviceCpuSeconds()));
      report.add("nothing to import", "Dovecot import, an empty Maildir", 0, 0, emptyDovecot);
      report.add(
          "nothing to import",
          "mailrestore, cold CLI, an empty Maildir",
          0,
          0,
          emptyOurs.seconds());
      report.print(System.out);
      System.out.printf(
          Locale.ROOT,
          "  1.5x Dovecot (optimized) needs a cold CLI of %.2f s for the tree and %.2f s for one"
              + " folder; with nothing to import a cold CLI takes %.2f s (Dovecot %.2f s)%n",
          optimizedSeconds / 1.5,
          oneFolderDovecot / 1.5,
          emptyOurs.seconds(),
          emptyDovecot);
      System.out.printf(
          Locale.ROOT,
          "  mailrestore, cold CLI: %.2fx Dovecot's import rate with fsync on every write (always),"
              + " %.2fx with fsync at commits (optimized); one folder %.2fx (optimized); warm JVM"
              + " %.2fx (optimized)%n"
              + "  mailrestore service, POST to end: %.2fx (optimized); one folder %.2fx; its first"
              + " restore after start %.2fx; warmed by a tree of this shape %.2fx%n",
          dovecotSeconds / cold.seconds(),
          optimizedSeconds / cold.seconds(),
          oneFolderDovecot / oneFolderOurs.seconds(),
          optimizedSeconds / warmSeconds,
          optimizedSeconds / serviceTree.seconds(),
          oneFolderDovecot / serviceOneFolder.seconds(),
          optimizedSeconds / serviceFirst.seconds(),
          optimizedSeconds / serviceShaped.seconds());
      if (json != null) {
        report.writeJson(json);
      }
      return 0;
    } finally {
      try (Stream<Path> paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** A cold {@code mailrestore restore run} of a Maildir tree into a database of its own. */
  private ColdCli.Measured coldRestore(ColdCli cli, Path tree, Path work, String name)
      throws Exception {
    try (BenchDatabase db =
        new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), name, 1)) {
      return cli.run(
          List.of(
              "restore",
              "run",
              "--maildir",
              tree.toString(),
              "--maildir-domain",
              DOMAIN,
              "--volume",
              work.resolve(name + "-volume").toString(),
              "--volume-packed",
              "--jdbc-url",
              db.jdbcUrl(),
              "--db-user",
              mariadb.user),
          java.util.Map.of(),
          work);
    }
  }

  static Path defaultCorpus() {
    String env = System.getenv("MAILRESTORE_CORPORA");
    Path dir = env != null ? Path.of(env) : Path.of("..", "shared", "corpora");
    return dir.resolve("enron-maildir-subset.tar.zst").toAbsolutePath().normalize();
  }

  /** The corpus as a directory: unpacked with GNU tar when it is an archive. */
  static Path unpack(Path archive, Path into) throws IOException, InterruptedException {
    if (Files.isDirectory(archive)) {
      return archive;
    }
    if (!Files.isRegularFile(archive)) {
      throw new IllegalArgumentException("no corpus at " + archive + " (use --corpus)");
    }
    Files.createDirectories(into);
    Processes.run(List.of("tar", "--zstd", "-xf", archive.toString(), "-C", into.toString()), null);
    try (Stream<Path> top = Files.list(into)) {
      List<Path> entries = top.toList();
      return entries.size() == 1 && Files.isDirectory(entries.getFirst())
          ? entries.getFirst()
          : into;
    }
  }
}
