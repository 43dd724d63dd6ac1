package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.mailrestore.testkit.DovecotServer;
import org.mailrestore.testkit.TestDatabase;

/** What the tests of Maildirs real servers wrote share: a CLI restore, and what it restored. */
final class MaildirChecks {

  private MaildirChecks() {}

  /** Restores one user's Maildir through the CLI as {@code account}; it must succeed. */
  static Cli.Result restoreOneUser(Path maildir, String account, TestDatabase db, Path volume)
      throws Exception {
    Cli.Result restored =
        Cli.run(
            Cli.args(
                List.of(
                    "restore",
                    "run",
                    "--maildir",
                    maildir.toString(),
                    "--maildir-account",
                    account),
                Cli.store(db, volume)));
    assertThat(restored.exitCode()).as(restored.out() + restored.err()).isZero();
    return restored;
  }

  /** Subject to "folder | flags | tags" of every message restored. */
  static Map<String, String> messages(DataSource ds) throws SQLException {
    TreeMap<String, String> result = new TreeMap<>();
    try (Connection c = ds.getConnection();
        var s = c.createStatement();
        var rs =
            s.executeQuery(
                "SELECT i.subject, f.name, i.flags, (SELECT GROUP_CONCAT(t.name ORDER BY t.name)"
                    + " FROM tagged_item ti JOIN tag t ON t.mailbox_id = ti.mailbox_id"
                    + " AND t.id = ti.tag_id WHERE ti.mailbox_id = i.mailbox_id"
                    + " AND ti.item_id = i.id) FROM mail_item i JOIN mail_item f"
                    + " ON f.mailbox_id = i.mailbox_id AND f.id = i.folder_id WHERE i.type = 5")) {
      while (rs.next()) {
        List<String> parts = new ArrayList<>();
        parts.add(rs.getString(2));
        parts.add(String.valueOf(rs.getInt(3)));
        parts.add(rs.getString(4) == null ? "" : rs.getString(4));
        result.put(rs.getString(1), String.join(" | ", parts));
      }
    }
    return result;
  }

  /** Exports {@code account} through the CLI as a Maildir into {@code out}; it must succeed. */
  static void exportOneUser(String account, TestDatabase db, Path out) throws Exception {
    Cli.Result exported =
        Cli.run(
            Cli.args(
                List.of("export", "maildir", "--account", account, "--out", out.toString()),
                Cli.database(db)));
    assertThat(exported.exitCode()).as(exported.out() + exported.err()).isZero();
  }

  /**
   * Has Dovecot search the Maildir at {@code location} ({@code mail_location=...}) as {@code user},
   * once per query ({@code <mailbox> <search key>...}): each must find exactly one message.
   */
  @SafeVarargs
  static void assertDovecotFindsOne(
      DovecotServer dovecot, String location, String user, List<String>... queries)
      throws Exception {
    for (List<String> query : queries) {
      List<String> args = new ArrayList<>(List.of("-o", location, "search", "-u", user, "mailbox"));
      args.addAll(query);
      assertThat(dovecot.doveadm(null, args.toArray(String[]::new)).lines().count())
          .as("Dovecot finds one message by %s", query)
          .isOne();
    }
  }
}
