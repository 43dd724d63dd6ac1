package org.mailrestore.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.testkit.LocalDaemons;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.SlapdServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Phase 1 into a real slapd next to the local limit, {@code ldapadd} of the same entries as LDIF,
 * in the same run and into the same server (each under a base of its own). mailrestore goes through
 * the LDAP kind's provisioning as phase 1 calls it for each account (find, create, what was left
 * out, aliases), then the lists; ldapadd reads one file with every entry. Both write the same
 * entries: inetOrgPerson accounts with a password hash and an alias (mailLocalAddress), and
 * nisMailAlias lists.
 */
@Command(
    name = "ldap",
    mixinStandardHelpOptions = true,
    description =
        "Accounts with aliases and lists into slapd through the LDAP provisioning kind, next to"
            + " ldapadd of the same entries (entries/s, and CPU of each side).")
final class LdapCommand implements Callable<Integer> {

  @Option(names = "--accounts", defaultValue = "10000", description = "Accounts (default: 10000)")
  int accounts;

  @Option(names = "--lists", defaultValue = "500", description = "Lists (default: 500)")
  int lists;

  @Option(names = "--members", defaultValue = "20", description = "Members per list (default: 20)")
  int members;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  private static final int DOMAINS = 20;

  @Override
  public Integer call() throws Exception {
    if (!SlapdServer.installed()) {
      System.err.println(
          "slapd and ldap-utils are not installed: apt-get install slapd ldap-utils");
      return 2;
    }
    SlapdServer slapd = SlapdServer.get();
    List<Account> records = new ArrayList<>();
    String hash = ssha("benchmark-password");
    for (int i = 0; i < accounts; i++) {
      String domain = "d" + (i % DOMAINS) + ".example";
      String name = "user" + i + "@" + domain;
      records.add(
          new Account(
              UUID.randomUUID().toString(),
              name,
              domain,
              null,
              "active",
              false,
              List.of("user" + i + ".alias@" + domain),
              Map.of("displayName", "User " + i, "userPassword", hash)));
    }
    List<DistributionList> lists = new ArrayList<>();
    for (int j = 0; j < this.lists; j++) {
      String domain = "d" + (j % DOMAINS) + ".example";
      List<String> m = new ArrayList<>();
      for (int k = 0; k < members; k++) {
        m.add("user" + ((j * members + k) % accounts) + "@" + domain);
      }
      lists.add(new DistributionList("list" + j + "@" + domain, "List " + j, m, Map.of()));
    }

    // The limit: ldapadd of the same entries, from one LDIF file.
    String limitBase = slapd.newBase("ldapadd");
    Path ldif = ScratchSpace.file("mailrestore-bench-", ".ldif");
    Files.writeString(ldif, ldif(limitBase, records, lists), StandardCharsets.UTF_8);
    long slapdBefore = slapdCpuMillis(slapd);
    long t0 = System.nanoTime();
    LocalDaemons.run(
        List.of(
            "/usr/bin/ldapadd",
            "-x",
            "-H",
            slapd.url(),
            "-D",
            SlapdServer.ROOT_DN,
            "-w",
            SlapdServer.ROOT_PASSWORD,
            "-f",
            ldif.toString()));
    double limitSeconds = (System.nanoTime() - t0) / 1e9;
    long limitSlapdCpu = slapdCpuMillis(slapd) - slapdBefore;
    long limitEntries = count(slapd, limitBase) - 1;

    // mailrestore: the kind's provisioning, as phase 1 calls it; in a fresh JVM (as a CLI runs
    // it), then again into a new base in the same JVM (as a running service does).
    Side cold = provision(slapd, records, lists);
    Side warm = provision(slapd, records, lists);

    Report report = new Report("phase 1 into slapd (inetOrgPerson), next to ldapadd");
    report.context("accounts", accounts);
    report.context("lists", lists.size() + " of " + members + " members");
    report.context(
        "CPU per 1,000 entries",
        String.format(
            Locale.ROOT,
            "mailrestore JVM %.3f s cold, %.3f s warm; its slapd %.3f s; ldapadd's slapd %.3f s",
            cold.cpuMillis() / (double) cold.entries(),
            warm.cpuMillis() / (double) warm.entries(),
            warm.slapdCpuMillis() / (double) warm.entries(),
            limitSlapdCpu / (double) limitEntries));
    Report.Row limit = report.add("ldap", "ldapadd (LDIF)", limitEntries, 0, limitSeconds);
    report.add("ldap", "mailrestore phase 1, cold JVM", cold.entries(), 0, cold.seconds(), limit);
    report.add("ldap", "mailrestore phase 1, warm JVM", warm.entries(), 0, warm.seconds(), limit);
    report.print(System.out);
    if (json != null) {
      report.writeJson(json);
    }
    Files.deleteIfExists(ldif);
    return 0;
  }

