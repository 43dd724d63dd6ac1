package org.mailrestore.runtime;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.run.TargetOpener;
import org.mailrestore.runtime.compose.ComposedTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens targets through the installed target kinds, once per spec, and composes several into one;
 * closes them at the end.
 */
final class Targets implements TargetOpener, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Targets.class);

  private final List<TargetSpec> defaults;
  private final TargetContext context;
  private final Map<TargetSpec, MailTarget> open = new HashMap<>();

  Targets(List<TargetSpec> defaults, TargetContext context) {
    this.defaults = defaults.stream().map(TargetSpec::normalize).toList();
    this.context = context;
  }

  @Override
  public List<TargetSpec> defaults() {
    return defaults;
  }

  @Override
  public synchronized MailTarget open(List<TargetSpec> specs) throws SQLException, IOException {
    List<TargetSpec> wanted =
        specs.isEmpty() ? defaults : specs.stream().map(TargetSpec::normalize).toList();
    if (wanted.isEmpty()) {
      throw new IOException("no target: name one (--volume, --target), or configure a default");
    }
    List<MailTarget> parts = new ArrayList<>();
    for (TargetSpec spec : wanted) {
      MailTarget target = open.get(spec);
      if (target == null) {
        target = spec.open(context);
        open.put(spec, target);
      }
      parts.add(target);
    }
    if (parts.stream().allMatch(t -> t.contentTypes().isEmpty())) {
      throw new IOException(
          "no target here takes mail ("
              + parts.stream().map(MailTarget::describe).collect(Collectors.joining(", "))
              + " holds accounts only): name where the mailboxes go too (--volume, --target)");
    }
    return parts.size() == 1 ? parts.get(0) : new ComposedTarget(parts);
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
