package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The book's server-side checks: a mutex hold relayed within its client's token block, a holders' hash's life; a new
 * permit against a lowered count in force; and the exemptions of holds a restart without data or a force-release took
 * away, exactly those holds and only until their holders must have learned it; and those a promotion of the replica
 * took away from holders without {@code replicaAcks}, never from holders with it.
 */
final class HoldBookTest {
    private static final long NOW = 1_800_000_000_000L;

    private final SimRedis server = new SimRedis(() -> NOW);
    private final HoldBook book = new HoldBook(server, 3, List.of());

    private static final HoldBook.View VALID = new HoldBook.View() {
        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Duration remaining() {
            return Duration.ofSeconds(1);
        }
    };

    private String holding(Kind kind, String name, long token) {
        Hold hold = new Hold(kind, name, token, VALID, 1);
        book.taken(hold);
        String wrong = book.check(NOW);
        book.released(hold);
        return wrong;
    }

    @Test
    void aMutexHold_isHeld_withTheServersTokenOrALaterOneOfItsRelayBlock() {
        server.call("HSET", "dlock:{m}", "owner", "c:thread-1", "token", "1000");
        assertThat(holding(Kind.MUTEX, "m", 1000)).isNull();
        assertThat(holding(Kind.MUTEX, "m", 1000 + HoldBook.RELAY_BLOCK - 1)).isNull();
        assertThat(holding(Kind.MUTEX, "m", 1000 + HoldBook.RELAY_BLOCK)).contains("the server's lock has token 1000");
        assertThat(holding(Kind.MUTEX, "m", 999)).contains("the server's lock has token 1000");
    }

    @Test
    void aSharedHold_needsAHoldersHashThatOutlivesItsEntry() {
        long expiry = NOW + 8L * 24 * 3600 * 1000;
        server.call("HSET", "dlock:{rw}:holds", "c:lease-1", "1 77 " + expiry);
        server.call("PEXPIRE", "dlock:{rw}:holds", Long.toString(expiry - NOW));
        assertThat(holding(Kind.READ, "rw", 77)).isNull();
        server.call("PEXPIRE", "dlock:{rw}:holds", Long.toString(7L * 24 * 3600 * 1000));
        assertThat(holding(Kind.READ, "rw", 77)).contains("holders' hash expires at");
    }

    @Test
    void aNewPermit_isJudgedByALoweredCount_onlyWhenItWasSurelyInForceBeforeItsAcquire() {
        book.taken(new Hold(Kind.PERMIT, "s", 1, VALID, 1));
        Hold second = new Hold(Kind.PERMIT, "s", 2, VALID, 2);
        book.taken(second);
        assertThat(book.withinCount(second, 50)).as("the created count").isNull();
        book.setPermitsStarted("s");
        book.setPermitsDone("s", 1, 40);
        assertThat(book.withinCount(second, 30))
                .as("acquire began before the count was known")
                .isNull();
        assertThat(book.withinCount(second, 50)).contains("2 valid permit holds of s after setPermits(1)");
        book.released(second);
        Hold third = new Hold(Kind.PERMIT, "s", 3, VALID, 3);
        book.taken(third);
        book.setPermitsStarted("s");
        assertThat(book.withinCount(third, 60))
                .as("another setPermits begun: the count is not known")
                .isNull();
        book.setPermitsDone("s", 2, 70);
        assertThat(book.withinCount(third, 80)).as("within 2").isNull();
    }

    /** A view valid until {@code until[0]} on the test's clock {@code now[0]}: a watchdog moves {@code until} on. */
    private static HoldBook.View validUntil(long[] now, long[] until) {
        return new HoldBook.View() {
            @Override
            public boolean isValid() {
                return now[0] < until[0];
            }

            @Override
            public Duration remaining() {
                return Duration.ofMillis(Math.max(0, until[0] - now[0]));
            }
        };
    }

