package dev.dlock.internal.script;

import dev.dlock.LockAdmin;
import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockAdmin.Waiter;
import dev.dlock.LockInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Reads the replies of the scripts that describe a name ({@code info.lua}, {@code shared-info.lua},
 * {@code admin-read.lua}, all listing the queue with {@code queue-read.lua}) into the API's records.
 * Stateless; thread-safe.
 */
public final class Snapshots {
    /** How many queued waiters a snapshot lists, as the scripts' argument. */
    public static final String QUEUE_SHOWN = Integer.toString(LockInfo.QUEUE_SHOWN);

    private Snapshots() {}

    /**
     * A mutex's snapshot from {@code info.lua}'s reply {pttl, token, holder ('' when free), waiters,
     * queue}.
     */
    public static LockInfo mutex(String name, List<?> reply) {
        long pttl = (Long) reply.get(0);
        String holder = (String) reply.get(2);
        return new LockInfo(
                name,
                holder.isEmpty() ? Optional.empty() : Optional.of(holder),
                pttl > 0 ? Duration.ofMillis(pttl) : Duration.ZERO,
                (Long) reply.get(1),
                (Long) reply.get(3),
                queue((List<?>) reply.get(4)));
    }

    /**
     * A shared lock's snapshot from {@code shared-info.lua}'s reply {capacity, weight held, waiters, last
     * token, holders, queue}: the holder it names is the latest (highest token) of those whose weight
     * {@code ofThisView} accepts, given the capacity; when there is none, the token is the last issued.
     */
    public static LockInfo shared(String name, String kind, List<?> reply, ViewFilter ofThisView) {
        long capacity = (Long) reply.get(0);
        List<Holder> holders = holders((List<?>) reply.get(4));
        Holder latest = null;
        for (Holder h : holders) {
            if (ofThisView.accepts(h.weight(), capacity)) {
                latest = h; // holders are by token: the last accepted is the latest
            }
        }
        return new LockInfo(
                name,
                kind,
                latest == null ? Optional.empty() : Optional.of(latest.ownerId()),
                latest == null ? Duration.ZERO : latest.remaining(),
                latest == null ? (Long) reply.get(3) : latest.fencingToken(),
                Math.toIntExact(capacity),
                holders,
                (Long) reply.get(2),
                queue((List<?>) reply.get(5)));
    }

    /** From {@code shared-info.lua}'s reply: the capacity less the weight held, never negative. */
    public static int free(List<?> reply) {
        return (int) Math.max(0, (Long) reply.get(0) - (Long) reply.get(1));
    }

    /** Holders {owner, weight, token, remaining ms}, by token. */
    public static List<Holder> holders(List<?> reply) {
        List<Holder> holders = new ArrayList<>(reply.size());
        for (Object entry : reply) {
            List<?> h = (List<?>) entry;
            holders.add(new Holder(
                    (String) h.get(0), Math.toIntExact((Long) h.get(1)), (Long) h.get(2), millis((Long) h.get(3))));
        }
        holders.sort(Comparator.comparingLong(Holder::fencingToken));
        return holders;
    }

    /** Waiters {owner, weight}, in the reply's (FIFO) order. */
    public static List<Waiter> queue(List<?> reply) {
        List<Waiter> queue = new ArrayList<>(reply.size());
        for (Object entry : reply) {
            List<?> w = (List<?>) entry;
            queue.add(new LockAdmin.Waiter((String) w.get(0), Math.toIntExact((Long) w.get(1))));
        }
        return queue;
    }

    /** Milliseconds left as a duration: zero when none are (or the key has no expiry). */
    static Duration millis(long left) {
        return Duration.ofMillis(Math.max(0, left));
    }

    /** Which holders of a shared lock a view stands for, by weight against the capacity. */
    @FunctionalInterface
    public interface ViewFilter {
        /** Every holder: a semaphore's permits. */
        ViewFilter ALL = (weight, capacity) -> true;

        boolean accepts(int weight, long capacity);
    }
}
