package dev.dlock.verify;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A multi-lock that loses the name it holds while it waits for the next (issue 24, defect 1). Per round: {@code b1}
 * holds {@code -b}; {@code m1} asks for the multi-lock of {@code -a} and {@code -b} (its own client, which carries the
 * control) and takes {@code -a}, then queues for {@code -b}; the script takes {@code -a} from it, by a force-release
 * (rounds 0 and 3) or by deleting its key (rounds 1 and 2, a failover's or an eviction's stand-in), and {@code c1}
 * takes {@code -a} at once; one lease time later (three of {@code m1}'s renewals: its watchdog has found {@code -a}
 * gone) {@code b1} releases {@code -b}, and {@code c1} releases {@code -a} a quarter lease time after that. An acquire
 * that returned then, holding {@code -b} and a lost {@code -a}, returned a lease already invalid (checker 6) or, while
 * it still looked valid, a second holder of {@code -a} (checker 1: each name of a multi-lock hold is recorded as its own
 * acquire). The honest multi-lock waits for {@code -a} again. {@code m1} calls {@code tryAcquire(wait)} in rounds 0
 * and 2 and {@code lock()} in rounds 1 and 3, and uses and releases what it got.
 */
final class MultiLostPartScript extends Script.WithControl {

    /** @param unsafeControl the multi-lock's client's {@code dlock.unsafe.control}, or {@code null} */
    MultiLostPartScript(String unsafeControl) {
        super(unsafeControl);
    }

    @Override
    public List<String> names() {
        return List.of("a", "b");
    }

    @Override
    public int rounds() {
        return 4;
    }

    private ScriptStage stage;
    private LockClient multiClient;
    private LockClient bClient;
    private LockClient cClient;
    private ScriptActor m1;
    private ScriptActor b1;
    private ScriptActor c1;

    @Override
    public void round(ScriptStage stage, int round) throws Exception {
        if (this.stage != stage) {
            this.stage = stage;
            multiClient = stage.client(null, unsafeControl);
            bClient = stage.client(null, null);
            cClient = stage.client(null, null);
            stage.warm(multiClient, cClient);
            m1 = stage.actor("m1", null);
            b1 = stage.actor("b1", null);
            c1 = stage.actor("c1", null);
        }
        Duration ttl = stage.ttl();
        String a = stage.name(0);
        String b = stage.name(1);
        List<String> both = List.of(a, b);
        boolean deleted = round % 4 == 1 || round % 4 == 2;
        boolean threadHold = round % 2 == 1;
        ScriptActor.Hold bHold = b1.tryAcquire(List.of(b), bClient.lock(b), ttl);
        if (bHold == null) {
            throw new IllegalStateException("b1 could not take " + b);
        }
        DistributedLock multi = multiClient.multiLock(a, b);
        CompletableFuture<Void> multiDone = m1.async(() -> {
            ScriptActor.Hold hold = threadHold ? m1.lock(both, multi) : m1.tryAcquire(both, multi, ttl.multipliedBy(4));
            m1.use(hold);
            m1.release(hold);
            return null;
        });
        ScriptStage.await(
                () -> stage.admin().status(a).isLocked()
                        && stage.admin().status(b).waiters() >= 1,
                ttl.multipliedBy(4),
                "m1 holding " + a + " and queued for " + b);
        long start = System.nanoTime();
        if (deleted) {
            stage.lockRedis().del(stage.keyPrefix() + ":{" + a + "}");
        } else {
            stage.admin().forceUnlock(a);
        }
        ScriptActor.Hold cHold = c1.tryAcquire(List.of(a), cClient.lock(a), ttl);
        if (cHold == null) {
            throw new IllegalStateException("c1 could not take " + a + " after it was taken from m1");
        }
        c1.use(cHold);
        ScriptStage.sleep(ttl);
        long heal = System.nanoTime();
        b1.use(bHold);
        b1.release(bHold);
        stage.fault(deleted ? Fault.PART_DELETED : Fault.PART_FORCED, start, heal);
        ScriptStage.sleep(ttl.dividedBy(4));
        c1.release(cHold);
        ScriptStage.await(multiDone, ttl.multipliedBy(8), "m1's multi-lock acquire, use and release");
    }
}
