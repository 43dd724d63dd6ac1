package org.mailrestore.server;

import org.mailrestore.restore.Restores;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Whether the target restores write to (the mailstore's volume) can be written now; part of
 * readiness, so a service whose volume is gone stops being sent work.
 */
@Component("volume")
class VolumeHealthIndicator extends AbstractHealthIndicator {

  private final Restores restores;

  VolumeHealthIndicator(Restores restores) {
    super("the volume cannot be written");
    this.restores = restores;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    builder.up().withDetail("volume", restores.checkTarget());
  }
}
