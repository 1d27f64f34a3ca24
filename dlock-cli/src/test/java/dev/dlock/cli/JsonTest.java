package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockAdmin.Waiter;
import dev.dlock.LockInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class JsonTest {
    @Test
    void lock_escapesNamesAndWritesNullForNoHolder() {
        LockInfo free = new LockInfo("a\"b\\c\n", Optional.empty(), Duration.ZERO, 7, 2, List.of());
        String json = Json.lock(free);
        assertThat(json)
                .isEqualTo(
                        "{\"name\":\"a\\\"b\\\\c\\n\",\"held\":false,\"holder\":null,\"remainingMillis\":0,"
                                + "\"fencingToken\":7,\"waiters\":2,\"kind\":\"mutex\",\"capacity\":1,\"holders\":[],\"queue\":[]}");
        assertThat(StrictJson.object(json)).containsEntry("name", "a\"b\\c\n");
    }

    @Test
    void lock_keepsEveryCharacter_escapingControlCharsOnOneLine() {
        String name = "q\" b\\ n\n r\r t\t bell\u0007 us\u001f é 日本 😀";
        LockInfo held = new LockInfo(name, Optional.of("id-é:lease-1"), Duration.ofMillis(1500), 42, 3, List.of());
        String json = Json.lock(held);
        assertThat(json).doesNotContain("\n", "\r", "\t", "\u0007", "\u001f").contains("é 日本 😀");
        assertThat(StrictJson.object(json))
                .isEqualTo(Map.of(
                        "name",
                        name,
                        "held",
                        true,
                        "holder",
                        "id-é:lease-1",
                        "remainingMillis",
                        1500L,
                        "fencingToken",
                        42L,
                        "waiters",
                        3L,
                        "kind",
                        "mutex",
                        "capacity",
                        1L,
                        "holders",
                        List.of(Map.of(
                                "owner", "id-é:lease-1", "weight", 1L, "fencingToken", 42L, "remainingMillis", 1500L)),
                        "queue",
                        List.of()));
    }

    @Test
    void lock_ofASemaphore_listsHoldersAndQueueInOrder() {
        LockInfo sem = new LockInfo(
                "s",
                "semaphore",
                Optional.of("b:lease-2"),
                Duration.ofMillis(900),
                9,
                3,
                List.of(
                        new Holder("a:lease-1", 2, 8, Duration.ofMillis(500)),
                        new Holder("b:lease-2", 1, 9, Duration.ofMillis(900))),
                1,
                List.of(new Waiter("c:lease-3", 2)));
        Map<String, Object> json = StrictJson.object(Json.lock(sem));
        assertThat(json)
                .containsEntry("kind", "semaphore")
                .containsEntry("capacity", 3L)
                .containsEntry("holder", "b:lease-2")
                .containsEntry("fencingToken", 9L)
                .containsEntry("queue", List.of(Map.of("owner", "c:lease-3", "weight", 2L)));
        assertThat(json.get("holders"))
                .isEqualTo(List.of(
                        Map.of("owner", "a:lease-1", "weight", 2L, "fencingToken", 8L, "remainingMillis", 500L),
                        Map.of("owner", "b:lease-2", "weight", 1L, "fencingToken", 9L, "remainingMillis", 900L)));
    }

    @Test
    void list_wrapsLocksWithPatternAndCount() {
        LockInfo held = new LockInfo("x", Optional.of("id:lease-1"), Duration.ofMillis(1500), 42);
        Map<String, Object> json = StrictJson.object(Json.list("*", List.of(held, held)));
        assertThat(json).containsOnlyKeys("pattern", "count", "locks");
        assertThat(json).containsEntry("pattern", "*").containsEntry("count", 2L);
        assertThat(json.get("locks"))
                .isEqualTo(List.of(StrictJson.object(Json.lock(held)), StrictJson.object(Json.lock(held))));
    }

    @Test
    void list_ofNothing_hasAnEmptyArray() {
        assertThat(Json.list("none-*", List.of())).isEqualTo("{\"pattern\":\"none-*\",\"count\":0,\"locks\":[]}");
    }
}
