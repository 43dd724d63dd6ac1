package org.mailrestore.restore.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.maildir.MaildirLayout;
import org.mailrestore.maildir.MaildirSource;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.run.CancelSignal;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Workers;
import org.mailrestore.source.ForwardingMailSource;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceSpec;

/**
 * The addresses an operation claims come from reading every account of its source; a Maildir walks
 * each user's folders for it, so several accounts are read at once, within the operation's bound.
 */
class TargetNamesTest {

  private static final int ACCOUNTS_AT_ONCE = 3;

  @TempDir Path dir;

  @Test
  void accountsAreReadSeveralAtOnceAndEveryAddressIsClaimed() throws Exception {
    Path tree = tree(7);
    try (MaildirSource maildir = new MaildirSource(tree, "example.org", MaildirLayout.AUTO);
        ExecutorService io = Executors.newVirtualThreadPerTaskExecutor()) {
      // The first two readers wait for each other: read one after another, they could not meet.
      CountDownLatch firstTwo = new CountDownLatch(2);
      AtomicInteger reading = new AtomicInteger();
      AtomicInteger mostAtOnce = new AtomicInteger();
      MailSource watched =
          new ForwardingMailSource(maildir) {
            @Override
            public Parsed<Account> account(String accountId) {
              mostAtOnce.accumulateAndGet(reading.incrementAndGet(), Math::max);
              try {
                firstTwo.countDown();
                firstTwo.await(10, TimeUnit.SECONDS);
                return delegate.account(accountId);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              } finally {
                reading.decrementAndGet();
              }
            }
          };

      Set<String> names = AccountClaims.targetNames(run(watched, tree), workers(io));

      Set<String> oneByOne = new TreeSet<>();
      for (String id : maildir.accountIds()) {
        if (maildir.account(id) instanceof Parsed.Ok<Account>(Account a, String at)) {
          oneByOne.add(a.name());
        }
      }
      assertThat(names).hasSize(7).containsExactlyElementsOf(oneByOne);
      assertThat(mostAtOnce.get()).isBetween(2, ACCOUNTS_AT_ONCE);
    }
  }

  @Test
  void aSourceThatCannotBeReadFailsTheClaimAsItFailed() throws Exception {
    Path tree = tree(4);
    try (MaildirSource maildir = new MaildirSource(tree, "example.org", MaildirLayout.AUTO);
        ExecutorService io = Executors.newVirtualThreadPerTaskExecutor()) {
      MailSource failing =
          new ForwardingMailSource(maildir) {
            @Override
            public Parsed<Account> account(String accountId) {
              if (accountId.equals("user2")) {
                throw new UncheckedIOException(new IOException("the disk went away"));
              }
              return delegate.account(accountId);
            }
          };

      // Unchecked, as before: the engine ends such an operation as one whose source is unreachable.
      assertThatThrownBy(() -> AccountClaims.targetNames(run(failing, tree), workers(io)))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("the disk went away");
    }
  }

  /** Users user0..user(n-1), each a Maildir with a folder or two. */
  private Path tree(int users) throws IOException {
    Path tree = dir.resolve("tree");
    for (int u = 0; u < users; u++) {
      Path user = tree.resolve("user" + u);
      for (String folder : List.of("", ".Sent", ".Archive.2020")) {
        for (String part : List.of("cur", "new", "tmp")) {
          Files.createDirectories(user.resolve(folder).resolve(part));
        }
      }
      Files.writeString(user.resolve("cur/1.host:2,S"), "Subject: hi\n\nhello\n");
    }
    return tree;
  }

  private static OperationRun run(MailSource source, Path tree) {
    return new OperationRun(
        "op",
        RestoreRequest.of(SourceSpec.of("maildir", tree.toString())),
        source,
        null,
        new CancelSignal(),
        null,
        "identity");
  }

  private static Workers workers(ExecutorService io) {
    return new Workers(
        new Concurrency(ACCOUNTS_AT_ONCE, 2, 4), new Semaphore(4), new Semaphore(1), io);
  }
}
