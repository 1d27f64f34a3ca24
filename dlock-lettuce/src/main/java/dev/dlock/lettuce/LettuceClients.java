package dev.dlock.lettuce;

import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What every dlock Lettuce client is built with: URIs from the parsed {@link RedisUri}, options, resources. */
final class LettuceClients {
    private LettuceClients() {}

    /**
     * The Lettuce URI of a standalone server, or of the sentinels of a master (each host a sentinel;
     * the credentials and database are the data node's).
     */
    static RedisURI redisUri(TransportConfig config) {
        RedisUri parsed = config.uri();
        RedisURI.Builder builder;
        List<RedisUri.HostPort> hosts = parsed.hosts();
        if (parsed.topology() == RedisUri.Topology.SENTINEL) {
            builder =
                    RedisURI.Builder.sentinel(hosts.get(0).host(), hosts.get(0).port(), parsed.masterName());
            for (RedisUri.HostPort sentinel : hosts.subList(1, hosts.size())) {
                builder.withSentinel(sentinel.host(), sentinel.port());
            }
        } else {
            builder = RedisURI.Builder.redis(hosts.get(0).host(), hosts.get(0).port())
                    .withSsl(parsed.tls());
        }
        builder.withDatabase(parsed.database());
        return finish(builder, config);
    }

    /** The Lettuce URIs of a cluster's seed nodes. */
    static List<RedisURI> seedUris(TransportConfig config) {
        List<RedisURI> seeds = new ArrayList<>();
        for (RedisUri.HostPort seed : config.uri().hosts()) {
            seeds.add(finish(
                    RedisURI.Builder.redis(seed.host(), seed.port())
                            .withSsl(config.uri().tls()),
                    config));
        }
        return seeds;
    }

    private static RedisURI finish(RedisURI.Builder builder, TransportConfig config) {
        RedisUri parsed = config.uri();
        if (parsed.password() != null) {
            if (parsed.user() != null) {
                builder.withAuthentication(parsed.user(), parsed.password());
            } else {
                builder.withPassword(parsed.password().toCharArray());
            }
        }
        return builder.withClientName(config.clientName())
                .withTimeout(config.commandTimeout())
                .build();
    }

    /** Resources whose channels carry the {@link WriteTracker}; shut down with the client. */
    static ClientResources resources() {
        return DefaultClientResources.builder()
                .nettyCustomizer(WriteTracker.INSTANCE)
                .build();
    }

    /** RESP2, connect and command timeouts; a {@link Tracked} command brings its own timeout. */
    static <B extends ClientOptions.Builder> B configure(B builder, Duration commandTimeout) {
        long defaultNanos = commandTimeout.toNanos();
        builder.protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(
                        SocketOptions.builder().connectTimeout(commandTimeout).build())
                .timeoutOptions(TimeoutOptions.builder()
                        .timeoutCommands(true)
                        .timeoutSource(new TimeoutOptions.TimeoutSource() {
                            @Override
                            public long getTimeout(RedisCommand<?, ?, ?> command) {
                                Tracked<?> tracked = Tracked.of(command);
                                return tracked != null ? tracked.timeoutNanos() : defaultNanos;
                            }

                            @Override
                            public TimeUnit getTimeUnit() {
                                return TimeUnit.NANOSECONDS;
                            }
                        })
                        .build());
        return builder;
    }
}
