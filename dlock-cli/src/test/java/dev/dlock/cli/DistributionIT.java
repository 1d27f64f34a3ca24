package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball as ops install it: unpacked with the host's {@code tar}, its {@code bin/dlock} run with an environment
 * that holds nothing but a PATH of the few tools the launcher uses and a plain {@code java} (no Maven, no JAVA_HOME),
 * or only JAVA_HOME; and refusing a Java older than 17 with a message that says so.
 */
final class DistributionIT {
    static final Path TARBALL = Path.of(System.getProperty("dlock.cli.tarball", "target/dlock.tar.gz"));

    /** What bin/dlock runs besides java (sh itself is its #! line); command -v is built in. */
    private static final List<String> TOOLS = List.of("readlink", "sed", "head");

    @RegisterExtension
    static final LockServer redis = new LockServer();

    @TempDir
    Path dir;

    private String version;
    private Path home;
    private Path tools;

    @BeforeEach
    void unpack() throws Exception {
        assertThat(TARBALL).as("the tarball (run the ITs after package)").isRegularFile();
        Matcher name = Pattern.compile("dlock-(.+)\\.tar\\.gz")
                .matcher(TARBALL.getFileName().toString());
        assertThat(name.matches()).as(TARBALL.toString()).isTrue();
        version = name.group(1);
        Path unpacked = Files.createDirectories(dir.resolve("opt"));
        Process tar = new ProcessBuilder("tar", "-xzf", TARBALL.toString(), "-C", unpacked.toString())
                .inheritIO()
                .start();
        assertThat(tar.waitFor()).isZero();
        home = unpacked.resolve("dlock-" + version);
        tools = toolsDir("tools", TOOLS);
    }

    /** A directory of links to the host's {@code tools}, for a PATH of nothing else. */
    private Path toolsDir(String name, List<String> tools) throws IOException {
        Path created = Files.createDirectories(dir.resolve(name));
        for (String tool : tools) {
            Files.createSymbolicLink(created.resolve(tool), onPath(tool));
        }
        return created;
    }

