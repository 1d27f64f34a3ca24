package dev.dlock.verify;

import dev.dlock.DistributedReadWriteLock;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.List;

/**
 * Read holds with fixed leases longer than the holders key's idle default (7 days) beside short ones, with a look at
 * the key's expiry after every acquire and release (checker 9). A read hold is an entry of the name's holders hash;
 * an acquire that set the hash's expiry to its own lease, or to the default, lowered it below a longer read hold
 * already there, whose entry would then vanish with the hash before its lease ends, and a writer be let in (issue 24,
 * defect 4). Per round: {@code r1} takes a read hold of 8 to 30 days (drawn from the seed), {@code r2} a watchdog read
 * hold and {@code r3} a fixed one of 100–400 ms beside it, each followed by a look ({@code k1}); they read, {@code r2}
 * and {@code r3} release (a look), then {@code r1}; {@code w1} then takes the write lock, writes and releases. The
 * readers share one client, which carries the control; {@code w1} has its own.
 */
final class LongReadScript extends Script.WithControl {

    /** @param unsafeControl the readers' client's {@code dlock.unsafe.control}, or {@code null} */
    LongReadScript(String unsafeControl) {
        super(unsafeControl);
    }

    @Override
    public List<String> names() {
        return List.of("a");
    }

    @Override
    public boolean readWrite() {
        return true;
    }

    @Override
    public int rounds() {
        return 4;
    }

    private ScriptStage stage;
    private LockClient readers;
    private LockClient writer;
    private ScriptActor r1;
    private ScriptActor r2;
    private ScriptActor r3;
    private ScriptActor w1;
    private ScriptActor k1;

    @Override
    public void round(ScriptStage stage, int round) throws Exception {
        if (this.stage != stage) {
            this.stage = stage;
            readers = stage.client(null, unsafeControl);
            writer = stage.client(null, null);
            r1 = stage.actor("r1", null);
            r2 = stage.actor("r2", null);
            r3 = stage.actor("r3", null);
            w1 = stage.actor("w1", null);
            k1 = stage.actor("k1", null);
        }
        String name = stage.name(0);
        String holders = stage.admin().keyBeside(name, "holds");
        Duration wait = stage.ttl().multipliedBy(2);
        DistributedReadWriteLock lock = readers.readWriteLock(name);
        Duration days = Duration.ofDays(8 + stage.random().nextInt(23));
        ScriptActor.Hold longRead = r1.tryAcquire(name, lock.readLock(), wait, days, Op.KIND_READ);
        k1.probeExpiry(name, holders, stage.lockRedis());
        ScriptActor.Hold watched = r2.lease(
                List.of(name),
                Op.KIND_READ,
                wait,
                "read tryAcquire(wait)",
                () -> lock.readLock().tryAcquire(wait));
        k1.probeExpiry(name, holders, stage.lockRedis());
        Duration shortLease = Duration.ofMillis(100 + stage.random().nextInt(300));
        ScriptActor.Hold shortRead = r3.tryAcquire(name, lock.readLock(), wait, shortLease, Op.KIND_READ);
        k1.probeExpiry(name, holders, stage.lockRedis());
        r1.use(longRead);
        r2.use(watched);
        r3.use(shortRead);
        r2.release(watched);
        r3.release(shortRead);
        k1.probeExpiry(name, holders, stage.lockRedis());
        r1.release(longRead);
        ScriptActor.Hold write = w1.lease(
                List.of(name),
                Op.KIND_WRITE,
                wait,
                "write tryAcquire(wait)",
                () -> writer.readWriteLock(name).writeLock().tryAcquire(wait));
        w1.use(write);
        w1.release(write);
    }
}
