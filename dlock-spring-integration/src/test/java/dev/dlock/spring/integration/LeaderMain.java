package dev.dlock.spring.integration;

import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * A leadership candidate in its own JVM: Spring Integration's {@link LockRegistryLeaderInitiator} on
 * a {@link DlockLockRegistry}. Prints {@code READY}, then {@code GRANTED <id>} and {@code REVOKED <id>}
 * as leadership comes and goes; {@code stop} on stdin stops the initiator and exits.
 */
public final class LeaderMain {
    private LeaderMain() {}

    /**
     * Entry point.
     *
     * @param args Redis URI, candidate id, lease ms of the client
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String id = args[1];
        LockClient client = LockClient.builder()
                .redisUri(args[0])
                .transport(new RespTransportFactory())
                .leaseTime(Duration.ofMillis(Long.parseLong(args[2])))
                .build();
        DefaultCandidate candidate = new DefaultCandidate(id, "leader-it") {
            @Override
            public void onGranted(Context ctx) {
                System.out.println("GRANTED " + id);
            }

            @Override
            public void onRevoked(Context ctx) {
                System.out.println("REVOKED " + id);
            }
        };
        LockRegistryLeaderInitiator initiator =
                new LockRegistryLeaderInitiator(new DlockLockRegistry(client, "si"), candidate);
        initiator.setHeartBeatMillis(200);
        initiator.setBusyWaitMillis(50);
        initiator.start();
        System.out.println("READY " + id);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("stop")) {
                break;
            }
        }
        initiator.stop();
        initiator.destroy();
        client.close();
        System.out.println("STOPPED " + id);
    }
}