    private static HoldBook.View validUntil(long[] now, long until) {
        return validUntil(now, new long[] {until});
    }

    @Test
    void aHoldWipedWithTheServer_mayOverlapANewOne_untilALeaseAfterTheWipe_andNoLonger() {
        long[] now = {NOW};
        HoldBook wiped = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        server.call("HSET", "dlock:{m}", "owner", "c:lease-1", "token", Long.toString(NOW * 1000));
        long[] until = {NOW + 1000};
        Hold old = new Hold(Kind.MUTEX, "m", NOW * 1000, validUntil(now, until), 1);
        wiped.taken(old);
        assertThat(wiped.check(now[0])).isNull();
        now[0] = NOW + 500;
        until[0] = NOW + 1500; // the watchdog renewed it just before the crash
        wiped.serverCrashed(now[0]);
        server.call("FLUSHALL");
        assertThat(wiped.check(now[0])).as("not on the server any more: exempt").isNull();
        now[0] = NOW + 700;
        wiped.serverRestarted(now[0]);
        long fresh = now[0] * 1000;
        server.call("HSET", "dlock:{m}", "owner", "c:lease-2", "token", Long.toString(fresh));
        Hold after = new Hold(Kind.MUTEX, "m", fresh, validUntil(now, now[0] + 1000), 2);
        assertThat(wiped.taken(after)).as("its token is above the wiped one's").isNull();
        now[0] = NOW + 1400;
        assertThat(wiped.check(now[0])).as("the overlap dlock does not exclude").isNull();
        until[0] = NOW + 2500; // a renewal the holder should never have had: the key was gone
        now[0] = NOW + 500 + 1000 + 3;
        assertThat(wiped.check(now[0]))
                .as("a lease after the wipe, and still believed valid")
                .contains("caller 1 believes its MUTEX hold of m")
                .contains("restart without data")
                .contains("past its bound");
    }

    @Test
    void aHoldGrantedAfterTheWipe_isNotExempt() {
        long[] now = {NOW};
        HoldBook wiped = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        wiped.serverCrashed(NOW - 2000);
        wiped.serverRestarted(NOW - 1000);
        long token = (NOW - 1000) * 1000;
        Hold first = new Hold(Kind.MUTEX, "m", token, validUntil(now, NOW + 900), 1);
        Hold second = new Hold(Kind.MUTEX, "m", token + 5000, validUntil(now, NOW + 900), 2);
        server.call("HSET", "dlock:{m}", "owner", "c:lease-2", "token", Long.toString(token + 5000));
        wiped.taken(first);
        wiped.taken(second);
        assertThat(wiped.check(now[0]))
                .as("both granted after the server came back")
                .contains("the server's lock has token");
        wiped.released(first);
        assertThat(wiped.check(now[0])).isNull();
    }

    @Test
    void aTokenAfterAWipe_mustStillExceedEveryEarlierOne_thoughItPassesForAWipedHold() {
        long[] now = {NOW};
        HoldBook wiped = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        Hold before = new Hold(Kind.MUTEX, "m", NOW * 1000, validUntil(now, NOW + 1000), 1);
        wiped.taken(before);
        wiped.serverCrashed(NOW + 100);
        now[0] = NOW + 300;
        wiped.serverRestarted(now[0]);
        Hold reset = new Hold(Kind.MUTEX, "m", 1, validUntil(now, NOW + 1300), 2); // a counter that began again
        assertThat(wiped.taken(reset)).contains("took token 1 after a conflicting hold had " + NOW * 1000);
    }

