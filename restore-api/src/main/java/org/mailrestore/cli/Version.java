package org.mailrestore.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest (set by the build). */
final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = MailrestoreCli.class.getPackage().getImplementationVersion();
    return new String[] {"mailrestore " + (version == null ? "(development build)" : version)};
  }
}
