package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The multi-lock benchmarks' draw and exclusion check (W13, W14): it sees every overlap on a name; no Redis. */
final class MultiLockCheckTest {
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
     * Eight threads take pairs of a pool of local locks, in the pool's order (no deadlock), 20 µs inside ({@link
     * ConcurrentHolds}); with {@code both} false each locks only the first name drawn, what the check is there to
     * catch.
     */
    private static long violations(boolean both) throws Exception {
        ReentrantLock[] names = new ReentrantLock[MultiLockCheck.POOL];
        for (int i = 0; i < names.length; i++) {
            names[i] = new ReentrantLock();
        }
        MultiLockCheck check = MultiLockCheck.inMemory();
        return ConcurrentHolds.violations((id, random) -> {
            MultiLockCheck.Pair pair = MultiLockCheck.Pair.draw(random);
            List<ReentrantLock> held = both
                    ? List.of(
                            names[Math.min(pair.first(), pair.second())], names[Math.max(pair.first(), pair.second())])
                    : List.of(names[pair.first()]);
            held.forEach(ReentrantLock::lock);
            try {
                boolean alone = check.enter(pair, id);
                ConcurrentHolds.stayInside();
                check.leave(pair, id);
                return alone;
            } finally {
                held.forEach(ReentrantLock::unlock);
            }
        });
    }
}
