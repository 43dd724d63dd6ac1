package org.mailrestore.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.Notice;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreRequest;

/** Who hears of an operation's end is what its request asked for. */
class RequestedNoticesTest {

  private final List<String> heard = new ArrayList<>();

  private OperationListener recording(String who) {
    return new OperationListener() {
      @Override
      public void ended(OperationReport report) {
        heard.add(who + " ended");
      }

      @Override
      public void provisioned(OperationSummary summary) {
        heard.add(who + " provisioned");
      }
    };
  }

  private void run(Notice notice) {
    RequestedNotices notices = new RequestedNotices(recording("service"), recording("owners"));
    RestoreRequest request = RestoreRequest.local("/backups/b").withNotice(notice);
    OperationSummary summary =
        new OperationSummary(
            "op",
            OperationState.COMPLETED,
            null,
            "/backups/b",
            request,
            Instant.EPOCH,
            Instant.EPOCH,
            Instant.EPOCH,
            null,
            null,
            null,
            null,
            new OperationSummary.Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    notices.provisioned(summary);
    notices.ended(new OperationReport(OperationReport.VERSION, summary, List.of(), List.of()));
  }

  @Test
  void byDefaultTheServiceHearsOfBothAndTheOwnersOfNothing() {
    run(Notice.DEFAULT);
    assertThat(heard).containsExactly("service provisioned", "service ended");
  }

  @Test
  void ownersAreToldOfTheEndOnlyWhenAsked() {
    run(new Notice(true, true));
    assertThat(heard).containsExactly("service provisioned", "service ended", "owners ended");
  }

  @Test
  void aRequestCanKeepTheServicesRecipientsOutOfIt() {
    run(new Notice(false, true));
    assertThat(heard).containsExactly("owners ended");
  }
}