    @Test
    void aHoldRelayedAfterAWipe_fromABlockGrantedBeforeIt_isJudgedAgainstTheHoldsBeforeTheWipe() {
        long[] now = {NOW};
        HoldBook wiped = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        Hold before = new Hold(Kind.MUTEX, "m", NOW * 1000, validUntil(now, NOW + 50), 1);
        wiped.taken(before);
        wiped.released(before);
        wiped.serverCrashed(NOW + 100);
        now[0] = NOW + 300;
        wiped.serverRestarted(now[0]);
        long fresh = now[0] * 1000;
        server.call("HSET", "dlock:{m}", "owner", "c:lease-2", "token", Long.toString(fresh));
        wiped.taken(new Hold(Kind.MUTEX, "m", fresh, validUntil(now, NOW + 1300), 2));
        Hold relayed = new Hold(Kind.MUTEX, "m", (NOW + 60) * 1000, validUntil(now, NOW + 1000), 3);
        assertThat(wiped.taken(relayed)).as("above every hold before the wipe").isNull();
        assertThat(wiped.check(now[0])).as("the overlap dlock does not exclude").isNull();
    }

    @Test
    void aForceRelease_exemptsTheHoldsItRemoved_andNoOther_untilALeaseAfterIt() {
        long[] now = {NOW - 500};
        HoldBook forced = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        long[] until = {NOW + 500};
        Hold removed = new Hold(Kind.READ, "rw", 10, validUntil(now, until), 1);
        Hold kept = new Hold(Kind.READ, "rw", 11, validUntil(now, NOW + 500), 2);
        forced.taken(removed);
        forced.taken(kept);
        now[0] = NOW;
        forced.forced("rw", NOW, java.util.Set.of(10L));
        server.call("HSET", "dlock:{rw}:holds", "c:lease-9", "1 12 " + (NOW + 1000));
        Hold writer = new Hold(Kind.WRITE, "rw", 12, validUntil(now, NOW + 1000), 3);
        assertThat(forced.taken(writer)).isNull();
        assertThat(forced.check(now[0]))
                .as("the read hold the force-release left is checked: not on the server")
                .contains("caller 2 believes its READ hold of rw (token 11)");
        forced.released(kept);
        assertThat(forced.check(now[0]))
                .as("the one it removed may overlap the writer until it learns")
                .isNull();
        forced.released(writer);
        until[0] = NOW + 3000; // a renewal the holder should never have had
        now[0] = NOW + 900;
        assertThat(forced.check(now[0])).isNull();
        now[0] = NOW + 1000 + 3;
        assertThat(forced.check(now[0])).contains("force-release").contains("past its bound");
    }

    @Test
    void aRedlockForceRelease_exemptsAHoldOnlyOnceItLeavesItShortOfAQuorum_andUntilALeaseAfter() {
        long[] now = {NOW};
        List<SimRedis> masters =
                List.of(new SimRedis(() -> now[0]), new SimRedis(() -> now[0]), new SimRedis(() -> now[0]));
        HoldBook forced = new HoldBook(server, 3, masters, 1000, () -> now[0]);
        String key = "dlock:{r}:redlock";
        masters.forEach(m -> m.call("SET", key, "o1"));
        long[] until = {NOW + 1000};
        Hold first = new Hold(Kind.REDLOCK, "r", 5, validUntil(now, until), 1);
        forced.taken(first);
        forced.redlockOwner(first, "o1");
        assertThat(forced.check(now[0])).isNull();
        masters.get(0).call("SET", key, "o2");
        masters.get(1).call("SET", key, "o2");
        assertThat(forced.check(now[0]))
                .as("another owner's keys are not its own: short of a quorum, and no force-release did it")
                .contains("caller 1 believes its REDLOCK hold of r")
                .contains("only 1 of 3 masters");
        masters.get(0).call("SET", key, "o1");
        masters.get(1).call("SET", key, "o1");

        now[0] = NOW + 100;
        masters.get(0).call("DEL", key); // a force-release that reached one master
        forced.redlockForced("o1", now[0]);
        assertThat(forced.check(now[0])).as("it keeps its quorum: held").isNull();
        masters.get(0).call("SET", key, "o2");
        Hold second = new Hold(Kind.REDLOCK, "r", 6, validUntil(now, NOW + 2000), 2);
        forced.taken(second);
        forced.redlockOwner(second, "o2");
        assertThat(forced.check(now[0]))
                .as("a second owner on one master does not hold it")
                .contains("caller 2 believes its REDLOCK hold of r");
        assertThat(forced.exemptions()).as("the first is checked as any other").isEmpty();

        now[0] = NOW + 200;
        masters.get(1).call("SET", key, "o2"); // the next force-release reached the second master, and o2 took it
        forced.redlockForced("o1", now[0]);
        assertThat(forced.check(now[0]))
                .as("the first hold, short of a quorum since, may overlap the second until its holder learns")
                .isNull();
        assertThat(forced.exemptions()).containsEntry("Redlock force-release", 1L);
        until[0] = NOW + 5000; // renewals its holder should never have had: two masters lost its key
        now[0] = NOW + 200 + 1000;
        assertThat(forced.check(now[0])).isNull();
        now[0] = NOW + 200 + 1000 + 3;
        assertThat(forced.check(now[0]))
                .contains("caller 1 believes its REDLOCK hold of r")
                .contains("Redlock force-release")
                .contains("past its bound");
    }

