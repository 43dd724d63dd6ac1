package org.mailrestore.server;

import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.target.MailTarget;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Whether the target restores write to (the mailstore's volume) can be written now; part of
 * readiness, so a service whose volume is gone stops being sent work.
 */
@Component("volume")
class VolumeHealthIndicator extends AbstractHealthIndicator {

  private final RestoreRuntime runtime;

  VolumeHealthIndicator(RestoreRuntime runtime) {
    super("the volume cannot be written");
    this.runtime = runtime;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    MailTarget target = runtime.target(null);
    target.check();
    builder.up().withDetail("volume", target.describe());
  }
}
