package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockAdmin.LockState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class JsonTest {
    @Test
    void lock_escapesNamesAndWritesNullForNoHolder() {
        LockState free = new LockState("a\"b\\c\n", Optional.empty(), Duration.ZERO, 7, 2);
        String json = Json.lock(free);
        assertThat(json)
                .isEqualTo("{\"name\":\"a\\\"b\\\\c\\n\",\"held\":false,\"holder\":null,\"remainingMillis\":0,"
                        + "\"fencingToken\":7,\"waiters\":2}");
        assertThat(StrictJson.object(json)).containsEntry("name", "a\"b\\c\n");
    }

    @Test
    void list_wrapsLocksWithPatternAndCount() {
        LockState held = new LockState("x", Optional.of("id:lease-1"), Duration.ofMillis(1500), 42, 0);
        assertThat(StrictJson.object(Json.list("*", List.of(held, held))))
                .containsEntry("pattern", "*")
                .containsEntry("count", 2L);
    }
}
