package org.mailrestore.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.folders.FolderGraph;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.FailureReason;
import org.mailrestore.restore.RestoreMetrics;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.bookkeeping.Bookkeeping;
import org.mailrestore.restore.bookkeeping.ClusterRecord;
import org.mailrestore.restore.bookkeeping.EngineSchema;
import org.mailrestore.restore.bookkeeping.IdSpace;
import org.mailrestore.source.Passing;
import org.mailrestore.target.FolderBatch.FolderToWrite;
import org.mailrestore.target.FolderBatch.TagToWrite;
import org.mailrestore.target.ItemBatch.ItemToWrite;
import org.mailrestore.target.RestoredStore.Fidelity;
import org.mailrestore.target.RestoredStore.RestoredItem;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * What every {@link MailTarget} must do, whatever it writes to. An implementation's test extends
 * this class and opens its target in the test's bookkeeping database; the contract drives the three
 * phases through the SPI, with the engine's real journal, and reads the result back.
 */
public abstract class MailTargetContract {

  /** Opens the target under test. */
  protected abstract MailTarget open(TargetContext context) throws Exception;

  private TestDatabase database;
  private Bookkeeping books;
  private MailTarget target;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RestoreMetrics metrics = new RestoreMetrics(registry);
  private final ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<BlobDigest, byte[]> contents = new HashMap<>();
  private String operationId;

  @BeforeEach
  void openTarget() throws Exception {
    database = TestMariaDb.createDatabase();
    EngineSchema.migrate(database.dataSource());
    books = new Bookkeeping(database.dataSource());
    target =
        open(
            new TargetContext(
                database.dataSource(),
                S3Profiles.none(registry),
                StorageLimits.DEFAULT,
                registry,
                System.getenv()));
    operationId = UUID.randomUUID().toString();
    books.operations().create(operationId, RestoreRequest.local("/contract"), "contract", null);
  }

  @AfterEach
  void closeTarget() throws IOException {
    io.shutdownNow();
    if (target != null) {
      target.close();
    }
    database.close();
  }

  // ---- the engine's side, as the contract plays it ------------------------------------------

  /** The accounts' domain: a target whose accounts outlive the test gives each run its own. */
  protected String domain() {
    return "contract.example.org";
  }

  private ProvisionedAccount provision(String user) throws Exception {
    TargetProvisioning p = target.provisioning();
    p.ensureDomain(new Domain(domain(), "active", Map.of()));
    Account account =
        new Account(
            user, user + "@" + domain(), domain(), null, "active", false, List.of(), Map.of());
    return p.find(account.name()).isPresent()
        ? p.update(p.find(account.name()).get(), account, false, false)
        : p.create(account, account.name(), UUID.randomUUID().toString(), false);
  }

  /** The account's row in the bookkeeping, claimed, as the engine claims accounts. */
  private IdSpace claim(String sourceId, ProvisionedAccount account) throws SQLException {
    books.accounts().add(operationId, sourceId, account.name());
    int ref = books.idMap().sourceRef("contract/" + sourceId);
    books.accounts().provisioned(operationId, sourceId, account, ref, AccountState.PROVISIONED);
    assertThat(books.accounts().claimNext(operationId, "contract", 300)).isPresent();
    return new IdSpace(account.key(), ref);
  }

  private ClusterRecord journal(String sourceId, IdSpace space, int seq) {
    return new ClusterRecord(
        database.dataSource(),
        new ClusterRecord.Header(operationId, sourceId, "contract", space, seq, 0, 0, List.of()),
        metrics);
  }

  private WriteContext context(String sourceId) {
    BlobSource blobs =
        new BlobSource() {
          @Override
          public InputStream open(BlobDigest digest) throws IOException {
            byte[] b = contents.get(digest);
            if (b == null) {
              throw new BlobException(BlobException.Reason.MISSING, "no blob " + digest);
            }
            return new ByteArrayInputStream(b);
          }

          @Override
          public String describe(BlobDigest digest) {
            return "contract blob " + digest;
          }
        };
    return new WriteContext(
        operationId, sourceId, blobs, io, new Semaphore(8), new Semaphore(2), metrics);
  }

