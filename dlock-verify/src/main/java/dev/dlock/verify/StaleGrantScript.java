package dev.dlock.verify;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A grant that reaches its waiter after the hold it granted has run out and another client has taken the lock (issue
 * 24, defect 2), brought about by the split-lag nemesis ({@link Fault#SPLIT_LAG}): {@code w1}'s client reaches Redis
 * through a proxy that delivers its command replies and its pub/sub messages late, each by its own lag.
 *
 * <p>Per round, on a mutex (rounds 0 and 2) or a semaphore of one permit (round 1): {@code h1} (a 150 ms watchdog
 * lease, so that a busy reply tells {@code w1} to try again within 151 ms) holds; {@code w1} ({@code
 * tryAcquire(wait)}, lease L = TTL, its client carries the control) queues. The nemesis then delays {@code w1}'s
 * pub/sub messages by 1.5 L and the reply to the next try {@code w1} sends by 1.15 L ({@link TcpProxy#lagReplyTo}). {@code h1} releases at once, which grants the
 * hold to {@code w1}; the grant message is on its way, 1.5 L late. {@code w1} sends nothing until its late reply
 * (busy: it ran before the release) arrives, so the granted hold runs out unused after L, and {@code c1}, which began
 * to wait half a lease after the release, takes the lock at that expiry. {@code w1}'s next try, within 151 ms of the
 * late reply, answers busy; the old grant arrives after it. A client that then takes the grant returns a hold while
 * {@code c1} holds (checker 1); the honest one tries again and waits for {@code c1}, which releases a third of a lease
 * after the grant arrived.
 */
final class StaleGrantScript extends Script.WithControl {

    static final Duration HOLDER_LEASE = Duration.ofMillis(150);

    /** @param unsafeControl the waiter's client's {@code dlock.unsafe.control}, or {@code null} */
    StaleGrantScript(String unsafeControl) {
        super(unsafeControl);
    }

    @Override
    public List<String> names() {
        return List.of("a", "b");
    }

    @Override
    public int rounds() {
        return 3;
    }

    private ScriptStage stage;
    private TcpProxy proxy;
    private LockClient hClient;
    private LockClient wClient;
    private LockClient cClient;
    private ScriptActor h1;
    private ScriptActor w1;
    private ScriptActor c1;

    @Override
    public void round(ScriptStage stage, int round) throws Exception {
        if (this.stage != stage) {
            this.stage = stage;
            proxy = stage.proxy();
            hClient = stage.client(HOLDER_LEASE, null);
            wClient = stage.client(proxy, null, unsafeControl);
            cClient = stage.client(null, null);
            stage.warm(wClient, cClient);
            h1 = stage.actor("h1", HOLDER_LEASE);
            w1 = stage.actor("w1", null);
            c1 = stage.actor("c1", null);
        }
        Duration lease = stage.ttl();
        boolean semaphore = round % 3 == 1;
        String name = stage.name(semaphore ? 1 : 0);
        String call = semaphore ? "semaphore tryAcquire(1, wait)" : "tryAcquire(wait)";
        Function<LockClient, Function<Duration, Optional<Lease>>> take = client -> wait -> semaphore
                ? client.semaphore(name, 1).tryAcquire(1, wait)
                : client.lock(name).tryAcquire(wait);
        ScriptActor.Hold held = h1.lease(
                List.of(name), "", lease, call, () -> take.apply(hClient).apply(lease));
        if (held == null) {
            throw new IllegalStateException("h1 could not take " + name);
        }
        Duration wWait = lease.multipliedBy(5);
        CompletableFuture<Void> waiter = w1.async(() -> {
            ScriptActor.Hold hold = w1.lease(
                    List.of(name), "", wWait, call, () -> take.apply(wClient).apply(wWait));
            w1.use(hold);
            w1.release(hold);
            return null;
        });
        ScriptStage.await(() -> stage.admin().status(name).waiters() >= 1, lease.multipliedBy(2), "w1 queued");
        long start = System.nanoTime();
        Duration pubsubLag = lease.multipliedBy(3).dividedBy(2);
        proxy.pubsubLag(pubsubLag);
        // w1's next try (a queue refresh within a third of its lease): its reply, not the try, is held back
        long lateBefore = proxy.lateReplies();
        ScriptStage.await(
                proxy.lagReplyTo("{" + name + "}", lease.multipliedBy(115).dividedBy(100)),
                lease.multipliedBy(2),
                "w1's next try");
        ScriptStage.await(() -> proxy.lateReplies() > lateBefore, lease, "the reply of w1's try held back");
        h1.release(held);
        long released = System.nanoTime();
        CompletableFuture<ScriptActor.Hold> taker = c1.async(() -> {
            ScriptStage.sleepUntil(released + lease.toNanos() / 2);
            return c1.lease(
                    List.of(name),
                    "",
                    lease.multipliedBy(3),
                    call,
                    () -> take.apply(cClient).apply(lease.multipliedBy(3)));
        });
        long graceUntil = released + pubsubLag.toNanos();
        ScriptStage.sleepUntil(graceUntil + 50_000_000L);
        proxy.pubsubLag(Duration.ZERO);
        stage.fault(Fault.SPLIT_LAG, start, graceUntil);
        ScriptActor.Hold cHold = ScriptStage.await(taker, lease.multipliedBy(4), "c1's acquire");
        if (cHold == null) {
            throw new IllegalStateException("c1 could not take " + name + " after w1's grant ran out");
        }
        c1.use(cHold);
        ScriptStage.sleepUntil(graceUntil + lease.toNanos() / 3);
        c1.release(cHold);
        ScriptStage.await(waiter, lease.multipliedBy(8), "w1's acquire, use and release");
    }
}
