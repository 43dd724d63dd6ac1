package org.mailrestore.backup;

import java.util.List;
import org.mailrestore.mail.Grant;

/** The contents of {@code accounts/<id>/shares.json}: grants on the account's folders. */
record Shares(List<Grant> grants) {
  Shares {
    grants = grants == null ? List.of() : List.copyOf(grants);
  }
}
