package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core's public surface is {@code dev.dlock} and {@code dev.dlock.spi}: no other module of this
 * build may name {@code dev.dlock.internal}, in main or test code. Reads the sibling modules' sources
 * (this test runs with the module's directory as working directory, as Maven's surefire does).
 */
final class ModuleBoundaryTest {
    private static final String INTERNAL = "dev.dlock.internal";

    @Test
    void noOtherModule_namesTheInternalPackage() throws IOException {
        Path core = Path.of("").toAbsolutePath();
        Path root = core.getParent();
        assertThat(root.resolve("pom.xml"))
                .as("the parent pom beside dlock-core")
                .exists();
        List<Path> modules;
        try (Stream<Path> dirs = Files.list(root)) {
            modules = dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml")))
                    .filter(d -> !d.equals(core))
                    .toList();
        }
        assertThat(modules).as("sibling modules").isNotEmpty();
        List<String> offenders = new ArrayList<>();
        int files = 0;
        for (Path module : modules) {
            Path src = module.resolve("src");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> sources = Files.walk(src)) {
                for (Path file :
                        sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                    files++;
                    if (read(file).contains(INTERNAL)) {
                        offenders.add(root.relativize(file).toString());
                    }
                }
            }
        }
        assertThat(files).as("Java files read in the other modules").isGreaterThan(50);
        assertThat(offenders)
                .as("files outside dlock-core that name " + INTERNAL)
                .isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
