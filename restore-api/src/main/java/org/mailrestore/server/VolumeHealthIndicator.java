package org.mailrestore.server;

import org.mailrestore.restore.RestoreTarget;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Whether the volume blobs are restored to can be written now; part of readiness, so a service
 * whose volume is gone stops being sent work.
 */
@Component("volume")
class VolumeHealthIndicator extends AbstractHealthIndicator {

  private final RestoreTarget target;

  VolumeHealthIndicator(RestoreTarget target) {
    super("the volume cannot be written");
    this.target = target;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    target.volume().check();
    builder.up().withDetail("volume", target.volume().describe());
  }
}
