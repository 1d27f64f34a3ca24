package dev.dlock.testkit;

import java.io.IOException;

/** Child-JVM program for {@link ShutdownHookIT}: starts a server, never closes it, exits when stdin says so. */
final class LeakyRedisMain {

    private LeakyRedisMain() {}

    public static void main(String[] args) throws IOException {
        RedisServer server = RedisServer.builder().aof(true).start();
        System.out.println("SERVER " + server.pid() + " " + server.dataDir());
        System.in.read();
        System.exit(0);
    }
}