  private static byte[] message(String subject) {
    return ("From: a@example.org\r\nSubject: " + subject + "\r\n\r\nbody of " + subject + "\r\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private ItemToWrite item(int oldId, int folder, String subject, String flags, List<String> tags) {
    byte[] bytes = message(subject);
    BlobDigest digest = BlobDigest.ofContent(bytes);
    contents.put(digest, bytes);
    Revision state =
        Revision.builder(1, 0)
            .folder(folder)
            .flags(flags)
            .tags(tags)
            .date(1_700_000_000_000L + oldId * 1000L)
            .subject(subject)
            .blob(bytes.length, digest)
            .build();
    return new ItemToWrite(oldId, ItemType.MESSAGE, state, folder, "item " + oldId, null);
  }

  /** Writes cluster 0: folders Work and Work/Sub, tag Urgent; returns the folder map. */
  private Map<Integer, Integer> writeFolders(MailboxWriter writer, String sourceId, IdSpace space)
      throws Exception {
    FolderToWrite work =
        new FolderToWrite(
            300,
            ItemType.FOLDER,
            new FolderGraph.Parent.System(SystemFolder.USER_ROOT.id()),
            "Work",
            Revision.builder(1, 0).folder(1).name("Work").view("message").build(),
            "work");
    FolderToWrite sub =
        new FolderToWrite(
            301,
            ItemType.FOLDER,
            new FolderGraph.Parent.Planned(300),
            "Sub",
            Revision.builder(1, 0).folder(300).name("Sub").view("message").build(),
            "sub");
    ClusterRecord journal = journal(sourceId, space, 0);
    writer.writeFolders(
        new FolderBatch(
            List.of(work, sub), null, Map.of(), List.of(new TagToWrite(400, "Urgent", -1, "tag"))),
        journal);
    return journal.mappings();
  }

  // ---- the contract ---------------------------------------------------------------------------

  @Test
  void provisioningIsIdempotent() throws Exception {
    ProvisionedAccount first = provision("ann");
    ProvisionedAccount again = provision("ann");
    assertThat(again.key()).isEqualTo(first.key());
    assertThat(again.id()).isEqualTo(first.id());
    assertThat(target.provisioning().find("ann@" + domain())).isPresent();
    assertThat(target.provisioning().find("nobody@" + domain())).isEmpty();
  }

  @Test
  void foldersAndItemsAreWrittenThenReadBackAsTheyWere() throws Exception {
    ProvisionedAccount account = provision("bea");
    IdSpace space = claim("bea", account);
    try (MailboxWriter writer = target.mailbox(account, context("bea"))) {
      Map<Integer, Integer> folders = writeFolders(writer, "bea", space);
      assertThat(folders).containsKeys(300, 301);
      List<ItemToWrite> items =
          List.of(
              item(1000, folders.get(300), "first", "", List.of("Urgent")),
              item(1001, folders.get(301), "second", "uf", List.of()),
              item(1002, SystemFolder.INBOX.id(), "third", "r", List.of()));
      ClusterRecord journal = journal("bea", space, 1);
      writer.writeItems(new ItemBatch(1, items, false), journal);
      writer.finish();
      assertThat(journal.counters().restored()).isEqualTo(3);
      Map<Integer, Integer> ids = journal.mappings();
      RestoredStore store = target.readBack();
      Map<Integer, RestoredItem> held = store.items(account, ids.values());
      assertThat(held).hasSize(3);
      for (ItemToWrite written : items) {
        RestoredItem read = held.get(ids.get(written.oldId()));
        Revision state = read.item().revisions().get(0);
        assertThat(read.item().type()).isEqualTo(ItemType.MESSAGE);
        assertThat(state.folderId()).isEqualTo(written.folder());
        assertThat(Flags.normalize(state.flags()))
            .isEqualTo(Flags.normalize(written.state().flags()));
        assertThat(state.date() / 1000).isEqualTo(written.state().date() / 1000);
        try (InputStream in = read.content().open()) {
          assertThat(in.readAllBytes()).isEqualTo(contents.get(written.state().digest()));
        }
        if (store.fidelity().contains(Fidelity.TAGS)) {
          assertThat(state.tags().stream().map(String::toLowerCase).toList())
              .isEqualTo(written.state().tags().stream().map(String::toLowerCase).toList());
        }
      }
    }
  }

  @Test
  void aClusterWrittenAgainAfterItsJournalFailedHoldsEachItemOnce() throws Exception {
    ProvisionedAccount account = provision("cid");
    IdSpace space = claim("cid", account);
    try (MailboxWriter writer = target.mailbox(account, context("cid"))) {
      Map<Integer, Integer> folders = writeFolders(writer, "cid", space);
      long before = target.readBack().countItems(account);
      List<ItemToWrite> items = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        items.add(item(2000 + i, folders.get(300), "again " + i, "", List.of()));
      }
      ItemBatch batch = new ItemBatch(1, items, false);
      // The journal fails after the target wrote: a lost commit, as far as the target can tell.
      assertThatThrownBy(() -> writer.writeItems(batch, failing(journal("cid", space, 1))))
          .isInstanceOf(SQLException.class);
      ClusterRecord retry = journal("cid", space, 1);
      writer.writeItems(batch.asInDoubt(), retry);
      assertThat(target.readBack().countItems(account)).isEqualTo(before + items.size());
      assertThat(retry.mappings()).hasSize(items.size());
    }
  }

