package dev.dlock.internal.util;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The verifier's switch that re-introduces fixed safety defects, so that a torture run can show it
 * would catch each defect coming back (docs/verification.md, "Negative controls"). Read once per
 * client from the system property {@value #PROPERTY} (one name, or several separated by commas)
 * when the client is built; a client with a control on logs an error at build time. Never set it
 * outside a verification run.
 *
 * @param on the defects this client re-introduces
 */
public record Controls(Set<Control> on) {
    public static final String PROPERTY = "dlock.unsafe.control";
    public static final Controls NONE = new Controls(Set.of());

    /** One fixed defect that a control can bring back; its property value is the constant's {@link #value()}. */
    public enum Control {
        /**
         * {@code cross-lock-grant}: hand-off messages are routed by owner id alone, whatever the lock and
         * the wait they were issued for.
         */
        CROSS_LOCK_GRANT,
        /**
         * {@code expired-handoff}: an acquire returns a hold without checking that it is still valid
         * (neither when its reply is processed nor on the caller's thread), and waiters refresh their
         * queue entries no more often than every third of the entry lifetime (at least 333 ms) whatever
         * the lease time.
         */
        EXPIRED_HANDOFF,
        /**
         * {@code stale-grant}: a waiter takes any grant its wait is sent, also one issued before a later
         * try of that wait found the lock busy (so one whose hold may have expired and been taken by
         * another), with its validity counted from that later try.
         */
        STALE_GRANT,
        /**
         * {@code multi-lost-part}: a multi-lock returns without checking the names it took before its
         * last one, so a name lost while a later one was waited for is returned in a lease already lost.
         */
        MULTI_LOST_PART,
        /**
         * {@code holders-expiry-lowered}: every write of a shared lock's holder (semaphore permit, read or
         * write hold, its grant) sets the holders' hash to expire in max(7 days, this holder's lease), even
         * when that is shorter than what the hash had, so a short hold beside a fixed lease longer than 7
         * days shortens the key the longer lease lives in (issue 24, defect 4).
         */
        HOLDERS_EXPIRY_LOWERED,
        /**
         * {@code lost-set-permits}: a shared lock's record (its kind and count) is kept only by the acquires,
         * releases, reads and {@code setPermits} of its name, each setting it to expire in 7 days, a count changed
         * by {@code setPermits} included; holders' and waiters' writes and the watchdog's renewals do not keep it,
         * and a semaphore's record found missing while permits are held is made again with the count in code. So a
         * permit held more than 7 days without another use of its name (a fixed lease over 7 days, or renewed)
         * outlives the record, and after {@code setPermits(1)} of a semaphore of 3 the next acquires let three
         * holders in (issue 24, defect 5).
         */
        LOST_SET_PERMITS,
        /**
         * {@code redlock-partial-fence}: a Redlock acquire accepts its fencing write-back after one round
         * once a quorum of nodes confirmed it, although a node that answered the acquire (and granted it)
         * did not, so that node's counter can stay below the token and a later quorum through it issues a
         * smaller token.
         */
        REDLOCK_PARTIAL_FENCE,
        /**
         * {@code redlock-minority-renewal}: a Redlock watchdog renewal moves the lease's deadline once any
         * one node confirms it, not a quorum, so a lease lives on after a force-release or the nodes'
         * data loss took the lock from all but one of its nodes, and another owner can take it on a
         * quorum meanwhile.
         */
        REDLOCK_MINORITY_RENEWAL,
        /**
         * {@code replica-ack-skipped}: a client built with {@code replicaAcks(n)} runs its granting writes
         * (acquires, hand-off re-takes, relays, renewals) without their {@code WAIT} and counts each as
         * acknowledged by {@code n} replicas, so a grant the replica never received counts, and a failover
         * can lose a hold its holder was told is safe.
         */
        REPLICA_ACK_SKIPPED;

        /** The name the property gives this control: the constant's name in lower case with dashes. */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public Controls {
        on = on.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(on));
    }

    /** The controls the system property asks for. */
    public static Controls fromSystemProperty() {
        return parse(System.getProperty(PROPERTY, ""));
    }

    /**
     * The controls a property value names.
     *
     * @throws IllegalArgumentException naming the property and the choices, for an unknown name
     */
    public static Controls parse(String value) {
        EnumSet<Control> on = EnumSet.noneOf(Control.class);
        for (String part : value.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            on.add(Arrays.stream(Control.values())
                    .filter(c -> c.value().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(PROPERTY + " must name one or more of "
                            + Arrays.stream(Control.values())
                                    .map(Control::value)
                                    .collect(Collectors.joining(", "))
                            + " (comma-separated), was '" + value + "'")));
        }
        return new Controls(on);
    }

    public boolean has(Control control) {
        return on.contains(control);
    }

    public boolean crossLockGrant() {
        return has(Control.CROSS_LOCK_GRANT);
    }

    public boolean expiredHandoff() {
        return has(Control.EXPIRED_HANDOFF);
    }

    public boolean holdersExpiryLowered() {
        return has(Control.HOLDERS_EXPIRY_LOWERED);
    }

    public boolean redlockPartialFence() {
        return has(Control.REDLOCK_PARTIAL_FENCE);
    }

    public boolean redlockMinorityRenewal() {
        return has(Control.REDLOCK_MINORITY_RENEWAL);
    }

    public boolean any() {
        return !on.isEmpty();
    }
}