    /**
     * The replica is promoted at {@code nowMs}: the book learns what it lacked, and {@code server} comes back with its
     * data. Returns, per name, the tokens the promotion took away.
     */
    private static java.util.Map<String, java.util.Set<Long>> promote(
            HoldBook book, SimRedis server, SimRedis replica, long nowMs) {
        java.util.Map<String, java.util.Set<Long>> lost = Promotions.lostRecords(server, replica);
        book.promoted(nowMs, lost);
        server.restartWith(replica);
        book.promotedServerBack(nowMs, nowMs);
        return lost;
    }

    /**
     * A promotion took caller {@code holder}'s hold of {@code m} (token 1000) away: the replica had not applied it;
     * another caller took {@code m} on the new master. Returns the book at the promotion's instant {@code now[0]}.
     */
    private HoldBook promotedAway(long[] now, long[] until, int holder) {
        HoldBook promoted = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        promoted.ackedCallers(caller -> caller == 2);
        server.call("HSET", "dlock:{m}", "owner", "c:lease-1", "token", "1000");
        Hold old = new Hold(Kind.MUTEX, "m", 1000, validUntil(now, until), holder);
        promoted.taken(old);
        assertThat(promoted.check(now[0])).isNull();
        SimRedis replica = new SimRedis(() -> now[0]);
        assertThat(promote(promoted, server, replica, now[0]).get("m")).contains(1000L);
        long fresh = (now[0] + 100) * 1000;
        server.call("HSET", "dlock:{m}", "owner", "c:lease-3", "token", Long.toString(fresh));
        assertThat(promoted.taken(new Hold(Kind.MUTEX, "m", fresh, validUntil(now, now[0] + 1000), 3)))
                .isNull();
        return promoted;
    }

    @Test
    void aHoldAPromotionTookAway_withoutReplicaAcks_isExempt_untilALeaseAfterThePromotion() {
        long[] now = {NOW};
        long[] until = {NOW + 800};
        HoldBook promoted = promotedAway(now, until, 1);
        now[0] = NOW + 500;
        assertThat(promoted.check(now[0]))
                .as("the overlap dlock does not promise to exclude")
                .isNull();
        assertThat(promoted.exemptions()).containsEntry("promotion", 1L);
        until[0] = NOW + 3000; // a renewal the holder should never have had: the key was gone
        now[0] = NOW + 1000 + 3;
        assertThat(promoted.check(now[0]))
                .contains("caller 1 believes its MUTEX hold of m")
                .contains("promotion")
                .contains("past its bound");
    }

