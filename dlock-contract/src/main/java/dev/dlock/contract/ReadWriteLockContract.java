package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The read-write lock (docs/lock-family.md) against real servers and processes, who gets in and when:
 * readers overlap and no writer overlaps anyone (threads of several clients, and processes); strict
 * FIFO (a queued writer holds back later readers, and gets in once the readers it queued behind have
 * released, even under a continuous stream of readers); a release wakes all the head readers at once;
 * a crashed holder's hold comes back; the watchdog keeps holds and reports their loss. What one holder
 * may do is {@link ReadWriteHoldsContract}'s.
 */
public abstract class ReadWriteLockContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ReadWriteLockContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS);
    }

    private Object command(String... args) {
        return redis.command(args);
    }

    private void awaitQueued(String name, long waiters) throws InterruptedException {
        long by = System.nanoTime() + scaled(5000).toNanos();
        String queue = "dlock:{" + name + "}:sq";
        while (!command("ZCARD", queue).equals(waiters) && System.nanoTime() < by) {
            Thread.sleep(5);
        }
        assertThat(command("ZCARD", queue)).as("waiters queued on " + name).isEqualTo(waiters);
    }

    @Test
    void readersOverlap_andNoWriterOverlapsAnyone_eightThreadsOfFourClients() throws Exception {
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(connect(redis.uri()));
            }
            AtomicInteger readers = new AtomicInteger();
            AtomicInteger writers = new AtomicInteger();
            AtomicInteger peakReaders = new AtomicInteger();
            AtomicInteger violations = new AtomicInteger();
            AtomicLong lastWriteToken = new AtomicLong();
            int rounds = 20;
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            Workers.run("rw", 8, Duration.ofSeconds(90), worker -> {
                DistributedReadWriteLock rw = clients.get(worker % 4).readWriteLock("shared");
                for (int i = 0; i < rounds; i++) {
                    boolean write = (i + worker) % 4 == 0;
                    boolean threadOwned = worker % 2 == 0; // half through lock()/unlock(), half through leases
                    DistributedLock lock = write ? rw.writeLock() : rw.readLock();
                    Lease lease = null;
                    if (threadOwned) {
                        lock.lock();
                    } else {
                        lease = lock.acquire();
                    }
                    try {
                        if (write) {
                            if (writers.incrementAndGet() > 1 || readers.get() > 0) {
                                violations.incrementAndGet();
                            }
                            long token = threadOwned ? lock.fencingToken() : lease.fencingToken();
                            if (lastWriteToken.getAndAccumulate(token, Math::max) >= token) {
                                violations.incrementAndGet(); // writers in token order: each saw the last one end
                            }
                            Thread.sleep(2);
                            writers.decrementAndGet();
                        } else {
                            peakReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
                            if (writers.get() > 0) {
                                violations.incrementAndGet();
                            }
                            Thread.sleep(5);
                            readers.decrementAndGet();
                        }
                    } finally {
                        if (threadOwned) {
                            lock.unlock();
                        } else {
                            lease.release();
                        }
                    }
                }
            });
            long calls = ScriptCalls.of(redis);
            assertThat(violations.get())
                    .as("a writer beside anyone, or a reader beside a writer")
                    .isZero();
            assertThat(peakReaders.get()).as("peak readers").isGreaterThan(1);
            double perAcquisition = calls / (8.0 * rounds);
            System.out.printf(
                    "read-write lock, 8 threads (1 in 4 writes): %d script calls for %d acquisitions, %.2f each"
                            + " incl. release%n",
                    calls, 8 * rounds, perAcquisition);
            assertThat(perAcquisition).as("script calls per acquisition").isLessThan(4.0);
            assertThat(command("ZCARD", "dlock:{shared}:sq"))
                    .as("queue left empty")
                    .isEqualTo(0L);
            assertThat(command("HLEN", "dlock:{shared}:holds"))
                    .as("no holder left")
                    .isEqualTo(0L);
        } finally {
            clients.forEach(LockClient::close);
        }
    }

    @Test
    void readersOverlap_andNoWriterOverlapsAnyone_sixProcesses() {
        String transport = transport().getClass().getName();
        HolderProcesses.contest(redis, ReadWriteHolderMain.class, 6, Duration.ofSeconds(60), i ->
                new String[] {"loop", redis.uri(), "procs", "15", "30000", transport, Integer.toString(i)});
        assertThat(command("GET", ReadWriteHolderMain.violations("procs")))
                .as("a writer beside anyone, or a reader beside a writer")
                .isNull();
        assertThat(Integer.parseInt((String) command("GET", ReadWriteHolderMain.peak("procs"))))
                .as("peak readers")
                .isGreaterThan(1);
    }

    @Test
    void aQueuedWriter_holdsBackLaterReaders_andGetsInOnceTheReadersItQueuedBehindRelease() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri());
                LockClient c = connect(redis.uri())) {
            Lease r1 = a.readWriteLock("fifo").readLock().acquire();
            Lease r2 = c.readWriteLock("fifo").readLock().acquire();
            CompletableFuture<Lease> writer =
                    b.readWriteLock("fifo").writeLock().acquireAsync(scaled(30_000));
            awaitQueued("fifo", 1);
            // the read lock is held by readers only, yet a reader that comes after the writer waits behind it
            assertThat(c.readWriteLock("fifo").readLock().tryAcquire(Duration.ofMillis(300)))
                    .isEmpty();
            CompletableFuture<Lease> later = c.readWriteLock("fifo").readLock().acquireAsync(scaled(30_000));
            awaitQueued("fifo", 2);
            r1.release();
            Thread.sleep(200);
            assertThat(writer).as("one reader it queued behind still holds").isNotDone();
            r2.release();
            Lease w = await(writer);
            assertThat(w.fencingToken()).isGreaterThan(r2.fencingToken());
            Thread.sleep(200);
            assertThat(later)
                    .as("the later reader waits while the writer holds")
                    .isNotDone();
            w.release();
            Lease r3 = await(later);
            assertThat(r3.fencingToken()).isGreaterThan(w.fencingToken());
            r3.release();
        }
    }

    @Test
    void aWriterBehindAContinuousStreamOfReaders_getsInWithinOneReadHold() throws Exception {
        long readMillis = 200;
        try (LockClient readersClient = connect(redis.uri());
                LockClient moreReaders = connect(redis.uri());
                LockClient writerClient = connect(redis.uri())) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger reads = new AtomicInteger();
            CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
                try {
                    // 4 readers of 2 clients, staggered: the read lock is never free while they run
                    Workers.run("reader", 4, Duration.ofSeconds(60), worker -> {
                        Thread.sleep(worker * readMillis / 4);
                        DistributedLock read = (worker % 2 == 0 ? readersClient : moreReaders)
                                .readWriteLock("stream")
                                .readLock();
                        while (!stop.get()) {
                            try (Lease lease = read.acquire()) {
                                reads.incrementAndGet();
                                Thread.sleep(readMillis);
                            }
                        }
                    });
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                Thread.sleep(2 * readMillis);
                DistributedLock write = writerClient.readWriteLock("stream").writeLock();
                for (int i = 0; i < 4; i++) {
                    long start = System.nanoTime();
                    Lease lease = write.tryAcquire(scaled(5000))
                            .orElseThrow(() -> new AssertionError("the writer starved behind the readers"));
                    long waited = millisSince(start);
                    lease.release();
                    System.out.printf("writer behind a reader stream: waited %d ms%n", waited);
                    assertThat(waited)
                            .as("wait for the readers that held when it queued")
                            .isLessThan(readMillis + scaled(600).toMillis());
                    Thread.sleep(readMillis);
                }
            } finally {
                stop.set(true);
            }
            stream.get(scaled(30_000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(reads.get()).as("the readers kept reading").isGreaterThan(8);
        }
    }

    @Test
    void aRelease_grantsAllTheReadersAtTheHeadOfTheQueueAtOnce_andNoneBehindAWriter() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri());
                LockClient c = connect(redis.uri())) {
            Lease held = a.readWriteLock("wake").writeLock().acquire();
            List<CompletableFuture<Lease>> head = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                head.add((i % 2 == 0 ? b : c).readWriteLock("wake").readLock().acquireAsync(scaled(30_000)));
                awaitQueued("wake", i + 1);
            }
            CompletableFuture<Lease> writer =
                    b.readWriteLock("wake").writeLock().acquireAsync(scaled(30_000));
            awaitQueued("wake", 4);
            CompletableFuture<Lease> tail = c.readWriteLock("wake").readLock().acquireAsync(scaled(30_000));
            awaitQueued("wake", 5);
            held.release();
            assertThat(command("HLEN", "dlock:{wake}:holds"))
                    .as("the release granted the three head readers in its own script")
                    .isEqualTo(3L);
            List<Lease> readers = new ArrayList<>();
            for (CompletableFuture<Lease> f : head) {
                readers.add(await(f));
            }
            assertThat(command("ZCARD", "dlock:{wake}:sq"))
                    .as("the writer and the reader behind it")
                    .isEqualTo(2L);
            Thread.sleep(200);
            assertThat(writer).isNotDone();
            assertThat(tail).isNotDone();
            readers.forEach(Lease::release);
            await(writer).release();
            await(tail).release();
        }
    }

    @Test
    void sigkillOfAWriterOrAReader_theLockComesBackWithinLeasePlusOneSecond() throws Exception {
        long leaseMillis = 2000;
        for (String mode : List.of("write", "read")) {
            try (JvmProcess holder = HolderProcesses.start(
                            ReadWriteHolderMain.class,
                            mode,
                            redis.uri(),
                            "crash-" + mode,
                            "0",
                            Long.toString(leaseMillis),
                            transport().getClass().getName());
                    LockClient other = connect(redis.uri())) {
                long token = Long.parseLong(
                        holder.awaitLine("ACQUIRED", scaled(30_000)).split(" ")[1]);
                DistributedReadWriteLock rw = other.readWriteLock("crash-" + mode);
                assertThat(rw.writeLock().tryAcquire(Duration.ZERO))
                        .as("held by the process")
                        .isEmpty();
                holder.kill();
                long start = System.nanoTime();
                Lease lease =
                        rw.writeLock().tryAcquire(scaled(leaseMillis + 1000)).orElseThrow();
                assertThat(millisSince(start)).as(mode + " hold came back").isLessThanOrEqualTo(leaseMillis + 1000);
                assertThat(lease.fencingToken()).isGreaterThan(token);
                lease.release();
            }
        }
    }

    @Test
    void theWatchdogKeepsHoldsPastSeveralLeaseTimes_andReportsTheirLossWhenTheKeysAreDeleted() throws Exception {
        long leaseMillis = 1500; // renewal every 500 ms
        try (LockClient mine = builder(redis.uri())
                        .leaseTime(Duration.ofMillis(leaseMillis))
                        .build();
                LockClient other = connect(redis.uri())) {
            DistributedReadWriteLock rw = mine.readWriteLock("kept");
            Lease write = rw.writeLock().acquire();
            Lease read = rw.downgrade(write);
            CompletableFuture<LockLostException> heard = new CompletableFuture<>();
            read.onLost(heard::complete);
            Thread.sleep(4 * leaseMillis);
            assertThat(write.isValid() && read.isValid()).isTrue();
            assertThat(other.readWriteLock("kept").readLock().tryAcquire(Duration.ZERO))
                    .isEmpty();
            write.release();
            Thread.sleep(2 * leaseMillis);
            assertThat(read.isValid()).isTrue();
            assertThat(other.readWriteLock("kept").writeLock().tryAcquire(Duration.ZERO))
                    .isEmpty();

            command("DEL", "dlock:{kept}:holds"); // an operator clears the holders
            long deleted = System.nanoTime();
            LockLostException loss = heard.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(millisSince(deleted))
                    .as("at the next renewal round")
                    .isLessThan(leaseMillis / 3 + scaled(700).toMillis());
            assertThat(loss.fencingToken()).isEqualTo(read.fencingToken());
            assertThatThrownBy(read::release).isInstanceOf(LockLostException.class);
        }
    }
}
