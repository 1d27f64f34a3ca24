package dev.dlock.sim;

import dev.dlock.spi.Script;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redlock fencing-token guarantee of docs/redlock.md, checked as stated, neither weaker nor stronger: a later
 * hold's token is greater than an earlier hold's if {@code d + ℓ < quorum}, where {@code d} is the number of masters that
 * had not answered the earlier acquire and {@code ℓ} the number of masters that lost their data (restarted empty)
 * between their answer to the earlier acquire and their answer to the later one (a master the later acquire got no
 * answer from adds nothing to its token). An earlier hold is one returned to its caller before the later hold's attempt
 * sent its first command.
 *
 * <p>What each master answered is taken where the client sees it: every {@code redlock-acquire} reply that reaches a
 * Redlock client's transport in time ({@link SimTransport.Tap}), with the master's {@link SimRedis#wipes()} count when
 * the script ran. A reply counts as answered if it came at least 1 ms before the attempt's command timeout (the
 * client's own timeout runs on its drifting clock, at most 50 ppm off), else as not answered, which can only make
 * {@code d} larger; on the later hold's side every reply that reached it counts, which can only make {@code ℓ} larger:
 * never is the check stronger than the claim. Not thread-safe: a run's.
 */
final class RedlockFences {
    private static final long MS = 1_000_000;
    private static final long KEEP_NANOS = 10_000 * MS; // an attempt's answers, at most: it lasts about 1.5 s

    /**
     * One master's answer to one attempt: on lock key {@code key}, with the master's fencing counter if it granted
     * ({@code granted} > 0), else 0.
     */
    private record Answer(int node, String key, long issued, long delivered, long wipes, long granted) {}

    /** A hold returned: what a later hold's token is checked against. */
    private record Past(long token, int caller, long returned, long[] wipesAtAnswer) {
        int unanswered() {
            int d = 0;
            for (long w : wipesAtAnswer) {
                d += w < 0 ? 1 : 0;
            }
            return d;
        }
    }

    private final EventLoop loop;
    private final List<SimRedis> nodes;
    private final long timeoutNanos;
    private final Map<String, List<Answer>> answers = new LinkedHashMap<>(); // by attempt (owner id), oldest first
    private final Map<String, List<Past>> past = new HashMap<>(); // by lock name

    /**
     * @param loop the world
     * @param nodes Redlock's masters
     * @param timeoutNanos the Redlock clients' command timeout
     */
    RedlockFences(EventLoop loop, List<SimRedis> nodes, long timeoutNanos) {
        this.loop = loop;
        this.nodes = nodes;
        this.timeoutNanos = timeoutNanos;
    }

    /** The tap of a Redlock client's transport to master {@code node}. */
    SimTransport.Tap tap(int node) {
        return (Script script, String[] keys, String[] args, long issued, long wipes, Object reply) -> {
            if (script.name().equals("redlock-acquire") && reply instanceof List<?> list && list.size() >= 2) {
                long granted = (Long) list.get(0) != 0 ? (Long) list.get(1) : 0;
                answers.computeIfAbsent(args[0], k -> new ArrayList<>())
                        .add(new Answer(node, keys[0], issued, loop.now(), wipes, granted));
            }
        };
    }

    /**
     * What {@link #taken} found: the owner id of the attempt that made the hold (which each master's lock key holds
     * while the hold lasts), or null if no attempt on record made it; and the violation, or null.
     */
    record Taken(String owner, String violation) {}

    /**
     * A Redlock hold just returned to caller {@code caller}: checked against every earlier hold of its name, then
     * recorded.
     *
     * @return its attempt's owner id and the violation, if any
     */
    Taken taken(String name, long token, int caller) {
        long now = loop.now();
        String owner = attemptOf(name, token);
        List<Answer> mine = owner == null ? null : answers.remove(owner);
        for (Iterator<List<Answer>> it = answers.values().iterator(); it.hasNext(); ) {
            if (it.next().get(0).issued() < now - KEEP_NANOS) {
                it.remove();
            } else {
                break;
            }
        }
        if (mine == null) {
            return new Taken(
                    null, "the Redlock hold of " + name + " (token " + token + ") has no acquire reply on record");
        }
        long sent = mine.stream().mapToLong(Answer::issued).min().orElseThrow();
        long[] wipesAtAnswer = new long[nodes.size()]; // as an earlier hold: answered with room to spare
        long[] wipesAtReply = new long[nodes.size()]; // as the later hold: every reply the client may have counted
        java.util.Arrays.fill(wipesAtAnswer, -1); // not answered
        java.util.Arrays.fill(wipesAtReply, -1);
        for (Answer a : mine) {
            wipesAtReply[a.node()] = a.wipes();
            if (a.delivered() < sent + timeoutNanos - MS) {
                wipesAtAnswer[a.node()] = a.wipes();
            }
        }
        int quorum = nodes.size() / 2 + 1;
        List<Past> earlier = past.computeIfAbsent(name, k -> new ArrayList<>());
        String violation = null;
        for (Past p : earlier) {
            if (p.returned() >= sent || token > p.token()) {
                continue;
            }
            int d = p.unanswered();
            List<Integer> lost = new ArrayList<>();
            for (int n = 0; n < nodes.size(); n++) {
                long then = p.wipesAtAnswer()[n];
                long later = wipesAtReply[n];
                if (then >= 0 && later > then) {
                    lost.add(n);
                }
            }
            if (d + lost.size() < quorum) {
                violation = "a REDLOCK hold of " + name + " (caller " + caller + ") took token " + token
                        + ", not above the token " + p.token() + " of an earlier hold (caller " + p.caller()
                        + ", returned at " + p.returned() / MS + " ms), although d + ℓ = " + d + " + " + lost.size()
                        + " < " + quorum + " (masters that lost their data between their answers: " + lost + ")";
                break;
            }
        }
        earlier.add(new Past(token, caller, now, wipesAtAnswer));
        return new Taken(owner, violation);
    }

    /**
     * The owner id of the attempt that made a hold of {@code name} with {@code token}: the latest
     * attempt on the name's lock key whose granting masters' largest counter is the token, as the client makes it
     * (docs/redlock.md), with a quorum of grants. The lease's owner id, which names the attempt, is not in the API;
     * two attempts on one name with the same token are what the check catches, and the later one is the one returned
     * last. Null if none.
     */
    private String attemptOf(String name, long token) {
        String tag = "{" + name + "}:redlock"; // docs/redlock.md: <prefix>:{name}:redlock
        int quorum = nodes.size() / 2 + 1;
        String found = null;
        long latest = Long.MIN_VALUE;
        for (Map.Entry<String, List<Answer>> e : answers.entrySet()) {
            List<Answer> attempt = e.getValue();
            if (!attempt.get(0).key().endsWith(tag)) { // a name that starts with '}' is not used here
                continue;
            }
            long max = 0;
            int grants = 0;
            long last = Long.MIN_VALUE;
            for (Answer a : attempt) {
                max = Math.max(max, a.granted());
                grants += a.granted() > 0 ? 1 : 0;
                last = Math.max(last, a.delivered());
            }
            if (max == token && grants >= quorum && last >= latest) {
                found = e.getKey();
                latest = last;
            }
        }
        return found;
    }
}
