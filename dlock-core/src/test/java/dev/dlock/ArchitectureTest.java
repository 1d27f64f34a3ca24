package dev.dlock;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The package map of {@code dev.dlock.internal} (docs/architecture.md, "Packages") and the API
 * boundary, checked on dlock-core's compiled main classes: no cycle between the internal packages,
 * each package depends only on the packages the map allows it, and the public API ({@code dev.dlock},
 * {@code dev.dlock.spi}) names no internal type in a public signature and reaches the implementation
 * only through the one door the map names. {@link ModuleBoundaryTest} keeps the other modules out of
 * {@code internal}.
 */
final class ArchitectureTest {
    private static final String INTERNAL = "dev.dlock.internal";

    /**
     * Each internal package and the internal packages it may depend on (the map, lowest first). Redlock
     * stands on node-level parts (options, scripts), not on the client of one Redis.
     */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("util", Set.<String>of()),
            Map.entry("script", Set.of("util")),
            Map.entry("lease", Set.of("script", "util")),
            Map.entry("wait", Set.of("lease", "script", "util")),
            Map.entry("mutex", Set.of("wait", "lease", "script", "util")),
            Map.entry("permit", Set.of("wait", "lease", "script", "util")),
            Map.entry("multi", Set.of("lease", "util")),
            Map.entry("options", Set.of("util")),
            Map.entry("client", Set.of("options", "mutex", "permit", "multi", "wait", "lease", "script", "util")),
            Map.entry("redlock", Set.of("options", "multi", "lease", "script", "util")),
            Map.entry("connect", Set.of("client", "redlock", "options")));

    /** The API classes that may use the implementation (the builder connects a client), and what they may use. */
    private static final Map<String, Set<String>> API_DOORS = Map.of(
            "dev.dlock.LockClient$Builder", Set.of(INTERNAL + ".options.Settings", INTERNAL + ".connect.Connector"));

    /** dlock-core's main classes alone (not the test classes, not the testkit's on the class path). */
    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(mainClasses());

    @Test
    void internalPackages_haveNoCycle() {
        slices().matching(INTERNAL + ".(*)..")
                .should()
                .beFreeOfCycles()
                .as("the packages of " + INTERNAL + " form no cycle")
                .check(CORE);
    }

    @Test
    void internalPackages_dependOnlyAsTheMapAllows() {
        Set<String> seen = new TreeSet<>();
        List<String> violations = new ArrayList<>();
        for (JavaClass c : CORE) {
            String from = internalPackage(c);
            if (from == null) {
                continue;
            }
            seen.add(from);
            assertThat(ALLOWED)
                    .as("the map names the package of " + c.getName())
                    .containsKey(from);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = internalPackage(d.getTargetClass());
                if (to != null && !to.equals(from) && !ALLOWED.get(from).contains(to)) {
                    violations.add(from + " -> " + to + ": " + d.getDescription());
                }
            }
        }
        assertThat(CORE.contain(LockClient.class.getName()))
                .as("dlock-core's classes imported")
                .isTrue();
        assertThat(seen).as("internal packages found").isEqualTo(new TreeSet<>(ALLOWED.keySet()));
        assertThat(violations)
                .as("dependencies between internal packages that the map does not allow")
                .isEmpty();
    }

    @Test
    void api_reachesTheImplementationOnlyThroughItsDoors() {
        List<String> violations = new ArrayList<>();
        for (JavaClass c : CORE) {
            if (internalPackage(c) != null) {
                continue;
            }
            Set<String> door = API_DOORS.getOrDefault(c.getName(), Set.of());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                if (internalPackage(target) != null && !door.contains(target.getName())) {
                    violations.add(d.getDescription());
                }
            }
        }
        assertThat(violations)
                .as("dependencies of dev.dlock and dev.dlock.spi on " + INTERNAL + " outside the doors")
                .isEmpty();
    }

    @Test
    void api_namesNoInternalTypeInAPublicSignature() {
        List<String> violations = new ArrayList<>();
        for (JavaClass c : CORE) {
            if (internalPackage(c) != null || !visible(c.getModifiers())) {
                continue;
            }
            c.getRawSuperclass()
                    .filter(s -> internalPackage(s) != null)
                    .ifPresent(s -> violations.add(c.getName() + " extends " + s.getName()));
            c.getRawInterfaces().stream()
                    .filter(i -> internalPackage(i) != null)
                    .forEach(i -> violations.add(c.getName() + " implements " + i.getName()));
            for (JavaField f : c.getFields()) {
                if (visible(f.getModifiers()) && internalPackage(f.getRawType()) != null) {
                    violations.add(f.getFullName());
                }
            }
            for (JavaCodeUnit u : c.getCodeUnits()) {
                if (!visible(u.getModifiers())) {
                    continue;
                }
                Set<JavaClass> named = new java.util.HashSet<>(u.getReturnType().getAllInvolvedRawTypes());
                u.getParameterTypes().forEach(p -> named.addAll(p.getAllInvolvedRawTypes()));
                named.addAll(u.getThrowsClause().getTypes());
                String internal = named.stream()
                        .filter(t -> internalPackage(t) != null)
                        .map(JavaClass::getName)
                        .collect(Collectors.joining(", "));
                if (!internal.isEmpty()) {
                    violations.add(u.getFullName() + " names " + internal);
                }
            }
        }
        assertThat(violations)
                .as("public signatures of dev.dlock and dev.dlock.spi that name " + INTERNAL + " types")
                .isEmpty();
    }

    private static Path mainClasses() {
        try {
            return Path.of(LockClient.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The classes that may read the system clock or make threads: the client's runtime and the clock itself. */
    private static final Set<String> TIME_AND_THREADS =
            Set.of(INTERNAL + ".util.LockRuntime", INTERNAL + ".util.Ticker");

    /**
     * Every clock, timer and thread pool of a client comes from its {@code LockRuntime} (issue 25, point 4): no other
     * internal class reads {@code System.nanoTime()} or {@code currentTimeMillis()}, makes a {@code Thread}, an
     * executor of {@code java.util.concurrent} or calls {@code Executors}, and none draws random numbers but from
     * the runtime ({@code ThreadLocalRandom}, {@code Math.random}, a {@code Random} of its own), so a test that
     * injects a manual clock, a timer and a seeded generator has all of the client's time and chance in hand.
     */
    @Test
    void internalClasses_takeTimeAndThreadsOnlyFromTheRuntime() {
        List<String> violations = new ArrayList<>();
        for (JavaClass c : CORE) {
            String outer = c.getName().replaceFirst("\\$.*", "");
            if (internalPackage(c) == null || TIME_AND_THREADS.contains(outer)) {
                continue;
            }
            c.getMethodCallsFromSelf().forEach(call -> {
                String owner = call.getTargetOwner().getName();
                String name = call.getName();
                if ((owner.equals(System.class.getName())
                                && (name.equals("nanoTime") || name.equals("currentTimeMillis")))
                        || owner.equals(java.util.concurrent.Executors.class.getName())
                        || owner.equals(java.util.concurrent.ThreadLocalRandom.class.getName())
                        || (owner.equals(Math.class.getName()) && name.equals("random"))
                        || (owner.equals(CompletableFuture.class.getName()) && onJdkTimeOrPool(call))) {
                    violations.add(call.getDescription());
                }
            });
            c.getConstructorCallsFromSelf().forEach(call -> {
                String owner = call.getTargetOwner().getName();
                if (owner.equals(Thread.class.getName())
                        || owner.equals(java.util.Random.class.getName())
                        || owner.equals(java.util.SplittableRandom.class.getName())
                        || owner.equals(java.util.concurrent.ThreadPoolExecutor.class.getName())
                        || owner.equals(java.util.concurrent.ScheduledThreadPoolExecutor.class.getName())
                        || owner.equals(java.util.concurrent.ForkJoinPool.class.getName())) {
                    violations.add(call.getDescription());
                }
            });
        }
        assertThat(violations)
                .as("internal classes that read the system clock or make threads outside LockRuntime")
                .isEmpty();
    }

    /**
     * A {@code CompletableFuture} call that runs on the JDK's own timer or common pool: a timeout ({@code orTimeout},
     * {@code completeOnTimeout}, {@code delayedExecutor}) or an {@code ...Async} stage without an executor.
     */
    private static boolean onJdkTimeOrPool(com.tngtech.archunit.core.domain.JavaMethodCall call) {
        String name = call.getName();
        if (name.equals("orTimeout") || name.equals("completeOnTimeout") || name.equals("delayedExecutor")) {
            return true;
        }
        List<com.tngtech.archunit.core.domain.JavaClass> params =
                call.getTarget().getRawParameterTypes();
        return name.endsWith("Async")
                && params.stream().noneMatch(p -> p.isAssignableTo(java.util.concurrent.Executor.class));
    }

    /** The internal package's short name ({@code mutex} for {@code dev.dlock.internal.mutex}), or null. */
    private static String internalPackage(JavaClass c) {
        String p = c.getPackageName();
        if (p.equals(INTERNAL)) {
            return "";
        }
        if (!p.startsWith(INTERNAL + ".")) {
            return null;
        }
        String rest = p.substring(INTERNAL.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static boolean visible(Set<JavaModifier> modifiers) {
        return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
    }
}
