package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HistoryTest {
    /** Reads a line independently of the streaming writer: integers as Longs, one object, no repeated keys. */
    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** A complete line's fields in their order; an invoke line has all but complete and outcome. */
    private static final List<String> FIELDS = List.of(
            "phase",
            "scenario",
            "client",
            "pid",
            "seq",
            "type",
            "invoke",
            "complete",
            "outcome",
            "token",
            "deadline",
            "element",
            "timeoutNanos",
            "detail",
            "lock",
            "leaseNanos",
            "kind");

    private static Map<String, Object> strict(String line) throws Exception {
        return STRICT.readValue(line, new TypeReference<Map<String, Object>>() {});
    }

    @TempDir
    Path dir;

    @Test
    void read_roundTripsCompletedOpsAndTurnsTornOrMissingCompletionsIntoUnknown() throws Exception {
        Path file = dir.resolve("h.jsonl");
        Op done = Ops.op("t1", Op.WRITE, 1, 2, Op.OK, 17, 900, "t1-3w", "quote \" and \\ and\nnewline");
        Op readHold = Ops.acquire("t1", 2, 3, 18, 900, Op.KIND_READ);
        Op pending = Ops.op("t1", Op.ACQUIRE, 3, 4, Op.OK, 0, 0, "", "");
        try (History history = new History(file)) {
            history.invoked(done);
            history.completed(done);
            history.invoked(readHold);
            history.completed(readHold);
            history.invoked(pending);
        }
        Files.writeString(file, Files.readString(file) + "{\"phase\":\"compl", java.nio.file.StandardOpenOption.APPEND);
        List<Op> ops = History.read(List.of(file));
        assertThat(ops).hasSize(3);
        assertThat(ops.get(0)).isEqualTo(done);
        assertThat(ops.get(1)).isEqualTo(readHold);
        assertThat(ops.get(1).isRead()).isTrue();
        assertThat(ops.get(2).outcome()).isEqualTo(Op.UNKNOWN);
        assertThat(ops.get(2).complete()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void lines_areFlatObjectsOnePerLine_withEveryCharacterOfTheStringsKept() throws Exception {
        String tricky = "quote \" backslash \\ newline \n return \r tab \t bell \u0007 unit \u001f é 日本 😀 \u2028 /";
        Op op = Ops.op("t1", Op.WRITE, 1, 2, Op.FAIL, 17, 900, tricky, tricky);
        Path file = dir.resolve("h.jsonl");
        try (History history = new History(file)) {
            history.invoked(op);
            history.completed(op);
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).doesNotContain("\u0007", "\u001f").contains("é 日本 😀");
        Map<String, Object> invoke = strict(lines.get(0));
        assertThat(invoke.keySet())
                .containsExactlyElementsOf(FIELDS.stream()
                        .filter(field -> !field.equals("complete") && !field.equals("outcome"))
                        .toList());
        assertThat(invoke).containsEntry("phase", "invoke").containsEntry("element", tricky);
        Map<String, Object> complete = strict(lines.get(1));
        assertThat(complete.keySet()).containsExactlyElementsOf(FIELDS);
        assertThat(complete)
                .containsEntry("phase", "complete")
                .containsEntry("scenario", "test")
                .containsEntry("client", "t1")
                .containsEntry("type", Op.WRITE)
                .containsEntry("invoke", op.invoke())
                .containsEntry("complete", op.complete())
                .containsEntry("outcome", Op.FAIL)
                .containsEntry("token", 17L)
                .containsEntry("deadline", op.deadline())
                .containsEntry("element", tricky)
                .containsEntry("detail", tricky);
        assertThat(History.read(List.of(file))).containsExactly(op);
    }

    @Test
    void viaProxy_keepsCredentialsAndDatabase() {
        assertThat(Connections.viaProxy("redis://:s%40cret@10.0.0.1:6380/2", 4444))
                .isEqualTo("redis://:s%40cret@127.0.0.1:4444/2");
    }
}