    @Test
    void tarball_holdsTheLauncherOneJarAndTheDocs() throws IOException {
        assertThat(home.resolve("bin/dlock")).isExecutable();
        assertThat(Files.readString(home.resolve("bin/dlock"))).startsWith("#!/bin/sh\n");
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString())).containsExactly("dlock-cli-" + version + ".jar");
        }
        assertThat(home.resolve("README.md")).isRegularFile();
        assertThat(home.resolve("docs/cli.md")).isRegularFile();
    }

    @Test
    void launcher_withPlainJavaOnPath_runsVersionAndStatus() throws Exception {
        Path javaDir = Files.createDirectories(dir.resolve("java-bin"));
        Files.createSymbolicLink(javaDir.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        Map<String, String> env = Map.of("PATH", javaDir + ":" + tools);

        Cli version = dlock(env, "--version");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.stdout()).startsWith("dlock " + this.version + "\nJava ");
        assertThat(version.stderr()).isEmpty();

        Cli free = dlock(env, "status", "nightly", "--redis", redis.uri());
        assertThat(free.exitCode()).as(free.toString()).isEqualTo(1);
        assertThat(free.stdout()).startsWith("lock 'nightly' is free");
        assertThat(free.stderr()).isEmpty();

        // run through the launcher: it execs java, so the SIGTERM reaches the JVM, which stops CMD and releases
        try (Cli run = start(env, "run", "--redis", redis.uri(), "--name", "nightly", "--", "/bin/sleep", "60")) {
            Cli.await("the lock to be taken", Duration.ofSeconds(30), () -> redis.held("nightly"));
            Cli held = dlock(env, "status", "nightly", "--redis", redis.uri());
            assertThat(held.exitCode()).as(held.toString()).isZero();
            assertThat(held.stdout()).startsWith("lock 'nightly' is held");

            run.sigterm();
            assertThat(run.waitFor(Duration.ofSeconds(30))).as(run.toString()).isEqualTo(143);
            assertThat(redis.held("nightly")).isFalse();
        }
    }

    @Test
    void launcher_withJavaHomeOnly_andThroughASymlink_runs() throws Exception {
        Path linked = Files.createDirectories(dir.resolve("usr-local-bin")).resolve("dlock");
        Files.createSymbolicLink(linked, home.resolve("bin/dlock"));
        Map<String, String> env = Map.of("PATH", tools.toString(), "JAVA_HOME", System.getProperty("java.home"));

        Cli version = Cli.startWithOnly(env, List.of(linked.toString(), "--version"));
        assertThat(version.waitFor(Duration.ofSeconds(60)))
                .as(version.toString())
                .isZero();
        assertThat(version.stdout()).startsWith("dlock " + this.version);
    }

    @Test
    void launcher_throughASymlink_withoutReadlink_followsItWithLs() throws Exception {
        Path linked = Files.createDirectories(dir.resolve("usr-local-bin")).resolve("dlock");
        Files.createSymbolicLink(linked, home.resolve("bin/dlock"));
        Path noReadlink = toolsDir("no-readlink", List.of("sed", "head", "ls"));
        Map<String, String> env = Map.of("PATH", noReadlink.toString(), "JAVA_HOME", System.getProperty("java.home"));

        Cli version = Cli.startWithOnly(env, List.of(linked.toString(), "--version"));
        assertThat(version.waitFor(Duration.ofSeconds(60)))
                .as(version.toString())
                .isZero();
        assertThat(version.stdout()).startsWith("dlock " + this.version);
    }

    @Test
    void launcher_throughASymlink_withNeitherReadlinkNorLs_exits69SayingSo() throws Exception {
        Path linked = Files.createDirectories(dir.resolve("usr-local-bin")).resolve("dlock");
        Files.createSymbolicLink(linked, home.resolve("bin/dlock"));
        Path bare = toolsDir("bare", List.of("sed", "head"));
        Map<String, String> env = Map.of("PATH", bare.toString(), "JAVA_HOME", System.getProperty("java.home"));

        Cli version = Cli.startWithOnly(env, List.of(linked.toString(), "--version"));
        assertThat(version.waitFor(Duration.ofSeconds(60)))
                .as(version.toString())
                .isEqualTo(69);
        assertThat(version.stderr())
                .isEqualTo("dlock: cannot follow the symbolic link " + linked
                        + " to the dlock installation: no readlink or ls on PATH; run dlock-<version>/bin/dlock by its"
                        + " own path\n");
    }

    @Test
    void launcher_withoutJava17_exits69SayingWhatItNeeds() throws Exception {
        Cli none = dlock(Map.of("PATH", tools.toString()), "--version");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(69);
        assertThat(none.stderr()).contains("no java on PATH", "Java 17 or newer");

        Cli noBinary = dlock(Map.of("PATH", tools.toString(), "JAVA_HOME", dir.toString()), "--version");
        assertThat(noBinary.exitCode()).as(noBinary.toString()).isEqualTo(69);
        assertThat(noBinary.stderr()).contains("JAVA_HOME is " + dir, "no bin/java");

        // An old Java told by its java -version (no release file beside it) and one told by its release file.
        Path java8 = fakeJava("java8", "java version \"1.8.0_412\"", null);
        Cli old = dlock(Map.of("PATH", tools.toString(), "JAVA_HOME", java8.toString()), "--version");
        assertThat(old.exitCode()).as(old.toString()).isEqualTo(69);
        assertThat(old.stderr()).contains("needs Java 17 or newer", "is Java 1.8.0_412", "JAVA_HOME");

        Path java11 = fakeJava("java11", "should not be asked", "11.0.2");
        Cli eleven = dlock(Map.of("PATH", java11.resolve("bin") + ":" + tools), "--version");
        assertThat(eleven.exitCode()).as(eleven.toString()).isEqualTo(69);
        assertThat(eleven.stderr()).contains("needs Java 17 or newer", "is Java 11.0.2");
    }

    /** A Java installation whose bin/java prints {@code versionLine} to stderr, with a release file if given. */
    private Path fakeJava(String name, String versionLine, String releaseVersion) throws IOException {
        Path javaHome = dir.resolve(name);
        Path java = Files.createDirectories(javaHome.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho '" + versionLine + "' >&2\nexit 0\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (releaseVersion != null) {
            Files.writeString(javaHome.resolve("release"), "JAVA_VERSION=\"" + releaseVersion + "\"\n");
        }
        return javaHome;
    }

    private Cli dlock(Map<String, String> env, String... args) {
        Cli cli = start(env, args);
        cli.waitFor(Duration.ofSeconds(60));
        return cli;
    }

    private Cli start(Map<String, String> env, String... args) {
        List<String> command =
                new java.util.ArrayList<>(List.of(home.resolve("bin/dlock").toString()));
        command.addAll(List.of(args));
        Map<String, String> only = new HashMap<>(env);
        only.put("DLOCK_JAVA_OPTS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        return Cli.startWithOnly(only, command);
    }

    private static Path onPath(String tool) {
        for (String entry : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new UncheckedIOException(new IOException(tool + " is not on PATH"));
    }
}
