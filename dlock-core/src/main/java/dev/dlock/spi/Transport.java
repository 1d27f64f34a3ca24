package dev.dlock.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The Redis operations dlock needs. Every future completes within the command timeout: normally, or
 * exceptionally with a {@link dev.dlock.LockConnectionException} (unreachable, timed out, closed) or
 * a {@link RedisReplyException} (an error reply).
 *
 * <p>Implementations must be thread-safe, must not block the calling thread in any method but
 * {@link #close()}, and keep commands issued by one thread in order.
 */
public interface Transport extends AutoCloseable {

    /**
     * Runs a script by its SHA-1 ({@code EVALSHA}), sending the source ({@code EVAL}) when the server
     * does not know it, as after a restart.
     *
     * @param script the script
     * @param keys its KEYS; the caller does not change the array afterwards, so the transport may
     *     keep it without a copy until the future completes (to resend it after {@code NOSCRIPT} or a
     *     reconnect); the transport never changes it
     * @param args its ARGV, under the same rule as {@code keys}
     * @return a future of the reply, shaped as {@link Script#reply()} says; nil becomes {@code null}
     */
    CompletableFuture<Object> eval(Script script, String[] keys, String[] args);

    /**
     * Subscribes the shared pub/sub connection to a channel; the future completes once Redis
     * confirmed the subscription, so that no later message can be missed. Subscriptions are
     * restored after a reconnect.
     *
     * @param channel the channel
     * @return a future that completes when the subscription is in place
     */
    CompletableFuture<Void> subscribe(String channel);

    /**
     * Unsubscribes the shared pub/sub connection from a channel.
     *
     * @param channel the channel
     * @return a future that completes when Redis confirmed
     */
    CompletableFuture<Void> unsubscribe(String channel);

    /**
     * Sets the one listener that receives every message of every subscribed channel. It runs on an
     * I/O thread and must not block.
     *
     * @param listener receives channel and message
     */
    void onMessage(BiConsumer<String, String> listener);

    /**
     * Returns the hash slot of a key, so that batches can be grouped by slot; 0 on a server that is
     * not a cluster.
     *
     * @param key the key
     * @return the slot
     */
    default int slot(String key) {
        return 0;
    }

    /**
     * The node that serves this key's slot, when one script may touch keys of several slots held by
     * one node: a cluster whose every node runs Redis 7.0+, where a script flagged {@code
     * allow-cross-slot-keys} is routed by its first key and reads the others from its arguments. The
     * watchdog then renews a node's leases in one call instead of one per slot. Null (the default)
     * where a script's keys must share one slot, or the node is not known now.
     *
     * <p>The answer is the transport's current view of the topology; a call built on it may still meet
     * a slot that has moved, and fail, which the caller must handle (the watchdog falls back to one call
     * per slot).
     *
     * @param key the key
     * @return an identifier of the node, equal for keys of one node; or null
     */
    default String crossSlotNode(String key) {
        return null;
    }

    /**
     * Whether this transport can {@linkplain #evalReplicated wait for replicas}. A client built with
     * {@code replicaAcks} refuses, before any I/O, a transport that cannot.
     *
     * @return true if {@link #evalReplicated} is implemented
     */
    default boolean waitsForReplicas() {
        return false;
    }

    /**
     * Runs a script as {@link #eval} does and then {@code WAIT} (or, for {@link ReplicaAck#fsync()},
     * {@code WAITAOF 0 n timeout}) on the very connection that ran it, so that the count covers the
     * script's writes. If that connection is lost before the wait answered (even if a reconnect
     * follows), or a resend after {@code NOSCRIPT} went on another connection, the future fails with
     * a {@link dev.dlock.LockConnectionException}: a wait sent on a new connection would cover none
     * of the script's writes and report a false acknowledgement.
     *
     * @param script the script
     * @param keys its KEYS, under {@link #eval}'s rule
     * @param args its ARGV, under {@link #eval}'s rule
     * @param ack how many replicas to wait for, and how long
     * @return a future of the script's reply and the number of replicas that acknowledged it
     * @throws UnsupportedOperationException if {@link #waitsForReplicas()} is false (the default)
     */
    default CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot wait for replicas");
    }

    /**
     * How many masters hold keys: 1 for a standalone server or Sentinel (the default), the number of
     * masters of a cluster as this transport last saw its topology.
     *
     * @return at least 1
     */
    default int masterCount() {
        return 1;
    }

    /**
     * Runs a keyless script on one master (a {@code SCAN} page of {@code LockAdmin.list}, whose cursor
     * is only good on the node that returned it). Masters are numbered 0 to {@link #masterCount()} − 1
     * in a stable order (a cluster's by node id); a topology change between calls may skip or repeat
     * a node's keys, as {@code SCAN} itself may.
     *
     * @param master the master's number
     * @param script the script, which takes no KEYS
     * @param args its ARGV
     * @return a future of the reply; fails with {@link IndexOutOfBoundsException} for a master that is
     *     no longer there
     */
    default CompletableFuture<Object> evalOnMaster(int master, Script script, String[] args) {
        if (master != 0) {
            return CompletableFuture.failedFuture(new IndexOutOfBoundsException("master " + master + " of 1"));
        }
        return eval(script, new String[0], args);
    }

    /**
     * Whether {@link #subscribe} uses sharded pub/sub ({@code SSUBSCRIBE}, Redis 7.0 Cluster), so
     * that dlock's scripts must publish with {@code SPUBLISH}; false (the default) means {@code
     * SUBSCRIBE} and {@code PUBLISH}.
     *
     * @return true for sharded pub/sub
     */
    default boolean shardedPubSub() {
        return false;
    }

    /** Closes the connections and releases threads; idempotent. */
    @Override
    void close();
}