  @Test
  void contentTakenAsItPassedIsWritten() throws Exception {
    ProvisionedAccount account = provision("dan");
    IdSpace space = claim("dan", account);
    try (MailboxWriter writer = target.mailbox(account, context("dan"))) {
      byte[] bytes = message("passing");
      ItemBatch.Staged staged = writer.stage(passing(bytes), null);
      assertThat(staged.digest()).isEqualTo(BlobDigest.ofContent(bytes));
      assertThat(staged.size()).isEqualTo(bytes.length);
      Revision state =
          Revision.builder(1, 0)
              .folder(SystemFolder.INBOX.id())
              .date(1_700_000_000_000L)
              .blob(bytes.length, staged.digest())
              .build();
      ClusterRecord journal = journal("dan", space, 1);
      writer.writeItems(
          new ItemBatch(
              1,
              List.of(
                  new ItemToWrite(
                      3000, ItemType.MESSAGE, state, SystemFolder.INBOX.id(), "passing", staged)),
              false),
          journal);
      RestoredItem read =
          target.readBack().items(account, journal.mappings().values()).values().iterator().next();
      try (InputStream in = read.content().open()) {
        assertThat(in.readAllBytes()).isEqualTo(bytes);
      }
    }
  }

  @Test
  void anItemWhoseContentCannotBeReadFailsAloneWithAReason() throws Exception {
    ProvisionedAccount account = provision("eve");
    IdSpace space = claim("eve", account);
    try (MailboxWriter writer = target.mailbox(account, context("eve"))) {
      ItemToWrite good = item(4000, SystemFolder.INBOX.id(), "good", "", List.of());
      ItemToWrite lost = item(4001, SystemFolder.INBOX.id(), "lost", "", List.of());
      contents.remove(lost.state().digest());
      ClusterRecord journal = journal("eve", space, 1);
      writer.writeItems(new ItemBatch(1, List.of(good, lost), false), journal);
      assertThat(journal.counters().restored()).isEqualTo(1);
      assertThat(journal.counters().failed()).isEqualTo(1);
      assertThat(journal.mappings()).containsOnlyKeys(4000);
      assertThat(books.failures().list(operationId, 0, 10))
          .singleElement()
          .satisfies(f -> assertThat(f.reason()).isEqualTo(FailureReason.BLOB_MISSING.name()));
    }
  }

  @Test
  void grantsItHoldsAreReadBack() throws Exception {
    ProvisionedAccount owner = provision("fay");
    ProvisionedAccount grantee = provision("gus");
    IdSpace space = claim("fay", owner);
    Map<Integer, Integer> folders;
    try (MailboxWriter writer = target.mailbox(owner, context("fay"))) {
      folders = writeFolders(writer, "fay", space);
    }
    Grant grant = new Grant(300, GranteeType.USER, "gus", "gus@" + domain(), "rwi");
    boolean held = target.shares().grant(owner, folders.get(300), grant, grantee.id());
    if (held && target.readBack().fidelity().contains(Fidelity.GRANTS)) {
      assertThat(target.readBack().grants(owner))
          .anySatisfy(g -> {
            assertThat(g.folderId()).isEqualTo(folders.get(300));
            assertThat(g.granteeType()).isEqualTo(GranteeType.USER);
            assertThat(g.granteeId()).isEqualTo(grantee.id());
            assertThat(g.rights()).isEqualTo("rwi");
          });
    }
    assertThat(target.shares().accountId(null, "gus@" + domain())).contains(grantee.id());
  }

  private static Passing passing(byte[] bytes) {
    return new Passing() {
      private boolean opened;

      @Override
      public InputStream open() {
        if (opened) {
          throw new IllegalStateException("passing content is read once");
        }
        opened = true;
        return new ByteArrayInputStream(bytes);
      }

      @Override
      public long size() {
        return bytes.length;
      }

      @Override
      public String describe() {
        return "passing content";
      }
    };
  }

  /** A journal whose commit fails (after the target's own writes): a lost commit. */
  private static ClusterJournal failing(ClusterJournal real) {
    return new ClusterJournal() {
      @Override
      public int seq() {
        return real.seq();
      }

      @Override
      public void restored(FolderToWrite folder, int newId) {
        real.restored(folder, newId);
      }

      @Override
      public void restored(TagToWrite tag, int newId) {
        real.restored(tag, newId);
      }

      @Override
      public void restored(ItemToWrite item, int newId) {
        real.restored(item, newId);
      }

      @Override
      public void sameAs(TagToWrite tag, int existingId) {
        real.sameAs(tag, existingId);
      }

      @Override
      public void mapped(int oldId, int newId) {
        real.mapped(oldId, newId);
      }

      @Override
      public void failed(ItemToWrite item, FailureReason reason, String detail) {
        real.failed(item, reason, detail);
      }

      @Override
      public void dedupHits(long count) {
        real.dedupHits(count);
      }

      @Override
      public void writeIn(Connection connection) throws SQLException {
        throw new SQLException("simulated: the commit's answer was lost");
      }

      @Override
      public void commit() throws SQLException {
        throw new SQLException("simulated: the commit's answer was lost");
      }
    };
  }
}
