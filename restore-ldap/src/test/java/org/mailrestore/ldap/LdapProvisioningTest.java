package org.mailrestore.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mail.Json;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.ConflictPolicy;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.testkit.SlapdServer;
import org.mailrestore.verify.Verifier;
import tools.jackson.databind.node.ObjectNode;

/**
 * Phase 1 into a real slapd (both schemas), composed with the mailstore for the mail: every entry
 * and attribute of the mapping, read back with OpenLDAP's own ldapsearch; verify clean; a re-run
 * changes no entry (modify timestamps and CSNs); each policy as docs/ldap-provisioning.md says; a
 * refused account fails alone with the directory's or the check's words.
 */
class LdapProvisioningTest {

  @TempDir Path dir;

  @BeforeAll
  static void slapd() {
    assumeTrue(SlapdServer.installed(), "slapd and ldap-utils are not installed: .ci/run does");
  }

  private RestoreFixture fixture(TargetSpec directory) throws Exception {
    TargetSpec mailstore =
        MailstoreKind.of(VolumeSpec.local("default", dir.resolve("volume").toString()));
    return new RestoreFixture(
        List.of(directory, mailstore),
        false,
        RestoreEngine.DEFAULT_LEASE_SECONDS,
        PathFence.NONE,
        DirectoryBackups.environment());
  }

  private static String dnOf(String schema, String address, String base) {
    String local = address.substring(0, address.indexOf('@'));
    String domain = address.substring(address.indexOf('@') + 1);
    if (schema.equals(InetOrgPersonLayout.NAME)) {
      return ("uid=" + address + ",ou=people," + base).toLowerCase(Locale.ROOT);
    }
    StringBuilder dn = new StringBuilder("uid=" + local + ",ou=people");
    for (String label : domain.split("\\.")) {
      dn.append(",dc=").append(label);
    }
    return (dn + "," + base).toLowerCase(Locale.ROOT);
  }

