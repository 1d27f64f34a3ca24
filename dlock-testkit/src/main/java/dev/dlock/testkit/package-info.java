/**
 * JUnit 5 testkit that runs real {@code redis-server} processes on free loopback ports and injects faults.
 *
 * <p>Entry points: {@link dev.dlock.testkit.RedisExtension} (JUnit 5 extension), {@link dev.dlock.testkit.RedisServer}
 * (one server process with pause/kill/restart faults), {@link dev.dlock.testkit.JvmProcess} (a {@code main} class in a
 * separate JVM) and {@link dev.dlock.testkit.Timing} (scales every test timeout).
 *
 * <p>Topologies of several processes: {@link dev.dlock.testkit.SentinelSetup} (master, replicas, three sentinels),
 * {@link dev.dlock.testkit.ClusterSetup} (a local Redis Cluster) and {@link dev.dlock.testkit.IndependentMasters}
 * (standalone masters for Redlock), each with a {@link dev.dlock.testkit.TopologyExtension} for JUnit 5.
 */
package dev.dlock.testkit;
