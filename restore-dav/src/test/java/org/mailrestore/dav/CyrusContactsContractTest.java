package org.mailrestore.dav;

import java.util.UUID;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.mail.ItemType;

/** The DAV target on a real Cyrus (CalDAV, CardDAV) passes the contract, with contacts. */
class CyrusContactsContractTest extends MailTargetContract {

  /** Cyrus keeps its mailboxes for the JVM's life: each test writes to accounts of its own. */
  private final String domain = "c" + UUID.randomUUID().toString().substring(0, 8) + ".example";

  @Override
  protected MailTarget open(TargetContext context) throws Exception {
    return TestCyrusDav.target(context);
  }

  @Override
  protected String domain() {
    return domain;
  }

  @Override
  protected ItemType contentType() {
    return ItemType.CONTACT;
  }
}