  /** One run of the kind's phase 1: entries written, seconds, CPU of this thread and of slapd. */
  record Side(long entries, double seconds, long cpuMillis, long slapdCpuMillis) {}

  private static Side provision(
      SlapdServer slapd, List<Account> records, List<DistributionList> lists) throws Exception {
    String base = slapd.newBase("mailrestore");
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("MAILRESTORE_LDAP_BIND_DN", SlapdServer.ROOT_DN);
    env.put("MAILRESTORE_LDAP_PASSWORD", SlapdServer.ROOT_PASSWORD);
    TargetSpec spec =
        TargetSpec.of(
            "ldap",
            slapd.url(),
            Map.of("base-dn", base, "schema", "inetorgperson", "starttls", "never"));
    var threads = ManagementFactory.getThreadMXBean();
    long slapdBefore = slapdCpuMillis(slapd);
    long cpuBefore;
    double seconds;
    try (MailTarget target = spec.open(new TargetContext(null, null, null, null, env))) {
      TargetProvisioning p = target.provisioning();
      cpuBefore = threads.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      for (Account a : records) {
        // As a composition calls it: the engine's find, then the composition's own before create.
        boolean missing = p.find(a.name()).isEmpty();
        boolean stillMissing = p.find(a.name()).isEmpty();
        if (missing && stillMissing) {
          ProvisionedAccount made = p.create(a, a.name(), a.id(), false);
          p.omissions(a);
          p.addAliases(made, a.aliases());
        }
      }
      for (DistributionList l : lists) {
        p.ensureList(l);
      }
      seconds = (System.nanoTime() - t0) / 1e9;
    }
    long cpuMillis = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000;
    long slapdCpu = slapdCpuMillis(slapd) - slapdBefore;
    return new Side(count(slapd, base) - 1, seconds, cpuMillis, slapdCpu);
  }

  /** The entries the kind writes for these records (docs/ldap-provisioning.md), as LDIF. */
  private static String ldif(String base, List<Account> records, List<DistributionList> lists) {
    StringBuilder b = new StringBuilder();
    b.append("dn: ou=people,")
        .append(base)
        .append("\nobjectClass: top\nobjectClass: ")
        .append("organizationalUnit\nou: people\n\n");
    b.append("dn: ou=lists,")
        .append(base)
        .append("\nobjectClass: top\nobjectClass: ")
        .append("organizationalUnit\nou: lists\n\n");
    for (Account a : records) {
      String local = a.name().substring(0, a.name().indexOf('@'));
      b.append("dn: uid=")
          .append(a.name())
          .append(",ou=people,")
          .append(base)
          .append('\n')
          .append("objectClass: top\nobjectClass: inetOrgPerson\n")
          .append("objectClass: inetLocalMailRecipient\n")
          .append("uid: ")
          .append(a.name())
          .append('\n')
          .append("mail: ")
          .append(a.name())
          .append('\n')
          .append("cn: ")
          .append(a.attributes().get("displayName"))
          .append('\n')
          .append("sn: ")
          .append(local)
          .append('\n')
          .append("userPassword: ")
          .append(a.attributes().get("userPassword"))
          .append('\n')
          .append("displayName: ")
          .append(a.attributes().get("displayName"))
          .append('\n');
      for (String alias : a.aliases()) {
        b.append("mailLocalAddress: ").append(alias).append('\n');
      }
      b.append('\n');
    }
    for (DistributionList l : lists) {
      b.append("dn: cn=")
          .append(l.address())
          .append(",ou=lists,")
          .append(base)
          .append('\n')
          .append("objectClass: top\nobjectClass: nisMailAlias\n")
          .append("cn: ")
          .append(l.address())
          .append('\n');
      for (String m : l.members()) {
        b.append("rfc822MailMember: ").append(m).append('\n');
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static long count(SlapdServer slapd, String base) throws IOException {
    String out = slapd.ldap("ldapsearch", null, "-LLL", "-b", base, "(objectClass=*)", "1.1");
    return out.lines().filter(l -> l.startsWith("dn:")).count();
  }

  /** slapd's CPU time so far (user and system), from /proc. */
  private static long slapdCpuMillis(SlapdServer slapd) throws IOException {
    String pid = slapd.pid();
    String stat = Files.readString(Path.of("/proc", pid, "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * 10; // USER_HZ is 100 on Linux
  }

  private static String ssha(String clear) throws Exception {
    byte[] salt = UUID.randomUUID().toString().substring(0, 8).getBytes(StandardCharsets.UTF_8);
    MessageDigest md = MessageDigest.getInstance("SHA-1");
    md.update(clear.getBytes(StandardCharsets.UTF_8));
    md.update(salt);
    byte[] d = md.digest();
    byte[] both = new byte[d.length + salt.length];
    System.arraycopy(d, 0, both, 0, d.length);
    System.arraycopy(salt, 0, both, d.length, salt.length);
    return "{SSHA}" + java.util.Base64.getEncoder().encodeToString(both);
  }
}
