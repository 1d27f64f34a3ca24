package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockAdmin.Waiter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class LockInfoTest {

    @Test
    void toString_ofAFreeMutex_saysFreeWithTheLastToken() {
        LockInfo free = new LockInfo("payments", Optional.empty(), Duration.ZERO, 42);

        assertThat(free).hasToString("payments (mutex): free, last token 42; 0/1 used; 0 waiting");
        assertThat(free.isLocked()).isFalse();
        assertThat(free.capacity()).isEqualTo(1);
    }

    @Test
    void toString_ofAHeldMutex_namesHolderTokenTimeLeftAndTheFirstWaiter() {
        LockInfo held = new LockInfo(
                "payments",
                Optional.of("1f0c:lease-7"),
                Duration.ofMillis(29_512),
                42,
                2,
                List.of(new Waiter("9a1b:lease-3", 1)));

        assertThat(held)
                .hasToString("payments (mutex): held by 1f0c:lease-7, token 42, 29.512 s left; 1/1 used; 2 waiting"
                        + " (first 9a1b:lease-3)");
        assertThat(held.holders()).containsExactly(new Holder("1f0c:lease-7", 1, 42, Duration.ofMillis(29_512)));
        assertThat(held.used()).isEqualTo(1);
    }

    @Test
    void toString_ofASemaphore_countsTheOtherHoldersAndThePermitsUsed() {
        LockInfo sem = new LockInfo(
                "pool",
                "semaphore",
                Optional.of("b:lease-2"),
                Duration.ofMillis(900),
                9,
                3,
                List.of(
                        new Holder("a:lease-1", 2, 8, Duration.ofMillis(500)),
                        new Holder("b:lease-2", 1, 9, Duration.ofMillis(900))),
                0,
                List.of());

        assertThat(sem)
                .hasToString("pool (semaphore): held by b:lease-2 and 1 more, token 9, 0.900 s left; 3/3 used;"
                        + " 0 waiting");
    }

    @Test
    void toString_ofAReadViewWhileAWriterHolds_saysTheHolderIsOfAnotherView() {
        LockInfo reading = new LockInfo(
                "doc",
                "rw",
                Optional.empty(),
                Duration.ZERO,
                5,
                100,
                List.of(new Holder("w:lease-1", 100, 5, Duration.ofSeconds(3))),
                0,
                List.of());

        assertThat(reading).hasToString("doc (rw): 1 holder of another view; 100/100 used; 0 waiting");
        assertThat(reading.isLocked()).isFalse();
    }

    @Test
    void constructor_rejectsACapacityBelowOneAndFewerWaitersThanListed() {
        assertThatThrownBy(() ->
                        new LockInfo("x", "semaphore", Optional.empty(), Duration.ZERO, 0, 0, List.of(), 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity 0");
        assertThatThrownBy(() ->
                        new LockInfo("x", Optional.empty(), Duration.ZERO, 0, 0, List.of(new Waiter("a:lease-1", 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waiters 0");
    }
}
