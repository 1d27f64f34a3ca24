package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hand-off message that arrives late (the pub/sub reader lagged, or the waiter took the lock by its
 * own try first) must not complete any other wait: not the same thread's wait for another lock, nor
 * its later wait for the same lock. The test records the real grant message a release published and
 * publishes it again, byte for byte, while the thread waits anew: exactly what a late copy looks like.
 */
public abstract class LateGrantContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected LateGrantContract() {}

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private LockClient waiterClient;
    private LockClient holderClient;
    private RedisClient raw;
    private StatefulRedisPubSubConnection<String, String> listener;
    private final BlockingQueue<String[]> heard = new LinkedBlockingQueue<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @BeforeEach
    void openClients() {
        waiterClient = connect(redis.server().uri());
        holderClient = connect(redis.server().uri());
        raw = RedisClient.create(redis.server().uri());
        listener = raw.connectPubSub();
        listener.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String pattern, String channel, String message) {
                heard.add(new String[] {channel, message});
            }
        });
        listener.sync().psubscribe("dlock:*:wake:" + waiterClient.clientId());
    }

    @AfterEach
    void closeClients() throws Exception {
        thread.shutdownNow();
        assertThat(thread.awaitTermination(10, TimeUnit.SECONDS))
                .as("the waiting thread ended")
                .isTrue();
        listener.close();
        raw.shutdown();
        waiterClient.close();
        holderClient.close();
    }

    /** The waiter thread takes {@code name} by a hand-off from the holder; returns the grant message heard. */
    private String[] takeByHandOff(String name) throws Exception {
        Lease held = holderClient.lock(name).acquire();
        Future<Long> taken = thread.submit(() -> {
            waiterClient.lock(name).lock();
            return waiterClient.lock(name).info().fencingToken();
        });
        WaitQueue.awaitSize(redis.server(), name, 1);
        held.release();
        taken.get(10, TimeUnit.SECONDS);
        String[] grant = heard.poll(10, TimeUnit.SECONDS);
        assertThat(grant).as("the release published a hand-off").isNotNull();
        // the formats the scripts write and the client reads (common.lua's channel_of and hand_off)
        assertThat(grant[0]).isEqualTo("dlock:{" + name + "}:wake:" + waiterClient.clientId());
        assertThat(grant[1]).matches("g [0-9]+ [0-9a-z]+\\.[0-9a-z]+ " + waiterClient.clientId() + ":thread-[0-9]+");
        return grant;
    }

    private void unlockOnThread(String name) throws Exception {
        thread.submit(() -> waiterClient.lock(name).unlock()).get(10, TimeUnit.SECONDS);
    }

    /** The thread waits for {@code name}, held by the other client, and the late grant is published. */
    private void assertLateGrantIgnored(String name, String[] lateGrant) throws Exception {
        Lease other = holderClient.lock(name).acquire();
        Future<Boolean> waiting = thread.submit(() -> waiterClient.lock(name).tryLock(3, TimeUnit.SECONDS));
        WaitQueue.awaitSize(redis.server(), name, 1);
        redis.server().command("PUBLISH", lateGrant[0], lateGrant[1]);
        boolean took;
        try {
            took = waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("tryLock(3 s) did not return", e);
        }
        assertThat(took)
                .as(
                        "the late grant %s on %s took '%s' while the other client held it",
                        lateGrant[1], lateGrant[0], name)
                .isFalse();
        assertThat(other.isValid()).isTrue();
        other.release();
    }

    @Test
    void lateGrantForOneLock_doesNotCompleteTheSameThreadsWaitForAnother() throws Exception {
        String[] grantA = takeByHandOff("late-a");
        unlockOnThread("late-a");
        assertLateGrantIgnored("late-b", grantA);
    }

    @Test
    void lateGrantOfAnEarlierWait_doesNotCompleteALaterWaitForTheSameLock() throws Exception {
        String[] grantA = takeByHandOff("late-c");
        unlockOnThread("late-c");
        assertLateGrantIgnored("late-c", grantA);
    }
}
