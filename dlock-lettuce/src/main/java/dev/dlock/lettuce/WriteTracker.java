package dev.dlock.lettuce;

import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.util.Map;

/**
 * Put into every channel of a dlock Lettuce client (as its {@link NettyCustomizer}), right in front of
 * Lettuce's {@code CommandHandler}: every {@link Tracked} command written to the channel learns the
 * channel, once per write. A channel without it would leave its commands untracked, which {@link
 * Tracked#sameSingleWrite} treats as "not proven", never as "same connection". This class is
 * thread-safe (one shared instance, no state).
 */
@ChannelHandler.Sharable
final class WriteTracker extends ChannelOutboundHandlerAdapter implements NettyCustomizer {
    static final WriteTracker INSTANCE = new WriteTracker();
    private static final System.Logger LOG = System.getLogger("dev.dlock.lettuce");
    private static final String NAME = "dlock-write-tracker";

    private WriteTracker() {}

    @Override
    public void afterChannelInitialized(Channel channel) {
        for (Map.Entry<String, ChannelHandler> handler : channel.pipeline()) {
            if (handler.getValue() instanceof CommandHandler) {
                channel.pipeline().addBefore(handler.getKey(), NAME, this);
                return;
            }
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "dlock found no Lettuce CommandHandler in the pipeline of {0}; replica acknowledgements on it"
                        + " cannot be proven and will fail",
                channel);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof RedisCommand<?, ?, ?> command) {
            track(command, ctx.channel());
        } else if (msg instanceof Iterable<?> commands) {
            for (Object c : commands) {
                if (c instanceof RedisCommand<?, ?, ?> command) {
                    track(command, ctx.channel());
                }
            }
        }
        ctx.write(msg, promise);
    }

    private static void track(RedisCommand<?, ?, ?> command, Channel channel) {
        Tracked<?> tracked = Tracked.of(command);
        if (tracked != null) {
            tracked.written(channel);
        }
    }
}
