package dev.dlock.bench;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The multi-lock workloads' draw and exclusion check (W13, W14): each hold takes two distinct names of a pool of
 * {@link #POOL}, in a random order, and inside its critical section claims an owner slot per name. A claim that finds
 * the slot taken is an exclusion violation: of two holds that share a name and overlap, the second to enter sees the
 * first. Kept in memory for the threads of one JVM ({@link #inMemory()}) or in a mapping that processes share ({@link
 * SharedSlots#multiLockCheck()}). Thread-safe.
 */
final class MultiLockCheck {
    /** The names the multi-locks draw from: 6 pairs, each overlapping 4 of the other 5. */
    static final int POOL = 4;

    /** The owner slots of the pool's names: 0 when free, else the holder's id. */
    interface Owners {
        boolean compareAndSet(int name, long expected, long owner);
    }

    /** Two distinct names of the pool, by index, in the order drawn. */
    record Pair(int first, int second) {
        /** Draws two distinct names at random, in a random order. */
        static Pair draw(ThreadLocalRandom random) {
            int first = random.nextInt(POOL);
            return new Pair(first, (first + 1 + random.nextInt(POOL - 1)) % POOL);
        }

        /** The lock names, in the order drawn: {@code base-first}, {@code base-second}. */
        List<String> names(String base) {
            return List.of(base + "-" + first, base + "-" + second);
        }
    }

    private final Owners owners;

    MultiLockCheck(Owners owners) {
        this.owners = owners;
    }

    static MultiLockCheck inMemory() {
        AtomicLongArray slots = new AtomicLongArray(POOL);
        return new MultiLockCheck(slots::compareAndSet);
    }

    /** Claims both names for holder {@code id} (ids start at 1); false if either was held (a violation). */
    boolean enter(Pair pair, long id) {
        boolean alone = owners.compareAndSet(pair.first(), 0, id);
        return owners.compareAndSet(pair.second(), 0, id) && alone;
    }

    /** Frees the names this holder claimed; a slot another holder took over is left to that holder. */
    void leave(Pair pair, long id) {
        owners.compareAndSet(pair.first(), id, 0);
        owners.compareAndSet(pair.second(), id, 0);
    }
}
