package org.mailrestore.destination;

import java.io.IOException;

/**
 * The target refused one account, domain or list for a reason no retry cures (a schema violation,
 * insufficient access, a naming conflict, a value it cannot hold): that one fails with the target's
 * words and phase 1 goes on with the others. Any other {@link IOException} from provisioning means
 * the target cannot be used now, and stops the phase.
 */
public class ProvisioningRefusedException extends IOException {

  private static final long serialVersionUID = 1L;

  public ProvisioningRefusedException(String message) {
    super(message);
  }

  public ProvisioningRefusedException(String message, Throwable cause) {
    super(message, cause);
  }
}
