package dev.dlock.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Child-JVM program for {@link ShutdownHookIT}: starts a server (or, with argument {@code sentinel}, a whole
 * {@link SentinelSetup}), never closes it, prints {@code SERVER pid dataDir} per process and then {@code READY}, and
 * exits when stdin says so.
 */
final class LeakyRedisMain {

    private LeakyRedisMain() {}

    public static void main(String[] args) throws IOException {
        List<RedisServer> servers = new ArrayList<>();
        if (args.length > 0 && args[0].equals("sentinel")) {
            SentinelSetup setup = SentinelSetup.builder().start();
            servers.addAll(setup.dataNodes());
            servers.addAll(setup.sentinels());
            setup.sentinels().get(0).pause();
        } else {
            servers.add(RedisServer.builder().aof(true).start());
        }
        for (RedisServer server : servers) {
            System.out.println("SERVER " + server.pid() + " " + server.dataDir());
        }
        System.out.println("READY");
        System.in.read();
        System.exit(0);
    }
}
