package dev.dlock.spring;

import dev.dlock.Lease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** The test applications' bean with {@code @Locked} methods; each returns what it saw of its lease. */
public class Jobs {
    private final AtomicInteger runs = new AtomicInteger();
    private final Inner inner;

    public Jobs(Inner inner) {
        this.inner = inner;
    }

    /** Calls of the methods that count them (a method, not a field: the test holds the proxy). */
    public AtomicInteger runs() {
        return runs;
    }

    @Locked(name = "'skip:' + #name", onBusy = Locked.OnBusy.SKIP)
    public String skipping(String name, Workers.Step step) {
        runs.incrementAndGet();
        step.arriveAndWait();
        return "ran";
    }

    @Locked(name = "'skip:' + #name", onBusy = Locked.OnBusy.SKIP)
    public Optional<String> skippingOptional(String name) {
        runs.incrementAndGet();
        return Optional.of("ran");
    }

    @Locked(name = "'throw:' + #name", waitFor = "300ms")
    public String throwing(String name, Workers.Step step) {
        runs.incrementAndGet();
        step.arriveAndWait();
        return "ran";
    }

    @Locked(name = "'hold:' + #name", onBusy = Locked.OnBusy.SKIP, holdAtLeast = "${jobs.hold-at-least:1500ms}")
    public Long holdingAtLeast(String name) {
        runs.incrementAndGet();
        return LockedContext.currentFencingToken();
    }

    /** holdAtLeast on a fixed lease: kept in Redis by the lease's own expiry, not by a timer here. */
    @Locked(name = "'hold-fixed:' + #name", onBusy = Locked.OnBusy.SKIP, leaseTime = "20s", holdAtLeast = "1500ms")
    public Long holdingAtLeastOnAFixedLease(String name) {
        runs.incrementAndGet();
        return LockedContext.currentFencingToken();
    }

    @Locked(name = "'fixed:' + #name", leaseTime = "PT2S")
    public Duration fixedLease(String name) {
        return LockedContext.currentLease().orElseThrow().remaining();
    }

    /** Outlives its fixed lease; returns whether the lease was still valid at the end. */
    @Locked(name = "'outlive:' + #name", leaseTime = "150ms")
    public boolean outlivingItsLease(String name) throws InterruptedException {
        Thread.sleep(400);
        return LockedContext.currentLease().orElseThrow().isValid();
    }

    @Locked(name = "'renewed:' + #name")
    public Duration renewedLease(String name) {
        return LockedContext.currentLease().orElseThrow().remaining();
    }

    @Locked(name = "'fail:' + #name")
    public void failing(String name) {
        throw new IllegalStateException("failed on purpose");
    }

    /** Returns the outer and the inner call's tokens. */
    @Locked(name = "'reenter:' + #name")
    public long[] reentering(String name) {
        long outer = LockedContext.currentFencingToken();
        return new long[] {outer, inner.reentered(name), LockedContext.currentFencingToken()};
    }

    /** Returns the lock names each call ran under. */
    @Locked(name = "'order:' + #id")
    public String byName(long id) {
        return lockName();
    }

    @Locked(name = "'order:' + #p0 + ':' + #a1")
    public String byIndex(long id, String region) {
        return lockName();
    }

    @Locked(name = "'job:' + #root.methodName + ':' + #root.targetClass.simpleName")
    public String byRoot() {
        return lockName();
    }

    @Locked(name = "'user:' + #user.name() + ':' + #user.id()")
    public String byRecord(User user) {
        return lockName();
    }

    @Locked(name = "nightly-report")
    public String literal() {
        return lockName();
    }

    @Locked(name = "${jobs.lock-name:placeholder-default}")
    public String placeholder() {
        return lockName();
    }

    @Locked(name = "#name")
    public String bare(String name) {
        return lockName();
    }

    private static String lockName() {
        return LockedContext.currentLease().map(Lease::lockName).orElse(null);
    }

    public record User(String name, long id) {}

    /** A second bean, so that a call from Jobs goes through a proxy. */
    public static class Inner {
        @Locked(name = "'reenter:' + #name", waitFor = "0s")
        public long reentered(String name) {
            return LockedContext.currentFencingToken();
        }
    }
}
