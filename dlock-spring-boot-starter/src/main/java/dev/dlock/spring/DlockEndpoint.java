package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.LockInfo;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code dlock} actuator endpoint: the locks this application holds through {@link Locked}, with
 * their leases, and the number of holds its client has open by lock name, those taken directly
 * through the {@link LockClient} API included (both read from memory, no Redis call); and any one
 * lock as Redis has it ({@code /actuator/dlock/{name}}, one round trip). Thread-safe.
 */
@Endpoint(id = "dlock")
public class DlockEndpoint {
    private final LockClient client;
    private final LockedHolds holds;
    private final ClientHolds clientHolds;

    /**
     * Creates the endpoint.
     *
     * @param client the lock client
     * @param holds the holds taken through {@code @Locked}, or null when {@code @Locked} is off
     * @param clientHolds the open holds of the auto-configured client, or null
     */
    DlockEndpoint(LockClient client, LockedHolds holds, ClientHolds clientHolds) {
        this.client = client;
        this.holds = holds;
        this.clientHolds = clientHolds;
    }

    /**
     * Lists the locks this application holds through {@code @Locked}, oldest first.
     *
     * @return the client and its holds
     */
    @ReadOperation
    public Locks locks() {
        List<HeldLock> held = holds == null
                ? List.of()
                : holds.snapshot().stream()
                        .map(hold -> new HeldLock(
                                hold.name,
                                hold.lease.fencingToken(),
                                hold.lease.remaining().toMillis(),
                                hold.lease.isValid(),
                                hold.method,
                                hold.acquiredAt.toString(),
                                hold.holdUntil == null ? null : hold.holdUntil.toString()))
                        .toList();
        return new Locks(
                client.clientId(), client.redisUri(), held, clientHolds == null ? null : clientHolds.snapshot());
    }

    /**
     * Reads one lock from Redis, whoever holds it.
     *
     * @param name the lock name
     * @return the lock's state
     */
    @ReadOperation
    public LockStatus lock(@Selector String name) {
        LockInfo state = client.admin().status(name);
        String holder = state.holderId().orElse(null);
        return new LockStatus(
                state.name(),
                state.isLocked(),
                holder,
                holder != null && holder.startsWith(client.clientId() + ":"),
                state.fencingToken(),
                state.remaining().toMillis(),
                state.waiters());
    }

    /**
     * What {@code GET /actuator/dlock} answers.
     *
     * @param clientId the client's id, the prefix of its holder ids
     * @param redisUri the Redis URI, password masked
     * @param held the locks held through {@code @Locked}
     * @param openHolds the client's open holds by lock name ({@code @Locked} and API alike); null when
     *     the application made its own client, whose events the starter does not hear
     */
    public record Locks(String clientId, String redisUri, List<HeldLock> held, Map<String, Integer> openHolds) {}

    /**
     * One lock held through {@code @Locked}.
     *
     * @param name the lock name
     * @param fencingToken the lease's fencing token
     * @param remainingMillis how long the lease stays valid without a renewal
     * @param valid whether the lease is still valid
     * @param method the method that holds it ({@code Class.method})
     * @param acquiredAt when it was taken (ISO-8601)
     * @param holdUntil when a method that returned early lets go of it ({@code holdAtLeast}), else null
     */
    public record HeldLock(
            String name,
            long fencingToken,
            long remainingMillis,
            boolean valid,
            String method,
            String acquiredAt,
            String holdUntil) {}

    /**
     * What {@code GET /actuator/dlock/{name}} answers.
     *
     * @param name the lock name
     * @param held whether anybody holds it
     * @param holderId the holder's owner id, or null when free
     * @param heldByThisApplication whether the holder is this application's client
     * @param fencingToken the holder's token; when free, the last one issued, or 0
     * @param remainingMillis the holder's remaining lease time as Redis counts it
     * @param waiters acquires queued in Redis for it
     */
    public record LockStatus(
            String name,
            boolean held,
            String holderId,
            boolean heldByThisApplication,
            long fencingToken,
            long remainingMillis,
            long waiters) {}
}
