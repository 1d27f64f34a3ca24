package dev.dlock.contract;

import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * A transport factory that counts the script calls its clients send through the {@link Transport} SPI, and otherwise
 * passes every call to the factory under test unchanged. Unlike the server's {@code INFO commandstats} ({@link
 * ScriptCalls}), the count is of one client's calls only: a call of another test's client that reaches the server late
 * on a busy host cannot fall into it. Thread-safe.
 */
final class CountingTransports implements TransportFactory {
    private final TransportFactory inner;
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();

    CountingTransports(TransportFactory inner) {
        this.inner = inner;
    }

    /**
     * Script calls sent so far by every transport this factory connected ({@code eval}, replicated or on a master), by
     * the script's name ({@code acquire}, {@code renew}, …), in name order.
     */
    Map<String, Long> calls() {
        Map<String, Long> out = new TreeMap<>();
        calls.forEach((name, count) -> out.put(name, count.get()));
        return out;
    }

    /** Starts the count again from zero. */
    void reset() {
        calls.clear();
    }

    private void count(Script script) {
        calls.computeIfAbsent(script.name(), n -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public Transport connect(TransportConfig config) {
        return new Counting(inner.connect(config));
    }

    @Override
    public boolean supports(String redisUri) {
        return inner.supports(redisUri);
    }

    @Override
    public int priority() {
        return inner.priority();
    }

    private final class Counting implements Transport {
        private final Transport inner;

        Counting(Transport inner) {
            this.inner = inner;
        }

        @Override
        public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
            count(script);
            return inner.eval(script, keys, args);
        }

        @Override
        public CompletableFuture<Replicated> evalReplicated(
                Script script, String[] keys, String[] args, ReplicaAck ack) {
            count(script);
            return inner.evalReplicated(script, keys, args, ack);
        }

        @Override
        public CompletableFuture<Object> evalOnMaster(int master, Script script, String[] args) {
            count(script);
            return inner.evalOnMaster(master, script, args);
        }

        @Override
        public CompletableFuture<Void> subscribe(String channel) {
            return inner.subscribe(channel);
        }

        @Override
        public CompletableFuture<Void> unsubscribe(String channel) {
            return inner.unsubscribe(channel);
        }

        @Override
        public void onMessage(BiConsumer<String, String> listener) {
            inner.onMessage(listener);
        }

        @Override
        public int slot(String key) {
            return inner.slot(key);
        }

        @Override
        public String crossSlotNode(String key) {
            return inner.crossSlotNode(key);
        }

        @Override
        public boolean waitsForReplicas() {
            return inner.waitsForReplicas();
        }

        @Override
        public int masterCount() {
            return inner.masterCount();
        }

        @Override
        public boolean shardedPubSub() {
            return inner.shardedPubSub();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
