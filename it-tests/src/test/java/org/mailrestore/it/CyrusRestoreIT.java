package org.mailrestore.it;

/** The IMAP scenarios against Cyrus. */
class CyrusRestoreIT extends ImapRestoreScenarios {

  @Override
  ImapServers kind() {
    return ImapServers.CYRUS;
  }
}
