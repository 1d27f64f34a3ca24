package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The multi-lock benchmarks' draw and exclusion check (W13, W14): it sees every overlap on a name; no Redis. */
final class MultiLockCheckTest {
    private static final int THREADS = 8;
    private static final int HOLDS_PER_THREAD = 2_000;

    @Test
    void draw_givesTwoDistinctNamesOfThePool_inBothOrders() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        boolean[][] seen = new boolean[MultiLockCheck.POOL][MultiLockCheck.POOL];
        for (int i = 0; i < 10_000; i++) {
            MultiLockCheck.Pair pair = MultiLockCheck.Pair.draw(random);
            assertThat(pair.first()).isBetween(0, MultiLockCheck.POOL - 1).isNotEqualTo(pair.second());
            assertThat(pair.second()).isBetween(0, MultiLockCheck.POOL - 1);
            seen[pair.first()][pair.second()] = true;
        }
        for (int a = 0; a < MultiLockCheck.POOL; a++) {
            for (int b = 0; b < MultiLockCheck.POOL; b++) {
                assertThat(seen[a][b]).as("%d then %d", a, b).isEqualTo(a != b);
            }
        }
        assertThat(new MultiLockCheck.Pair(2, 0).names("w")).containsExactly("w-2", "w-0");
    }

    @Test
    void disjointPairs_holdTogether_andLeavingFreesOnlyTheLeaversNames() {
        MultiLockCheck check = MultiLockCheck.inMemory();
        assertThat(check.enter(new MultiLockCheck.Pair(0, 1), 1)).isTrue();
        assertThat(check.enter(new MultiLockCheck.Pair(3, 2), 2)).isTrue();
        check.leave(new MultiLockCheck.Pair(0, 1), 1);
        assertThat(check.enter(new MultiLockCheck.Pair(1, 3), 3)).isFalse(); // 3 is still holder 2's
        check.leave(new MultiLockCheck.Pair(1, 3), 3); // frees 1, which it claimed, and leaves 3 to holder 2
        assertThat(check.enter(new MultiLockCheck.Pair(1, 0), 4)).isTrue();
        assertThat(check.enter(new MultiLockCheck.Pair(3, 0), 5)).isFalse();
    }

    @Test
    void pairSharingEitherName_withAHolderInside_isViolation() {
        MultiLockCheck check = MultiLockCheck.inMemory();
        assertThat(check.enter(new MultiLockCheck.Pair(0, 1), 1)).isTrue();
        assertThat(check.enter(new MultiLockCheck.Pair(2, 0), 2)).isFalse();
        assertThat(check.enter(new MultiLockCheck.Pair(1, 3), 3)).isFalse();
    }

    @Test
    void sharedMapping_seesAnotherMappingsHolder(@TempDir Path dir) {
        Path file = dir.resolve("slots");
        MultiLockCheck first = SharedSlots.open(file).multiLockCheck(); // as two processes map one file
        MultiLockCheck second = SharedSlots.open(file).multiLockCheck();
        assertThat(first.enter(new MultiLockCheck.Pair(3, 1), 1)).isTrue();
        assertThat(second.enter(new MultiLockCheck.Pair(0, 2), 2)).isTrue();
        assertThat(second.enter(new MultiLockCheck.Pair(1, 2), 3)).isFalse();
        first.leave(new MultiLockCheck.Pair(3, 1), 1);
        second.leave(new MultiLockCheck.Pair(0, 2), 2);
        assertThat(second.enter(new MultiLockCheck.Pair(3, 0), 4)).isTrue();
    }

    @Test
    void eightThreads_lockingBothNames_seeNoViolation() throws Exception {
        assertThat(violations(true)).isZero();
    }

    @Test
    void eightThreads_lockingOnlyTheFirstName_areCaught() throws Exception {
        assertThat(violations(false)).isPositive();
    }

    /**
     * Eight threads take pairs of a pool of local locks, in the pool's order (no deadlock), 20 µs inside; with {@code
     * both} false each locks only the first name drawn, what the check is there to catch. Fails if a thread throws or
     * has not finished within a minute.
     */
    private static long violations(boolean both) throws Exception {
        ReentrantLock[] names = new ReentrantLock[MultiLockCheck.POOL];
        for (int i = 0; i < names.length; i++) {
            names[i] = new ReentrantLock();
        }
        MultiLockCheck check = MultiLockCheck.inMemory();
        LongAdder violations = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 1; t <= THREADS; t++) {
                long id = t;
                workers.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < HOLDS_PER_THREAD; i++) {
                        MultiLockCheck.Pair pair = MultiLockCheck.Pair.draw(random);
                        List<ReentrantLock> held = both
                                ? List.of(
                                        names[Math.min(pair.first(), pair.second())],
                                        names[Math.max(pair.first(), pair.second())])
                                : List.of(names[pair.first()]);
                        held.forEach(ReentrantLock::lock);
                        try {
                            if (!check.enter(pair, id)) {
                                violations.increment();
                            }
                            long start = System.nanoTime();
                            while (System.nanoTime() - start < 20_000) {
                                Thread.onSpinWait();
                            }
                            check.leave(pair, id);
                        } finally {
                            held.forEach(ReentrantLock::unlock);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS); // a worker's exception or hang fails the test here
            }
        } finally {
            pool.shutdownNow();
        }
        return violations.sum();
    }
}
