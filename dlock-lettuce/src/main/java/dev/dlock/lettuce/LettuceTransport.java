package dev.dlock.lettuce;

import dev.dlock.spi.TransportConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.netty.channel.Channel;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletionStage;

/**
 * One Lettuce client of a standalone server or of a Sentinel-managed master, with a command
 * connection and a lazily opened pub/sub connection. Lettuce reconnects by itself (asking the
 * sentinels for the master again) and restores subscriptions. Scripts go through a {@link
 * ScriptQueue}, which keeps their order across {@code NOSCRIPT}.
 *
 * <p>A master demoted to a replica while the connection stays up answers every script with {@code
 * READONLY}; the channel that got it is closed, so that Lettuce reconnects to the master the
 * sentinels name now (that script fails; the next ones reach the new master). Replicated calls
 * ({@link #evalReplicated}) pipeline the script and its {@code WAIT} on the command connection and
 * count only if both were written once to the same channel (see {@link
 * ScriptCommands#sendReplicated}). This class is thread-safe.
 */
final class LettuceTransport extends LettuceBase {
    private static final System.Logger LOG = System.getLogger("dev.dlock.lettuce");

    private final StatefulRedisConnection<String, String> connection;

    private LettuceTransport(
            ClientResources resources,
            RedisClient client,
            RedisURI uri,
            TransportConfig config,
            StatefulRedisConnection<String, String> connection) {
        super(
                resources,
                client,
                connection,
                config,
                new SharedPubSub(config.maskedUri(), () -> client.connectPubSubAsync(StringCodec.UTF8, uri)));
        this.connection = connection;
    }

    static LettuceTransport connect(TransportConfig config) {
        RedisURI uri = LettuceClients.redisUri(config);
        ClientResources resources = LettuceClients.resources();
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(LettuceClients.configure(ClientOptions.builder(), config.commandTimeout())
                .build());
        try {
            StatefulRedisConnection<String, String> connection;
            try {
                connection = client.connect(StringCodec.UTF8, uri);
            } catch (RedisConnectionException e) {
                if (!Errors.closedDuringHandshake(e)) {
                    throw e;
                }
                // A second attempt reports the refusal (or connects, if the close was transient).
                connection = client.connect(StringCodec.UTF8, uri);
            }
            LettuceTransport transport = new LettuceTransport(resources, client, uri, config, connection);
            connection.sync().ping();
            return transport;
        } catch (RuntimeException e) {
            shutdown(client, resources);
            throw Errors.connectFailure(config.maskedUri(), e);
        }
    }

    /** One script, or a script and its wait, on the command connection. */
    @Override
    CompletionStage<Object> send(ScriptQueue.Call call, boolean asSource) {
        Tracked<Object> script = ScriptCommands.script(call, asSource, timeoutNanos);
        CompletionStage<Object> reply = call.ack == null
                ? ScriptCommands.send(connection, script)
                : ScriptCommands.sendReplicated(connection, call, script, timeoutNanos, maskedUri);
        return reply.whenComplete((r, error) -> {
            if (error != null && Errors.isReadOnly(error)) {
                reconnect(script.channel());
            }
        });
    }

    /** A demoted master keeps answering READONLY on a live connection: drop it, Lettuce reconnects. */
    private void reconnect(Channel channel) {
        if (channel != null && channel.isOpen() && !isClosed()) {
            LOG.log(
                    Level.WARNING,
                    "{0} answered READONLY: it is a replica now (a failover demoted it); reconnecting to the"
                            + " current master of {1}",
                    channel.remoteAddress(),
                    maskedUri);
            channel.close();
        }
    }
}