    /**
     * Seed 16 with {@code promoteEvery=20}: a permit a promotion took away (the replica had not applied its grant) is
     * not its holder's on the new master, whose count {@code setPermits(1)} lowered since: it does not count against
     * that count, as it does not for exclusion.
     */
    @Test
    void aPermitAPromotionTookAway_countsNotAgainstACountLoweredAfterIt() {
        long[] now = {NOW};
        HoldBook promoted = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        server.call("HSET", "dlock:{s}:holds", "c:lease-1", "1 1000 " + (NOW + 5000));
        Hold lost = new Hold(Kind.PERMIT, "s", 1000, validUntil(now, NOW + 5000), 1);
        assertThat(promoted.taken(lost)).isNull();
        SimRedis replica = new SimRedis(() -> now[0]);
        assertThat(promote(promoted, server, replica, now[0]).get("s")).containsExactly(1000L);
        now[0] = NOW + 100;
        promoted.setPermitsStarted("s");
        promoted.setPermitsDone("s", 1, now[0]);
        server.call("HSET", "dlock:{s}:holds", "c:lease-2", "1 2000 " + (NOW + 5000));
        Hold fresh = new Hold(Kind.PERMIT, "s", 2000, validUntil(now, NOW + 5000), 2);
        assertThat(promoted.taken(fresh)).isNull();
        now[0] = NOW + 200;
        assertThat(promoted.withinCount(fresh, NOW + 150))
                .as("the lost permit is not the holder's")
                .isNull();
        assertThat(promoted.check(now[0])).isNull();
        server.call("HSET", "dlock:{s}:holds", "c:lease-1", "1 1000 " + (NOW + 5000)); // had the replica had it
        assertThat(promoted.withinCount(fresh, NOW + 150)).contains("2 valid permit holds of s after setPermits(1)");
    }

    /**
     * Seeds 19 and 28 with {@code promoteEvery=20}: an owner's older record of a mutex comes back with a promotion (a
     * release or a pass within the client, and the re-take or pass after it, not yet replicated); the holder's
     * renewals, checked by owner id, keep it on the new master, with the earlier token. The server holds the name for
     * the holder: not exempt, not bound to lose it; a record of another owner would be the promotion's loss.
     */
    @Test
    void aRecordOfItsOwnerAPromotionBroughtBackWithAnEarlierToken_isTheHoldersOnTheNewMaster() {
        long[] now = {NOW};
        SimRedis server = new SimRedis(() -> now[0]);
        HoldBook promoted = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        server.call("HSET", "dlock:{m}", "owner", "c:thread-1", "token", "1000");
        SimRedis replica = new SimRedis(() -> now[0]);
        replica.copyKeysOf(server);
        server.call("HSET", "dlock:{m}", "token", "5000"); // a pass, or a release and a re-take, not yet replicated
        long[] until = {NOW + 1000};
        Hold held = new Hold(Kind.MUTEX, "m", 5000, validUntil(now, until), 1);
        assertThat(promoted.taken(held)).isNull();
        assertThat(promote(promoted, server, replica, now[0]).get("m")).contains(5000L);
        until[0] = NOW + 3000; // renewed on the new master: its record names the holder's owner id
        now[0] = NOW + 1000 + 3;
        assertThat(promoted.check(now[0]))
                .as("held for its owner, with the earlier token")
                .isNull();
        assertThat(promoted.exemptions()).isEmpty();
        server.call("HSET", "dlock:{m}", "owner", "c:thread-2");
        assertThat(promoted.check(now[0]))
                .as("another owner's record: the promotion's loss, past its bound")
                .contains("caller 1 believes its MUTEX hold of m (token 5000)")
                .contains("past its bound");
    }

    @Test
    void aHoldAPromotionTookAway_withReplicaAcks_isNeverExempt() {
        long[] now = {NOW};
        long[] until = {NOW + 800};
        HoldBook promoted = promotedAway(now, until, 2);
        now[0] = NOW + 1;
        assertThat(promoted.check(now[0]))
                .as("an acknowledged hold must survive a promotion")
                .contains("caller 2 believes its MUTEX hold of m (token 1000)");
        assertThat(promoted.exemptions()).isEmpty();
    }

