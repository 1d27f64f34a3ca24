package dev.dlock.contract;

import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.Timing;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Holder processes that contend for one lock of the family as one contest, both sides of it: the test
 * starts them and lets them go together ({@link #contest}); each holder's {@code main} waits for that
 * start ({@link #awaitStart}) and counts itself in Redis on a connection to the URI's first host.
 */
final class HolderProcesses {
    private HolderProcesses() {}

    /**
     * Starts {@code count} JVMs of {@code main}, waits until each says {@code READY}, sends them all
     * {@code GO} at once (started one by one, they might not overlap), waits for each {@code DONE}, and
     * stops them. Skipped on Sentinel and Cluster, where the processes' counters would not be on the
     * lock's node.
     *
     * @param redis the topology under test
     * @param main the holder's class
     * @param count how many processes
     * @param doneWithin how long each may take to say {@code DONE} (scaled)
     * @param argsOf the arguments of process {@code i}
     */
    static void contest(
            ContractRedis redis, Class<?> main, int count, Duration doneWithin, IntFunction<String[]> argsOf) {
        String why = "the processes count themselves on a connection to the URI's first host, which is not the"
                + " master (Sentinel) or not every key's node (Cluster)";
        redis.skipOn(RedisUri.Topology.SENTINEL, why);
        redis.skipOn(RedisUri.Topology.CLUSTER, why);
        List<JvmProcess> processes = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                processes.add(start(main, argsOf.apply(i)));
            }
            for (JvmProcess p : processes) {
                p.awaitLine("READY", Timing.scaled(Duration.ofSeconds(90)));
            }
            processes.forEach(p -> p.send("GO"));
            for (JvmProcess p : processes) {
                p.awaitLine("DONE", Timing.scaled(doneWithin)); // a hang or deadlock fails here, naming the process
            }
        } finally {
            processes.forEach(JvmProcess::close);
        }
    }

    /**
     * JVM options of every holder process: the holders do little work, and their JVMs' start (class loading, the
     * JIT) is most of what they cost; a contest starts six or eight at once on a machine of two cores. C1 alone and
     * the serial collector make that start cheaper and change nothing a holder does.
     */
    private static final String[] HOLDER_JVM = {"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"};

    /**
     * Starts a holder process, {@code main} in its own JVM with this JVM's class path.
     *
     * @param main the holder's class
     * @param args its arguments
     * @return the running process
     */
    static JvmProcess start(Class<?> main, String... args) {
        return JvmProcess.builder(main).jvmArgs(HOLDER_JVM).args(args).start();
    }

    /**
     * The transport factory a holder was given by class name.
     *
     * @param className the factory's class name
     * @return a new factory
     * @throws ReflectiveOperationException if it cannot be made
     */
    static TransportFactory transport(String className) throws ReflectiveOperationException {
        return Class.forName(className)
                .asSubclass(TransportFactory.class)
                .getConstructor()
                .newInstance();
    }

    /**
     * The holder's side of the start: says {@code READY}, then waits for the test's line.
     *
     * @throws IOException if standard input fails
     * @throws IllegalStateException if standard input closes first
     */
    static void awaitStart() throws IOException {
        System.out.println("READY");
        if (stdin().readLine() == null) {
            throw new IllegalStateException("standard input closed before the start signal");
        }
    }

    /**
     * Keeps a hold until the process is killed: reads standard input to its end.
     *
     * @throws IOException if standard input fails
     */
    static void holdUntilKilled() throws IOException {
        BufferedReader in = stdin();
        while (in.readLine() != null) {
            // held until killed
        }
    }

    private static BufferedReader stdin() {
        return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }
}
