package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.contract.LockKind.Subject;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Lease.releaseAsync()} over every {@link LockKind}: it releases as {@code release()} does (a waiting
 * contender gets in with larger tokens), its future completes on the client's callback executor and never on the
 * transport's threads, a lease whose keys were purged fails it with the loss, reported once, and a second call
 * returns a completed future; {@code LockClient.closeAsync()} releases what the client holds without waiting.
 */
public abstract class ReleaseAsyncContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ReleaseAsyncContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static final Duration LEASE = Duration.ofSeconds(10);

    /** The holder's callbacks, run in order on one thread named {@code app-callback}, unless paused. */
    private final BlockingQueue<Runnable> callbacks = new LinkedBlockingQueue<>();

    private final Semaphore running = new Semaphore(1); // the pump runs a callback only with the permit
    private Thread pump;
    private LockClient a;
    private LockClient b;

    @BeforeEach
    void openClients() {
        pump = new Thread(
                () -> {
                    try {
                        while (true) {
                            Runnable task = callbacks.take();
                            running.acquire();
                            try {
                                task.run();
                            } finally {
                                running.release();
                            }
                        }
                    } catch (InterruptedException e) {
                        // the test is over
                    }
                },
                "app-callback");
        pump.setDaemon(true);
        pump.start();
        a = builder(redis.uri())
                .leaseTime(LEASE)
                .callbackExecutor(callbacks::add)
                .build();
        b = builder(redis.uri()).leaseTime(LEASE).build();
    }

    @AfterEach
    void closeClients() throws InterruptedException {
        a.close();
        b.close();
        pump.interrupt();
        pump.join(5000);
        assertThat(pump.isAlive()).as("the callback thread ended").isFalse();
    }

    private static long scaledMillis(long millis) {
        return Timing.scaled(Duration.ofMillis(millis)).toMillis();
    }

    private static String name(LockKind kind, String test) {
        return kind.name().toLowerCase(Locale.ROOT) + "-" + test;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void releaseAsync_letsAWaitingContenderIn_andCompletesOnTheCallbackExecutor(LockKind kind) throws Exception {
        String n = name(kind, "release-async");
        Subject contender = kind.contenders(b, n).get(0);
        Lease held = kind.holder(a, n).acquire();
        CompletableFuture<Lease> waiting = contender.acquireAsync(Timing.scaled(Duration.ofSeconds(30)));
        assertThat(contender.tryAcquire(Duration.ZERO))
                .as(contender + " is kept out")
                .isEmpty();

        running.acquire(); // the holder's callbacks wait
        CompletableFuture<Void> released = held.releaseAsync();
        CompletableFuture<String> completedOn =
                released.thenApply(v -> Thread.currentThread().getName());
        Lease got = waiting.get(scaledMillis(5000), TimeUnit.MILLISECONDS); // the release itself went out at once
        assertThat(released).as("completed only through the callback executor").isNotDone();
        running.release();
        assertThat(completedOn.get(scaledMillis(5000), TimeUnit.MILLISECONDS)).isEqualTo("app-callback");

        assertThat(held.isValid()).isFalse();
        got.fencingTokens()
                .forEach((lockName, token) -> assertThat(token)
                        .as(lockName)
                        .isGreaterThan(held.fencingTokens().get(lockName)));
        assertThat(held.releaseAsync()).as("a second call").isCompleted();
        assertThatCode(held::release).doesNotThrowAnyException();
        got.release();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void releaseAsync_ofAPurgedLease_failsWithTheLoss_once(LockKind kind) throws Exception {
        String n = name(kind, "purged-async");
        Lease held = kind.holder(a, n).acquire();
        assertThat(b.admin().purge(kind.purgedName(n))).as("keys deleted").isPositive();

        CompletableFuture<Void> released = held.releaseAsync();
        assertThat(released)
                .failsWithin(scaledMillis(5000), TimeUnit.MILLISECONDS)
                .withThrowableOfType(ExecutionException.class)
                .havingCause()
                .isInstanceOf(LockLostException.class);
        assertThat(held.releaseAsync()).as("the loss is reported once").isCompleted();
        assertThat(held.releaseAsync().isCompletedExceptionally()).isFalse();
        assertThatCode(held::release).doesNotThrowAnyException();
        assertThat(kind.holder(b, n).tryAcquire(Duration.ZERO)).as("free").hasValueSatisfying(Lease::release);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockKind.class)
    void closeAsync_releasesWhatTheClientHolds_andRefusesNewWork(LockKind kind) throws Exception {
        String n = name(kind, "close-async");
        LockClient closing = builder(redis.uri()).leaseTime(LEASE).build();
        Lease held = kind.holder(closing, n).acquire();
        CompletableFuture<Lease> waiting =
                kind.contenders(b, n).get(0).acquireAsync(Timing.scaled(Duration.ofSeconds(30)));

        CompletableFuture<Void> closed = closing.closeAsync();
        assertThat(closing.closeAsync()).as("the same close").isSameAs(closed);
        Lease got = waiting.get(scaledMillis(5000), TimeUnit.MILLISECONDS);
        assertThat(closed).succeedsWithin(Timing.scaled(Duration.ofSeconds(5)));
        assertThat(held.isValid()).isFalse();
        assertThatThrownBy(() -> kind.holder(closing, n)).isInstanceOf(IllegalStateException.class);
        assertThatCode(closing::close).as("close after closeAsync").doesNotThrowAnyException();
        got.release();
    }
}
