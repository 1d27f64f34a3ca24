package dev.dlock.bench;

import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * W5's ceiling: how many strict-FIFO hand-offs per second the W5 processes could make on this host and server if a
 * hand-off cost nothing but the message itself. The same number of client processes pass one token around a ring
 * through Redis lists ({@link RingMain}), with W5's warm-up and window. Measured twice: with each member's thread
 * reading its own socket, and with a reader thread handing each reply to the waiting thread, as every pipelined client
 * (Lettuce, Redisson, dlock-resp) does. A lock with FIFO hand-off needs the same message plus its state, so it could
 * not beat the first figure in the same minute; between runs the figure moves with the host, as the peers' do.
 */
final class RingCeiling {
    private RingCeiling() {}

    /**
     * One ring's hand-offs per second.
     *
     * @param run the run it belongs to
     * @param hop whether a reader thread handed each reply to the waiting thread
     * @param handoffsPerSecond tokens received inside the window, per second
     */
    record Result(int run, boolean hop, double handoffsPerSecond) {}

    /** Measures both rings on {@code server} with the W5 settings {@code settings}. */
    static List<Result> run(RedisServer server, Settings settings, int run) {
        List<Result> results = new ArrayList<>();
        for (boolean hop : new boolean[] {false, true}) {
            results.add(new Result(run, hop, ring(server, settings, hop, run)));
            server.command("FLUSHALL");
        }
        return results;
    }

    private static double ring(RedisServer server, Settings settings, boolean hop, int run) {
        int members = Workload.W5.threads;
        List<JvmProcess> processes = new ArrayList<>();
        try {
            for (int i = 1; i <= members; i++) {
                processes.add(JvmProcess.builder(RingMain.class)
                        .args(
                                server.host(),
                                Integer.toString(server.port()),
                                Integer.toString(i),
                                Integer.toString(members))
                        .start());
            }
            Window window = ProcessesRun.go(processes, settings, "bench-ring-" + run + "-" + hop + ": " + hop);
            long handoffs = 0;
            Duration done = Duration.ofMillis(settings.warmupMillis() + settings.measureMillis() + 30_000);
            for (JvmProcess p : processes) {
                handoffs += Long.parseLong(p.awaitLine("done", done).replaceAll(".*handoffs=(\\d+).*", "$1"));
            }
            return handoffs / window.seconds();
        } catch (RuntimeException e) {
            System.out.println("W5 ring (hop " + hop + ") failed: " + e);
            return Double.NaN;
        } finally {
            processes.forEach(JvmProcess::close);
        }
    }
}
