package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RedisBinaryTest {

    @TempDir
    Path tmp;

    @Test
    void resolve_prefersEnvironment_thenProperty_thenPath() throws IOException {
        Path fromEnv = executable("env/redis-server");
        Path fromProperty = executable("prop/redis-server");
        Path onPath = executable("bin/redis-server");
        String path = tmp.resolve("empty") + File.pathSeparator + onPath.getParent();

        assertThat(RedisBinary.resolve(fromEnv.toString(), fromProperty.toString(), path))
                .isEqualTo(fromEnv);
        assertThat(RedisBinary.resolve(null, fromProperty.toString(), path)).isEqualTo(fromProperty);
        assertThat(RedisBinary.resolve(" ", null, path)).isEqualTo(onPath);
    }

    @Test
    void resolve_embeddedKeyword_forcesFallback() throws IOException {
        assumeTrue(
                RedisBinary.embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")) != null);
        Path onPath = executable("bin/redis-server");
        Path embedded = RedisBinary.embedded();

        assertThat(RedisBinary.resolve("embedded", null, onPath.getParent().toString()))
                .isEqualTo(embedded);
        assertThat(RedisBinary.resolve(null, "embedded", onPath.getParent().toString()))
                .isEqualTo(embedded);
        assertThat(RedisBinary.resolve(null, null, tmp.toString())).isEqualTo(embedded);
    }

    @Test
    void resolve_nonExecutablePath_failsClearly() {
        assertThatThrownBy(() -> RedisBinary.resolve(tmp.resolve("nope").toString(), null, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DLOCK_REDIS_SERVER")
                .hasMessageContaining("not an executable");
    }

    @Test
    void embeddedResourceName_pickedByOsAndArch() {
        assertThat(RedisBinary.embeddedResourceName("Linux", "amd64")).isEqualTo("redis-server-6.2.6-v5-linux-amd64");
        assertThat(RedisBinary.embeddedResourceName("Linux", "aarch64")).isEqualTo("redis-server-6.2.7-linux-arm64");
        assertThat(RedisBinary.embeddedResourceName("Mac OS X", "aarch64"))
                .isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
        assertThat(RedisBinary.embeddedResourceName("Mac OS X", "x86_64"))
                .isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(RedisBinary.embeddedResourceName("FreeBSD", "amd64")).isNull();
    }

    @Test
    void major_parsesLeadingNumber() {
        assertThat(RedisBinary.major("7.0.15")).isEqualTo(7);
        assertThat(RedisBinary.major("6.2.11")).isEqualTo(6);
        assertThat(RedisBinary.major("unstable")).isZero();
    }

    private Path executable(String relative) throws IOException {
        Path file = tmp.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        assertThat(file.toFile().setExecutable(true)).isTrue();
        return file;
    }
}
