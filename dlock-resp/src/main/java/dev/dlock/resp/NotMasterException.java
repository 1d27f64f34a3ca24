package dev.dlock.resp;

import dev.dlock.LockConnectionException;

/**
 * A server the sentinels named as master answered {@code ROLE} with another role: it was just
 * demoted, or the sentinels have not yet noticed a failover. The {@link SentinelDialer} asks again.
 */
final class NotMasterException extends LockConnectionException {
    private static final long serialVersionUID = 1L;

    NotMasterException(String maskedUri, String address, String role) {
        super(maskedUri, "the server at " + address + " is not a master (ROLE: " + role + ")", null);
    }
}
