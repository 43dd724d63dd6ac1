package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.verify.Verifier;
import tools.jackson.databind.JsonNode;

/**
 * Restores of one generated backup as of several instants, and with an undelete window, match the
 * expected state exactly. The expectation is computed here, from the backup's JSON read with plain
 * Jackson and the format's rule (the revision with validFrom <= T < validTo), independently of the
 * restore's decoder.
 */
class PointInTimeTest {

  @TempDir static Path dir;
  static Path backup;
  static List<Long> instants;

  /** One item of the backup, as its JSON says. */
  record Rev(long from, long to, boolean deleted, JsonNode node) {}

  record Entry(int id, String type, List<Rev> revisions) {}

  @BeforeAll
  static void generate() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(3)
            .withItemsPerAccount(500)
            .withLargeRate(0)
            .withShares(false)
            .withFractions(0.2, 0.5, 0.1),
        backup);
    TreeSet<Long> froms = new TreeSet<>();
    for (List<Entry> items : read().values()) {
      items.forEach(e -> e.revisions().forEach(r -> froms.add(r.from())));
    }
    List<Long> sorted = new ArrayList<>(froms);
    instants =
        List.of(
            sorted.get(sorted.size() * 3 / 10),
            sorted.get(sorted.size() * 6 / 10),
            sorted.get(sorted.size() * 9 / 10));
  }

  /** Every account's items, read straight from the packed JSON Lines. */
  static Map<String, List<Entry>> read() throws Exception {
    Map<String, List<Entry>> accounts = new HashMap<>();
    try (Stream<Path> dirs = Files.list(backup.resolve("accounts"))) {
      for (Path account : dirs.toList()) {
        JsonNode info = Json.MAPPER.readTree(account.resolve("account.json").toFile());
        List<Entry> items = new ArrayList<>();
        try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(
                    new ZstdInputStream(Files.newInputStream(account.resolve("items.jsonl.zst"))),
                    StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
              continue;
            }
            JsonNode item = Json.MAPPER.readTree(line);
            List<Rev> revs = new ArrayList<>();
            JsonNode list = item.get("revisions");
            for (int i = 0; i < list.size(); i++) {
              JsonNode r = list.get(i);
              long from = r.get("validFrom").asLong();
              JsonNode to = r.get("validTo");
              long until =
                  to != null && !to.isNull()
                      ? to.asLong()
                      : i + 1 < list.size()
                          ? list.get(i + 1).get("validFrom").asLong()
                          : Long.MAX_VALUE;
              boolean deleted = r.has("deleted") && r.get("deleted").asBoolean();
              revs.add(new Rev(from, until, deleted, r));
            }
            items.add(new Entry(item.get("id").asInt(), item.get("type").asString(), revs));
          }
        }
        accounts.put(info.get("name").asString(), items);
      }
    }
    return accounts;
  }

  /** The revision in force at t, or null. */
  static Rev at(Entry e, long t) {
    for (Rev r : e.revisions()) {
      if (r.from() <= t && t < r.to()) {
        return r;
      }
    }
    return null;
  }

  /**
   * What the store must hold: one line per user item (folders and content, not tags) with its uuid,
   * type, containing folder (by uuid, or system id), name, flags, subject and digest.
   */
  static TreeSet<String> expected(long t, Long undeleteFrom, Long undeleteTo) throws Exception {
    TreeSet<String> lines = new TreeSet<>();
    for (Map.Entry<String, List<Entry>> account : read().entrySet()) {
      Map<Integer, JsonNode> states = new HashMap<>();
      Map<Integer, String> types = new HashMap<>();
      for (Entry e : account.getValue()) {
        if (e.id() < 256 || e.type().equals("tag")) {
          continue;
        }
        Rev r = at(e, t);
        JsonNode state = r != null && !r.deleted() ? r.node() : null;
        if (r != null
            && r.deleted()
            && undeleteFrom != null
            && r.from() >= undeleteFrom
            && r.from() < undeleteTo) {
          int index = e.revisions().indexOf(r);
          state = index > 0 ? e.revisions().get(index - 1).node() : null;
        }
        if (state != null) {
          states.put(e.id(), state);
          types.put(e.id(), e.type());
        }
      }
      for (Map.Entry<Integer, JsonNode> s : states.entrySet()) {
        JsonNode n = s.getValue();
        int folder = n.get("folder").asInt();
        String parent =
            folder < 256 ? "sys:" + folder : text(states.get(folder), "uuid", "missing:" + folder);
        lines.add(
            String.join(
                "|",
                account.getKey(),
                text(n, "uuid", ""),
                String.valueOf(ItemType.fromWireName(types.get(s.getKey())).code()),
                parent,
                text(n, "name", ""),
                String.valueOf(Flags.toBits(text(n, "flags", ""))),
                text(n, "subject", ""),
                text(n, "digest", "")));
      }
    }
    return lines;
  }

  private static String text(JsonNode n, String field, String otherwise) {
    return n != null && n.has(field) && !n.get(field).isNull()
        ? n.get(field).asString()
        : otherwise;
  }

  private OperationSummary restore(RestoreFixture f, RestoreRequest request) throws Exception {
    OperationSummary summary = f.restore(request.withClusterSize(97));
    assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.COMPLETED);
    return summary;
  }

  @Test
  void restoresAsOfThreeInstantsMatchTheExpectedStateExactly() throws Exception {
    TreeSet<String> previous = null;
    for (long t : instants) {
      TreeSet<String> expected = expected(t, null, null);
      assertThat(expected).hasSizeGreaterThan(300);
      try (RestoreFixture f = new RestoreFixture()) {
        restore(f, RestoreRequest.local(backup.toString()).withAsOf(Instant.ofEpochMilli(t)));
        assertThat(StoreContents.items(f))
            .as("as of %s", Instant.ofEpochMilli(t))
            .isEqualTo(expected);
        assertThat(
                f.verify(
                        backup,
                        Verifier.Options.defaults()
                            .withPointInTime(
                                new org.mailrestore.mail.PointInTime(Instant.ofEpochMilli(t))))
                    .differences())
            .isEmpty();
      }
      assertThat(expected).as("the instants see different states").isNotEqualTo(previous);
      previous = expected;
    }
  }

  @Test
  void anUndeleteWindowBringsBackExactlyTheItemsDeletedInIt() throws Exception {
    long from = instants.get(0);
    long to = instants.get(2);
    TreeSet<String> latest = expected(Long.MAX_VALUE - 1, null, null);
    TreeSet<String> expected = expected(Long.MAX_VALUE - 1, from, to);
    assertThat(expected.size()).as("items deleted in the window").isGreaterThan(latest.size());
    try (RestoreFixture f = new RestoreFixture()) {
      restore(
          f,
          RestoreRequest.local(backup.toString())
              .withUndelete(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)));
      assertThat(StoreContents.items(f)).isEqualTo(expected);
      assertThat(
              f.verify(
                      backup,
                      Verifier.Options.defaults()
                          .withPointInTime(
                              org.mailrestore.mail.PointInTime.LATEST.withUndelete(
                                  Instant.ofEpochMilli(from), Instant.ofEpochMilli(to))))
                  .differences())
          .isEmpty();
    }
  }
}