  @ParameterizedTest
  @ValueSource(strings = {ZimbraLayout.NAME, InetOrgPersonLayout.NAME})
  void everyEntryOfTheMappingIsThereAndARerunChangesNothing(String schema) throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase(schema);
    Path backup = DirectoryBackups.generate(dir, 4);
    List<String> addresses = DirectoryBackups.withPasswords(backup);
    Map<String, Path> files = DirectoryBackups.accountFiles(backup);
    try (RestoreFixture f =
        fixture(DirectoryBackups.directory(slapd.url(), base, schema, Map.of()))) {
      OperationSummary first = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(first.state()).as(first.message()).isEqualTo(OperationState.COMPLETED);

      Map<String, Map<String, List<String>>> all = Ldif.search(slapd, base, "(objectClass=*)");
      for (String address : addresses) {
        ObjectNode record = (ObjectNode) Json.MAPPER.readTree(files.get(address).toFile());
        String alias = record.get("aliases").get(0).asString();
        Map<String, List<String>> entry = all.get(dnOf(schema, address, base));
        assertThat(entry).as(address + " in " + all.keySet()).isNotNull();
        assertThat(entry.get("displayname"))
            .containsExactly(record.get("attributes").get("displayName").asString());
        var hash = record.get("attributes").get("userPassword");
        if (hash == null) {
          assertThat(entry).as("made locked: no password").doesNotContainKey("userpassword");
        } else {
          assertThat(entry.get("userpassword")).containsExactly(hash.asString());
        }
        if (schema.equals(InetOrgPersonLayout.NAME)) {
          assertThat(entry.get("mail")).containsExactly(address);
          assertThat(entry.get("maillocaladdress")).containsExactly(alias);
          assertThat(entry.get("objectclass")).contains("inetOrgPerson", "inetLocalMailRecipient");
        } else {
          assertThat(entry.get("zimbramaildeliveryaddress")).containsExactly(address);
          assertThat(entry.get("zimbramailalias")).containsExactly(alias);
          assertThat(entry.get("mail")).containsExactlyInAnyOrder(address, alias);
          assertThat(entry.get("zimbraid")).containsExactly(record.get("id").asString());
          assertThat(entry.get("zimbraaccountstatus"))
              .containsExactly(hash == null ? "locked" : "active");
          String cos = record.get("cos").asString();
          Map<String, List<String>> cosEntry =
              all.get(("cn=" + cos + ",cn=cos,cn=zimbra," + base).toLowerCase(Locale.ROOT));
          assertThat(cosEntry).as("class of service " + cos).isNotNull();
          assertThat(entry.get("zimbracosid")).isEqualTo(cosEntry.get("zimbraid"));
          Map<String, List<String>> aliasEntry = all.get(dnOf(schema, alias, base));
          assertThat(aliasEntry.get("objectclass")).contains("zimbraAlias");
          assertThat(aliasEntry.get("zimbraaliastargetid")).isEqualTo(entry.get("zimbraid"));
        }
      }
      // The lists, with their members.
      String domain = addresses.get(0).substring(addresses.get(0).indexOf('@') + 1);
      List<String> members = addresses.stream().filter(a -> a.endsWith("@" + domain)).toList();
      Map<String, List<String>> list =
          all.values().stream()
              .filter(e ->
                  e.containsKey("rfc822mailmember") || e.containsKey("zimbramailforwardingaddress"))
              .filter(e ->
                  String.valueOf(e.get("cn")).contains(domain)
                      || String.valueOf(e.get("mail")).contains(domain))
              .findFirst()
              .orElseThrow();
      assertThat(list.getOrDefault("rfc822mailmember", list.get("zimbramailforwardingaddress")))
          .containsExactlyInAnyOrderElementsOf(members);
      if (schema.equals(ZimbraLayout.NAME)) {
        Map<String, List<String>> domainEntry =
            all.get(dnOf(schema, "x@" + domain, base).replace("uid=x,ou=people,", ""));
        assertThat(domainEntry.get("zimbradomainname")).containsExactly(domain);
        assertThat(domainEntry.get("description")).containsExactly("Domain " + domain);
      }

      // The report says which account was made locked, and what the schema had no room for.
      OperationReport report = OperationReport.of(f.engine.bookkeeping(), first.id()).orElseThrow();
      String locked = addresses.get(addresses.size() - 1);
      assertThat(report.toString()).contains("account " + locked + " was made locked");
      assertThat(report.toString()).doesNotContain("{SSHA");

      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      Map<String, String> stamps = Ldif.stamps(slapd, base);
      OperationSummary again = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(Ldif.stamps(slapd, base)).as("a re-run changes no entry").isEqualTo(stamps);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {ZimbraLayout.NAME, InetOrgPersonLayout.NAME})
  void eachPolicyBehavesAsDocumented(String schema) throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String aliasAttribute =
        schema.equals(ZimbraLayout.NAME) ? "zimbramailalias" : "maillocaladdress";
    String base = slapd.newBase("policies");
    Path backup = DirectoryBackups.generate(dir, 2);
    List<String> addresses = DirectoryBackups.withPasswords(backup);
    String alice = addresses.get(0);
    String dn = dnOf(schema, alice, base);
    String backupName =
        Json.MAPPER
            .readTree(DirectoryBackups.accountFiles(backup).get(alice).toFile())
            .get("attributes")
            .get("displayName")
            .asString();
    try (RestoreFixture f =
        fixture(DirectoryBackups.directory(slapd.url(), base, schema, Map.of()))) {
      assertThat(f.restore(RestoreRequest.local(backup.toString())).state())
          .isEqualTo(OperationState.COMPLETED);

      modify(
          slapd,
          dn,
          "replace: displayName\ndisplayName: Changed by hand\n-\nadd: title\ntitle: Kept\n");
      run(f, backup, ConflictPolicy.MERGE);
      assertThat(attribute(slapd, base, dn, "displayname"))
          .as("merge: the directory's value wins")
          .containsExactly("Changed by hand");
      assertThat(attribute(slapd, base, dn, "title")).containsExactly("Kept");

      modify(slapd, dn, "delete: displayName\n");
      run(f, backup, ConflictPolicy.MERGE);
      assertThat(attribute(slapd, base, dn, "displayname"))
          .as("merge: what the entry lacks is added")
          .containsExactly(backupName);

      modify(slapd, dn, "replace: displayName\ndisplayName: Changed again\n");
      Map<String, String> before = Ldif.stamps(slapd, base);
      run(f, backup, ConflictPolicy.SKIP);
      assertThat(Ldif.stamps(slapd, base)).as("skip writes nothing").isEqualTo(before);

      run(f, backup, ConflictPolicy.REPLACE);
      assertThat(attribute(slapd, base, dn, "displayname"))
          .as("replace: the backup's value")
          .containsExactly(backupName);
      assertThat(attribute(slapd, base, dn, "title")).as("replace: the rest goes").isNull();
      assertThat(attribute(slapd, base, dn, aliasAttribute)).as("aliases stay").isNotNull();

      run(f, backup, ConflictPolicy.NEW_ACCOUNT);
      String renamed =
          RestoreRequest.local("x").withPolicy(ConflictPolicy.NEW_ACCOUNT).targetName(alice);
      String renamedDn = dnOf(schema, renamed, base);
      assertThat(attribute(slapd, base, renamedDn, "mail")).containsExactly(renamed);
      assertThat(attribute(slapd, base, renamedDn, aliasAttribute))
          .as("the copy beside the account takes no alias")
          .isNull();
      assertThat(attribute(slapd, base, dn, "mail")).contains(alice);
    }
  }

  @Test
  void aRefusedAccountFailsAloneWithTheReason() throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase("refused");
    Path backup = DirectoryBackups.generate(dir, 6);
    Map<String, Path> files = DirectoryBackups.accountFiles(backup);
    List<String> addresses = List.copyOf(files.keySet());
    String badAddress = addresses.get(0);
    String tooLong = addresses.get(1);
    String stealer = addresses.get(2);
    String aliasOwner = addresses.get(3);
    String badSyntax = addresses.get(5);
    // A value the directory itself refuses (a telephone number is a printable string).
    DirectoryBackups.edit(
        files.get(badSyntax),
        n -> {
          ((ObjectNode) n.get("attributes")).put("telephoneNumber", "\u260e 555 0100");
          return n;
        });
    String ownersAlias =
        Json.MAPPER.readTree(files.get(aliasOwner).toFile()).get("aliases").get(0).asString();
    String domain = badAddress.substring(badAddress.indexOf('@') + 1);
    DirectoryBackups.edit(files.get(badAddress), n -> n.put("name", "bell\u0007user@" + domain));
    DirectoryBackups.edit(
        files.get(tooLong),
        n -> {
          ((ObjectNode) n.get("attributes")).put("displayName", "x".repeat(5000));
          return n;
        });
    // The stealer's record comes first (its address sorts first), so the owner's alias is taken.
    DirectoryBackups.edit(
        files.get(stealer),
        n -> {
          n.putArray("aliases").add(ownersAlias);
          return n;
        });
    try (RestoreFixture f =
        fixture(
            DirectoryBackups.directory(
                slapd.url(),
                base,
                InetOrgPersonLayout.NAME,
                Map.of(LdapKind.MAX_VALUE_SIZE, "4096")))) {
      OperationSummary s = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
      String report = OperationReport.of(f.engine.bookkeeping(), s.id()).orElseThrow().toString();
      assertThat(report)
          .contains("cannot name a directory entry: its local part holds a space or a control")
          .contains("is 5000 bytes, more than the directory is given")
          .contains("alias " + ownersAlias + " belongs to another account")
          .contains("could not add uid=" + badSyntax)
          .contains("invalid attribute syntax (21)")
          .contains("telephoneNumber");
      Map<String, Map<String, List<String>>> all = Ldif.search(slapd, base, "(objectClass=*)");
      assertThat(all).doesNotContainKey(dnOf(InetOrgPersonLayout.NAME, tooLong, base));
      assertThat(all).doesNotContainKey(dnOf(InetOrgPersonLayout.NAME, badSyntax, base));
      for (String restored : List.of(stealer, aliasOwner, addresses.get(4))) {
        assertThat(all).as(restored).containsKey(dnOf(InetOrgPersonLayout.NAME, restored, base));
      }
      assertThat(new String(report.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
          .doesNotContain("x".repeat(100));
    }
  }

  private static void run(RestoreFixture f, Path backup, ConflictPolicy policy) throws Exception {
    OperationSummary s = f.restore(RestoreRequest.local(backup.toString()).withPolicy(policy));
    assertThat(s.state()).as(policy + ": " + s.message()).isEqualTo(OperationState.COMPLETED);
  }

  private static void modify(SlapdServer slapd, String dn, String change) throws Exception {
    slapd.ldap(
        "ldapmodify",
        ("dn: " + dn + "\nchangetype: modify\n" + change).getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> attribute(SlapdServer slapd, String base, String dn, String name)
      throws Exception {
    Map<String, List<String>> entry = Ldif.search(slapd, base, "(objectClass=*)").get(dn);
    return entry == null ? null : entry.get(name);
  }
}
