/**
 * JUnit 5 testkit that runs real {@code redis-server} processes on free loopback ports and injects faults.
 *
 * <p>Entry points: {@link dev.dlock.testkit.RedisExtension} (JUnit 5 extension), {@link dev.dlock.testkit.RedisServer}
 * (one server process with pause/kill/restart faults), {@link dev.dlock.testkit.JvmProcess} (a {@code main} class in a
 * separate JVM) and {@link dev.dlock.testkit.Timing} (scales every test timeout).
 */
package dev.dlock.testkit;
