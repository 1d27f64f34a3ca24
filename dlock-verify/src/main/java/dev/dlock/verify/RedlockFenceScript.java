package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Redlock fencing tokens across a failed write-back and a node that restarts empty (issue 24, defect 3), on three
 * independent masters the scenario starts (no persistence), {@code B} behind a proxy. Per round, on a name of its own:
 * the nodes' counters are set to A = 5, B = 3, C = 5 (B missed two holds; plus 100 per round, so that two names never
 * share a token); {@code r1} (a Redlock client on the three,
 * which carries the control) takes hold 1, token 6, and its fencing write-back ({@code counter = max(counter, 6)}) to
 * B is dropped with its connection by the proxy ({@link Fault#FENCE_WRITE_FAILED}), so B stays at 4 unless the client
 * makes sure of it; {@code r1} uses and releases hold 1. A is SIGKILLed and restarted empty ({@link
 * Fault#NODE_RESTART_EMPTY}), and another owner holds the lock on C ({@link Fault#STRAY_HOLD}); {@code r1} takes hold
 * 2 from A (counter 1) and B: token 5 if B was left at 4, which checker 4 reports (hold 1 returned before hold 2 began,
 * with a higher token); the honest client's hold 2 gets more than 6 (or hold 1 was refused).
 */
final class RedlockFenceScript extends Script.WithControl {

    /** @param unsafeControl the Redlock client's {@code dlock.unsafe.control}, or {@code null} */
    RedlockFenceScript(String unsafeControl) {
        super(unsafeControl);
    }

    @Override
    public List<String> names() {
        return List.of("a", "b");
    }

    @Override
    public int rounds() {
        return 2;
    }

    private ScriptStage stage;
    private RedisServer nodeA;
    private RedisServer nodeB;
    private RedisServer nodeC;
    private TcpProxy proxyB;
    private LockClient redlock;
    private ScriptActor r1;

    @Override
    public void round(ScriptStage stage, int round) throws Exception {
        if (this.stage != stage) {
            this.stage = stage;
            nodeA = stage.server();
            nodeB = stage.server();
            nodeC = stage.server();
            proxyB = stage.proxyTo(nodeB.uri());
            redlock = stage.redlock(
                    List.of(nodeA.uri(), Connections.viaProxy(nodeB.uri(), proxyB.port()), nodeC.uri()),
                    null,
                    unsafeControl);
            r1 = stage.actor("r1", null);
        }
        Duration ttl = stage.ttl();
        String name = stage.name(round % 2);
        String lockKey = stage.keyPrefix() + ":{" + name + "}:redlock";
        String fenceKey = lockKey + "-fence";
        // every round from its own base: equal small tokens under two names would read as one grant for two locks
        long base = 100L * round;
        nodeA.command("SET", fenceKey, Long.toString(base + 5));
        nodeB.command("SET", fenceKey, Long.toString(base + 3));
        nodeC.command("SET", fenceKey, Long.toString(base + 5));
        // the write-back alone names one key, the counter: "1" (numkeys) then the key (the acquire names two)
        CompletableFuture<Long> dropped =
                proxyB.failNext("$1\r\n1\r\n$" + fenceKey.length() + "\r\n" + fenceKey + "\r\n");
        ScriptActor.Hold first = r1.tryAcquire(List.of(name), redlock.lock(name), ttl.multipliedBy(2));
        if (!dropped.isDone()) {
            dropped.cancel(false);
            throw new IllegalStateException("hold 1 of " + name + " sent no fencing write-back to node B (counters "
                    + nodeA.command("GET", fenceKey) + "/" + nodeB.command("GET", fenceKey) + "/"
                    + nodeC.command("GET", fenceKey) + ")");
        }
        stage.fault(Fault.FENCE_WRITE_FAILED, dropped.get(), dropped.get());
        r1.use(first);
        r1.release(first);
        long restart = System.nanoTime();
        nodeA.restart();
        stage.fault(Fault.NODE_RESTART_EMPTY, restart, System.nanoTime());
        long stray = System.nanoTime();
        nodeC.command(
                "SET",
                lockKey,
                "stray-owner",
                "PX",
                Long.toString(ttl.multipliedBy(5).toMillis()));
        long second = System.nanoTime();
        stage.fault(Fault.STRAY_HOLD, stray, second);
        ScriptActor.Hold next = r1.tryAcquire(List.of(name), redlock.lock(name), ttl.multipliedBy(3));
        r1.use(next);
        r1.release(next);
        nodeC.command("DEL", lockKey);
    }
}
