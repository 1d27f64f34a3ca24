package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.TopologyExtension;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.data.redis.cluster.nodes} in a real application context with dlock-lettuce on the class
 * path, against a local cluster of three masters: the auto-configured client holds its locks on the
 * master of each name's slot. Runs in its own surefire execution, the only one with dlock-lettuce.
 */
final class StarterClusterIT {
    @RegisterExtension
    static final TopologyExtension<ClusterSetup> cluster =
            ClusterSetup.builder().masters(3).extension();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DlockAutoConfiguration.class))
            .withPropertyValues("dlock.command-timeout=2s");

    @Test
    void clusterNodes_connectToTheCluster_andEachLockLivesOnItsSlotsMaster() {
        ClusterSetup setup = cluster.get();
        String nodes =
                setup.masters().stream().map(m -> "127.0.0.1:" + m.port()).collect(Collectors.joining(","));
        runner.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes).run(context -> {
            LockClient client = context.getBean(LockClient.class);
            assertThat(client.redisUri()).isEqualTo("redis-cluster://" + nodes);
            // dlock-lettuce is on this run's class path: the start checked the real Lettuce and Netty beside it
            assertThat(LettuceVersions.lettuceVersion(getClass().getClassLoader()))
                    .startsWith(LettuceVersions.TESTED_LETTUCE);
            for (String name : new String[] {"orders", "invoices", "payments", "ledger"}) {
                try (Lease lease = client.lock(name).acquire()) {
                    String key = "dlock:{" + name + "}";
                    RedisServer owner = setup.nodeForSlot(ClusterSetup.slotOf(key));
                    assertThat(owner.command("HGET", key, "owner")).as(key).isNotNull();
                    Optional<Lease> again = client.lock(name).tryAcquire(java.time.Duration.ZERO);
                    assertThat(again).as("held").isEmpty();
                }
            }
        });
    }
}
