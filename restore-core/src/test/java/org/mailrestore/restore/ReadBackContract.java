package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.mailrestore.blob.PathFence;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.maildir.ReferenceMaildir;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;

/**
 * The source contract for a target read back (what {@code verify} and {@code export} read): the
 * reference mailboxes are laid out as a Maildir tree, restored into the target by the engine, and
 * read back through the target's own source view.
 */
public abstract class ReadBackContract extends MailSourceContract {

  private RestoreFixture fixture;

  /** The target(s) the reference is restored into, for a test's directory. */
  protected abstract List<TargetSpec> targets(Path dir) throws Exception;

  /** Where the targets' secrets come from. */
  protected Map<String, String> environment() {
    return System.getenv();
  }

  @Override
  protected MailSource open(Path root, List<Mailbox> mailboxes) throws IOException {
    Path tree = root.resolve("tree");
    ReferenceMaildir.write(tree, mailboxes);
    try {
      fixture =
          new RestoreFixture(
              targets(root),
              false,
              RestoreEngine.DEFAULT_LEASE_SECONDS,
              PathFence.NONE,
              environment());
      // Replace: a server that outlives the test starts each one with empty mailboxes.
      OperationSummary restored =
          fixture.restore(
              RestoreRequest.of(MaildirSourceKind.of(tree, DOMAIN, "maildir"))
                  .withPolicy(ConflictPolicy.REPLACE));
      assertThat(restored.state()).as(restored.message()).isEqualTo(OperationState.COMPLETED);
    } catch (org.opentest4j.TestAbortedException e) {
      throw e; // the target's server is not here: skipped, saying why
    } catch (Exception e) {
      throw new IOException("restoring the reference: " + e.getMessage(), e);
    }
    return reopen();
  }

  @Override
  protected MailSource reopen() throws IOException {
    try {
      return fixture.store().asSource();
    } catch (SQLException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @AfterEach
  void closeFixture() {
    if (fixture != null) {
      fixture.close();
    }
  }
}
