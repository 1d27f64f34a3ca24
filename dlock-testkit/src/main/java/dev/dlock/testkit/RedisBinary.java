package dev.dlock.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a {@code redis-server} executable and reads its version. Thread-safe: the embedded binary is extracted at most
 * once per JVM and versions are cached per path.
 */
final class RedisBinary {

    static final String ENV = "DLOCK_REDIS_SERVER";
    static final String PROPERTY = "dlock.redis.server";
    static final String EMBEDDED = "embedded";

    private static final Pattern VERSION = Pattern.compile("v=(\\S+)");
    private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();
    private static Path embedded;

    private RedisBinary() {}

    /** Resolves using the real environment, system properties and PATH. */
    static Path resolve() {
        return resolve(System.getenv(ENV), System.getProperty(PROPERTY), System.getenv("PATH"));
    }

    /**
     * Resolution order: {@code env} (a path, or {@code embedded}), then {@code property} (same), then
     * {@code redis-server} on {@code pathVariable}, then the binary inside the embedded-redis artifact.
     */
    static Path resolve(String env, String property, String pathVariable) {
        if (env != null && !env.isBlank()) {
            return explicit(env.trim(), "environment variable " + ENV);
        }
        if (property != null && !property.isBlank()) {
            return explicit(property.trim(), "system property " + PROPERTY);
        }
        Path onPath = findOnPath(pathVariable);
        return onPath != null ? onPath : embedded();
    }

    private static Path explicit(String value, String source) {
        if (EMBEDDED.equalsIgnoreCase(value)) {
            return embedded();
        }
        Path path = Path.of(value);
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new IllegalStateException(source + " points to '" + value + "', which is not an executable file");
        }
        return path;
    }

    static Path findOnPath(String pathVariable) {
        if (pathVariable == null) {
            return null;
        }
        for (String dir : pathVariable.split(Pattern.quote(File.pathSeparator))) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Name of the binary inside the embedded-redis jar for this OS/architecture, or null when none fits. */
    static String embeddedResourceName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i686");
        if (os.contains("linux")) {
            if (x64) {
                return "redis-server-6.2.6-v5-linux-amd64";
            }
            if (arm64) {
                return "redis-server-6.2.7-linux-arm64";
            }
            if (x86) {
                return "redis-server-6.2.7-linux-386";
            }
        } else if (os.contains("mac") || os.contains("darwin")) {
            if (x64) {
                return "redis-server-6.2.6-v5-darwin-amd64";
            }
            if (arm64) {
                return "redis-server-6.2.6-v5-darwin-arm64";
            }
        }
        return null;
    }

    /** Extracts (once per JVM) the redis-server shipped in com.github.codemonstur:embedded-redis. */
    static synchronized Path embedded() {
        if (embedded != null && Files.isExecutable(embedded)) {
            return embedded;
        }
        String osName = System.getProperty("os.name");
        String osArch = System.getProperty("os.arch");
        String resource = embeddedResourceName(osName, osArch);
        if (resource == null) {
            throw new IllegalStateException("No redis-server found: set " + ENV + " or -D" + PROPERTY
                    + " to a redis-server binary, or put redis-server on PATH (embedded-redis has no binary for "
                    + osName + "/" + osArch + ")");
        }
        try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("No redis-server found: set " + ENV + " or -D" + PROPERTY
                        + ", put redis-server on PATH, or add com.github.codemonstur:embedded-redis (resource "
                        + resource + " is not on the classpath)");
            }
            Path dir = Files.createTempDirectory("dlock-redis-bin-");
            ProcessReaper.trackDirectory(dir);
            Path target = dir.resolve(resource);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            if (!target.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("could not make " + target + " executable");
            }
            embedded = target;
            return target;
        } catch (IOException e) {
            throw new IllegalStateException("could not extract embedded redis-server " + resource, e);
        }
    }

    /** Returns the version reported by {@code binary --version}, e.g. {@code 7.0.15}. */
    static String version(Path binary) {
        return VERSIONS.computeIfAbsent(binary, RedisBinary::readVersion);
    }

    private static String readVersion(Path binary) {
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true);
        String output;
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            byte[] bytes = process.getInputStream().readAllBytes();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(binary + " --version did not finish");
            }
            output = new String(bytes, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + binary + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + binary + " --version", e);
        }
        Matcher matcher = VERSION.matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException("could not parse the version of " + binary + " from: " + output);
        }
        return matcher.group(1);
    }

    /** Major version number of {@code version}, or 0 when it cannot be parsed. */
    static int major(String version) {
        int end = 0;
        while (end < version.length() && Character.isDigit(version.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(version.substring(0, end));
    }
}
