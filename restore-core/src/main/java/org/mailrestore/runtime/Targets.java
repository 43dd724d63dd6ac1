package org.mailrestore.runtime;

import java.io.IOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.mailrestore.restore.TargetOpener;
import org.mailrestore.target.MailTarget;
import org.mailrestore.target.TargetContext;
import org.mailrestore.target.TargetKinds;
import org.mailrestore.target.TargetSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens targets through the installed target kinds, once per spec; closes them at the end. */
final class Targets implements TargetOpener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Targets.class);

  private final TargetSpec defaultSpec;
  private final TargetContext context;
  private final Map<TargetSpec, MailTarget> open = new HashMap<>();

  Targets(TargetSpec defaultSpec, TargetContext context) {
    this.defaultSpec = defaultSpec == null ? null : TargetKinds.installed().normalize(defaultSpec);
    this.context = context;
  }

  TargetSpec defaultSpec() {
    return defaultSpec;
  }

  @Override
  public synchronized MailTarget open(TargetSpec spec) throws SQLException, IOException {
    TargetSpec wanted = spec == null ? defaultSpec : TargetKinds.installed().normalize(spec);
    if (wanted == null) {
      throw new IOException("no target: name one (--volume, --target), or configure a default");
    }
    MailTarget target = open.get(wanted);
    if (target == null) {
      target = TargetKinds.installed().open(wanted, context);
      open.put(wanted, target);
    }
    return target;
  }

  @Override
  public String describe(TargetSpec spec) {
    TargetSpec described = spec == null ? defaultSpec : spec;
    return described == null ? "no target" : TargetKinds.installed().describe(described);
  }

  @Override
  public synchronized void close() {
    for (MailTarget target : open.values()) {
      try {
        target.close();
      } catch (IOException e) {
        LOG.warn("closing {}: {}", target.describe(), e.getMessage());
      }
    }
    open.clear();
  }
}
