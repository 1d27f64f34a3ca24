package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HistoryTest {

    @TempDir
    Path dir;

    @Test
    void read_roundTripsCompletedOpsAndTurnsTornOrMissingCompletionsIntoUnknown() throws Exception {
        Path file = dir.resolve("h.jsonl");
        Op done = Ops.op("t1", Op.WRITE, 1, 2, Op.OK, 17, 900, "t1-3w", "quote \" and \\ and\nnewline");
        Op pending = Ops.op("t1", Op.ACQUIRE, 3, 4, Op.OK, 0, 0, "", "");
        try (History history = new History(file)) {
            history.invoked(done);
            history.completed(done);
            history.invoked(pending);
        }
        Files.writeString(file, Files.readString(file) + "{\"phase\":\"compl", java.nio.file.StandardOpenOption.APPEND);
        List<Op> ops = History.read(List.of(file));
        assertThat(ops).hasSize(2);
        assertThat(ops.get(0)).isEqualTo(done);
        assertThat(ops.get(1).outcome()).isEqualTo(Op.UNKNOWN);
        assertThat(ops.get(1).complete()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void viaProxy_keepsCredentialsAndDatabase() {
        assertThat(Connections.viaProxy("redis://:s%40cret@10.0.0.1:6380/2", 4444))
                .isEqualTo("redis://:s%40cret@127.0.0.1:4444/2");
    }
}
