package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.verify.Violation.Checker;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the failover scenarios are judged and which tier runs them. */
final class ScenarioTest {

    @Test
    void quickTier_leavesOutTheFailoversUnderLoad_longTierRunsEverything() {
        List<String> all = Scenario.all().stream().map(Scenario::name).toList();
        List<String> quick = Scenario.of(false).stream().map(Scenario::name).toList();

        assertThat(all).containsAll(Scenario.LONG_TIER_ONLY);
        assertThat(quick).doesNotContainAnyElementsOf(Scenario.LONG_TIER_ONLY);
        assertThat(quick).contains("control-failover-hold-back", "failover-hold-back-acked");
        assertThat(Scenario.of(true)).isEqualTo(Scenario.all());
        assertThat(Verify.chosen(List.of("failover-kill"), false))
                .extracting(Scenario::name)
                .containsExactly("failover-kill");
    }

    @Test
    void withoutAcks_holdBackIsAControlOfCheckerOne_killAndPauseDocumentExclusionAndTokenOrder() {
        Scenario holdBack = Scenario.failover("h", 0, Fault.FAILOVER_HOLD_BACK);
        Scenario kill = Scenario.failover("k", 0, Fault.FAILOVER_KILL);

        assertThat(holdBack.isControl()).isTrue();
        assertThat(holdBack.caughtBy()).isEqualTo(Checker.MUTUAL_EXCLUSION);
        assertThat(holdBack.caughtText()).isEqualTo("overlap");
        assertThat(kill.isControl()).isFalse();
        assertThat(kill.documentedOnly()).containsExactlyInAnyOrder(Checker.MUTUAL_EXCLUSION, Checker.TOKEN_ORDER);
    }

    @Test
    void withAcks_everyCheckerCounts() {
        for (Fault fault : List.of(
                Fault.FAILOVER_KILL, Fault.FAILOVER_PAUSE, Fault.FAILOVER_HOLD_BACK, Fault.FAILOVER_PARTITION)) {
            Scenario acked = Scenario.failover("a", 1, fault);

            assertThat(acked.isControl()).as("%s", fault).isFalse();
            assertThat(acked.documentedOnly()).as("%s", fault).isEmpty();
            assertThat(acked.failover().replicaAcks()).isEqualTo(1);
            assertThat(acked.holderJvms()).isZero();
            assertThat(acked.workers()).filteredOn(Scenario.Client::stalls).hasSize(1);
        }
    }

    @Test
    void partition_addsAMinorityClient_onAPartitionedDeployment_inTheLongTier() {
        Scenario partition = Scenario.failover("p", 0, Fault.FAILOVER_PARTITION);
        Scenario kill = Scenario.failover("k", 1, Fault.FAILOVER_KILL);

        assertThat(partition.failover().partition()).isTrue();
        assertThat(partition.isControl()).isFalse();
        assertThat(partition.documentedOnly()).containsExactlyInAnyOrder(Checker.MUTUAL_EXCLUSION, Checker.TOKEN_ORDER);
        assertThat(partition.workers())
                .filteredOn(c -> c.via() == Scenario.Via.MINORITY)
                .extracting(Scenario.Client::label)
                .containsExactly("m1");
        assertThat(kill.failover().partition()).isFalse();
        assertThat(kill.workers()).noneMatch(c -> c.via() == Scenario.Via.MINORITY);
        assertThat(Scenario.LONG_TIER_ONLY).contains("failover-partition", "failover-partition-acked");
    }

    @Test
    void semaphore_isJudgedByItsPermits_andItsControlLetsMoreInThanTheCheckerAllows() {
        Scenario semaphore = Scenario.all().stream()
                .filter(s -> s.name().equals("semaphore"))
                .findFirst()
                .orElseThrow();
        Scenario control = Scenario.all().stream()
                .filter(s -> s.name().equals("control-semaphore-over-capacity"))
                .findFirst()
                .orElseThrow();

        assertThat(semaphore.capacity()).isEqualTo(SemaphoreScenario.PERMITS).isEqualTo(semaphore.permits());
        assertThat(semaphore.isControl()).isFalse();
        assertThat(semaphore.faults()).isNotEmpty();
        assertThat(semaphore.workers()).hasSizeGreaterThan(SemaphoreScenario.PERMITS);
        assertThat(control.isControl()).isTrue();
        assertThat(control.caughtBy()).isEqualTo(Checker.PERMITS);
        assertThat(control.permits()).isGreaterThan(control.capacity());
        assertThat(Scenario.of(false)).contains(semaphore, control);
        assertThat(Scenario.faults("m", 1).capacity()).isEqualTo(1);
    }

    @Test
    void readWrite_isJudgedByCheckerEight_andItsControlLetsWritersInBesideReaders() {
        Scenario readWrite = Scenario.all().stream()
                .filter(s -> s.name().equals("read-write"))
                .findFirst()
                .orElseThrow();
        Scenario control = Scenario.all().stream()
                .filter(s -> s.name().equals("control-rw-writer-takes-read-lock"))
                .findFirst()
                .orElseThrow();
        Scenario semaphore = Scenario.all().stream()
                .filter(s -> s.name().equals("semaphore"))
                .findFirst()
                .orElseThrow();

        assertThat(readWrite.readWrite()).isTrue();
        assertThat(readWrite.isControl()).isFalse();
        assertThat(readWrite.variant()).isEqualTo(Worker.Variant.HONEST);
        assertThat(readWrite.faults()).isEqualTo(semaphore.faults());
        assertThat(readWrite.workers()).allMatch(c -> c.style().readWrite());
        assertThat(readWrite.workers())
                .extracting(Scenario.Client::style)
                .contains(Acquirer.Style.RW_LEASE, Acquirer.Style.RW_ASYNC, Acquirer.Style.RW_THREAD);
        assertThat(control.readWrite()).isTrue();
        assertThat(control.caughtBy()).isEqualTo(Checker.READ_WRITE);
        assertThat(control.caughtText()).isEqualTo(ReadWriteScenario.CAUGHT_TEXT);
        assertThat(control.variant()).isEqualTo(Worker.Variant.WRITERS_TAKE_READ_LOCK);
        assertThat(control.minAcquires()).isPositive();
        assertThat(Scenario.of(false)).contains(readWrite, control);
        assertThat(Scenario.faults("m", 1).readWrite()).isFalse();
        assertThat(semaphore.readWrite()).isFalse();
    }

    @Test
    void scripted_haveNoWorkload_andEachControlNamesItsChecker() {
        List<Scenario> scripted =
                Scenario.all().stream().filter(s -> s.script() != null).toList();

        assertThat(scripted)
                .extracting(Scenario::name)
                .contains("stale-grant", "multi-lock-lost-part", "redlock-fence-write-back", "read-write-long-leases");
        assertThat(scripted).allSatisfy(s -> {
            assertThat(s.workers()).isEmpty();
            assertThat(s.faults()).isEmpty();
            assertThat(s.holderJvms()).isZero();
            assertThat(s.lockNames()).hasSameSizeAs(s.script().names()).allMatch(n -> n.startsWith(s.name() + "-"));
        });
        assertThat(scripted).filteredOn(Scenario::isControl).allMatch(s -> s.caughtBy() != null);
        assertThat(Scenario.of(false)).containsAll(scripted);
        assertThat(scripted)
                .filteredOn(s -> s.name().equals("read-write-long-leases"))
                .singleElement()
                .satisfies(s -> assertThat(s.readWrite()).isTrue());
    }
}
