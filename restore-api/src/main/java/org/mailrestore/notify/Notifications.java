package org.mailrestore.notify;

import java.util.List;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationSummary;

/** Several listeners heard in turn: a webhook and a mail, say. */
public record Notifications(List<OperationListener> listeners) implements OperationListener {

  public Notifications {
    listeners = List.copyOf(listeners);
  }

  @Override
  public void ended(OperationReport report) {
    listeners.forEach(l -> l.ended(report));
  }

  @Override
  public void provisioned(OperationSummary summary) {
    listeners.forEach(l -> l.provisioned(summary));
  }
}