    @Test
    void aRecordAPromotionBroughtBackShorter_isTheHoldersAgain_onceRenewedOnTheNewMaster() {
        long[] now = {NOW};
        SimRedis server = new SimRedis(() -> now[0]); // its clock moves with the test's
        HoldBook promoted = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        server.call("HSET", "dlock:{m}", "owner", "c:lease-1", "token", "1000");
        server.call("PEXPIRE", "dlock:{m}", "1000");
        SimRedis replica = new SimRedis(() -> now[0]);
        replica.copyKeysOf(server);
        server.call("PEXPIRE", "dlock:{m}", "2000"); // a renewal the replica has not got
        long[] until = {NOW + 1500};
        Hold hold = new Hold(Kind.MUTEX, "m", 1000, validUntil(now, until), 1);
        promoted.taken(hold);
        assertThat(promote(promoted, server, replica, now[0]).get("m")).contains(1000L);
        now[0] = NOW + 600;
        server.call("PEXPIRE", "dlock:{m}", "1000"); // renewed on the new master
        until[0] = NOW + 1600;
        now[0] = NOW + 1200;
        assertThat(promoted.check(now[0])).as("held, and checked as any hold").isNull();
        assertThat(promoted.exemptions()).isEmpty();
        now[0] = NOW + 1601;
        until[0] = NOW + 1700; // believed beyond what the server has
        assertThat(promoted.check(now[0])).contains("caller 1 believes its MUTEX hold of m");
    }

    @Test
    void aForceReleaseAPromotionUndid_exemptsNoMore_itsHoldTheHoldersAgain() {
        long[] now = {NOW};
        SimRedis server = new SimRedis(() -> now[0]);
        HoldBook promoted = new HoldBook(server, 3, List.of(), 1000, () -> now[0]);
        server.call("HSET", "dlock:{m}", "owner", "c:lease-1", "token", "1000");
        server.call("PEXPIRE", "dlock:{m}", "1000");
        long[] until = {NOW + 900};
        Hold hold = new Hold(Kind.MUTEX, "m", 1000, validUntil(now, until), 1);
        promoted.taken(hold);
        SimRedis replica = new SimRedis(() -> now[0]);
        replica.copyKeysOf(server);
        server.call("DEL", "dlock:{m}"); // the force-release, which the replica never got
        promoted.forced("m", NOW, new java.util.HashSet<>(java.util.Set.of(1000L)));
        assertThat(promoted.check(now[0])).isNull();
        assertThat(promoted.exemptions()).containsEntry("force-release", 1L);
        promoted.promoted(now[0], Promotions.lostRecords(server, replica));
        now[0] = NOW + 100;
        server.restartWith(replica);
        promoted.promotedServerBack(NOW, now[0]);
        now[0] = NOW + 600;
        server.call("PEXPIRE", "dlock:{m}", "1000"); // renewed on the new master
        until[0] = NOW + 1500;
        now[0] = NOW + 1200; // past a force-release's bound: the hold is its holder's again, and held
        assertThat(promoted.check(now[0])).isNull();
    }

    @Test
    void aWipe_forgetsALoweredCount_withTheRecordItLost() {
        Hold first = new Hold(Kind.PERMIT, "s", 80_000, VALID, 1);
        Hold second = new Hold(Kind.PERMIT, "s", 80_001, VALID, 2);
        book.taken(first);
        book.taken(second);
        book.setPermitsStarted("s");
        book.setPermitsDone("s", 1, 40);
        assertThat(book.withinCount(second, 50)).contains("2 valid permit holds of s after setPermits(1)");
        book.serverCrashed(60);
        book.serverRestarted(70); // tokens from 70,000 µs on: both holds came after it
        assertThat(book.withinCount(second, 50))
                .as("the count set is lost with the record")
                .isNull();
    }
}
