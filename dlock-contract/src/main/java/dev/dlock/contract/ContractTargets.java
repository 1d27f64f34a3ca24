package dev.dlock.contract;

import dev.dlock.spi.RedisUri.Topology;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The run of one contract class of a {@link ContractSuite}: none, or one on the topology of its enclosing class
 * ({@code ContractSuite.Sentinel} → {@link Topology#SENTINEL}) when the suite runs the class there: always on {@link
 * Topology#STANDALONE}, elsewhere when the suite's {@link ContractSuite#beyondStandalone()} names it. The suite is the
 * test class that encloses the running contract class (such as {@code RespContractsIT}).
 *
 * <p>Two system properties narrow a run by hand, as {@code -Dtest} cannot pick a nested class: {@value #CONTRACTS}
 * (the contract classes' nested names, such as {@code Relay,Lock}) and {@value #TOPOLOGIES} (such as {@code
 * SENTINEL}). A class they leave out has no run.
 */
final class ContractTargets implements ArgumentsProvider {
    /** The system property that names the contract classes to run, comma-separated; all when absent. */
    static final String CONTRACTS = "dlock.contracts";

    /** The system property that names the topologies to run on, comma-separated; all when absent. */
    static final String TOPOLOGIES = "dlock.topologies";

    @Override
    public Stream<? extends Arguments> provideArguments(ParameterDeclarations parameters, ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        Topology topology =
                Topology.valueOf(testClass.getEnclosingClass().getSimpleName().toUpperCase(Locale.ROOT));
        Class<?> suiteClass = suiteOf(context)
                .orElseThrow(() -> new IllegalStateException(
                        testClass.getName() + " runs only as a @Nested class of a ContractSuite's test class"));
        ContractSuite suite = (ContractSuite) ReflectionSupport.newInstance(suiteClass);
        Map<Topology, Set<Class<? extends TransportContract>>> beyond = suite.beyondStandalone();
        refuseWhatCannotRun(suiteClass, beyond);
        refuseUnknownNames();
        boolean named = topology == Topology.STANDALONE
                || beyond.getOrDefault(topology, Set.of()).contains(testClass.getSuperclass());
        if (!named || !selected(CONTRACTS, testClass.getSimpleName()) || !selected(TOPOLOGIES, topology.name())) {
            return Stream.empty();
        }
        return Stream.of(Arguments.of(new ContractTarget(suite::transport, topology)));
    }

    private static Optional<Class<?>> suiteOf(ExtensionContext context) {
        for (Optional<ExtensionContext> c = context.getParent();
                c.isPresent();
                c = c.get().getParent()) {
            Optional<Class<?>> type = c.get().getTestClass();
            if (type.isPresent() && ContractSuite.class.isAssignableFrom(type.get())) {
                return type;
            }
        }
        return Optional.empty();
    }

    /**
     * A class the suite cannot run on a topology would run nowhere (a typo) or, were it run, on one server under the
     * topology's name (a contract whose Redis is not a {@link ContractRedis} ignores the topology).
     */
    static void refuseWhatCannotRun(
            Class<?> suiteClass, Map<Topology, Set<Class<? extends TransportContract>>> beyond) {
        if (beyond.containsKey(Topology.STANDALONE)) {
            throw new IllegalStateException(suiteClass.getName()
                    + ".beyondStandalone() names STANDALONE: every contract class runs there already");
        }
        beyond.forEach((topology, contracts) -> {
            Set<Class<?>> runnable = runnableOn(topology);
            contracts.stream()
                    .filter(contract -> !runnable.contains(contract))
                    .findFirst()
                    .ifPresent(contract -> {
                        throw new IllegalStateException(suiteClass.getName() + ".beyondStandalone() names "
                                + contract.getName() + " on " + topology + ", where ContractSuite cannot run it"
                                + " (it runs there: " + names(runnable) + ")");
                    });
        });
    }

    static Set<Class<?>> runnableOn(Topology topology) {
        return Arrays.stream(ContractSuite.class.getDeclaredClasses())
                .filter(container ->
                        container.getSimpleName().toUpperCase(Locale.ROOT).equals(topology.name()))
                .flatMap(container -> Arrays.stream(container.getDeclaredClasses()))
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .map(Class::getSuperclass)
                .collect(Collectors.toSet());
    }

    private static String names(Set<Class<?>> classes) {
        return classes.stream().map(Class::getSimpleName).sorted().collect(Collectors.joining(", "));
    }

    /** A name in {@value #CONTRACTS} or {@value #TOPOLOGIES} that matches nothing would quietly run nothing. */
    static void refuseUnknownNames() {
        Set<String> contracts = runnableOn(Topology.STANDALONE).stream()
                .map(contract -> contract.getSimpleName().replaceFirst("Contract$", ""))
                .collect(Collectors.toSet());
        Set<String> topologies =
                Arrays.stream(Topology.values()).map(Topology::name).collect(Collectors.toSet());
        refuseUnknown(CONTRACTS, contracts);
        refuseUnknown(TOPOLOGIES, topologies);
    }

    private static void refuseUnknown(String property, Set<String> known) {
        for (String name : wanted(property)) {
            if (known.stream().noneMatch(name::equalsIgnoreCase)) {
                throw new IllegalArgumentException("-D" + property + " names " + name + ", which is none of "
                        + known.stream().sorted().collect(Collectors.joining(", ")));
            }
        }
    }

    private static Set<String> wanted(String property) {
        return Arrays.stream(System.getProperty(property, "").split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toSet());
    }

    private static boolean selected(String property, String name) {
        Set<String> wanted = wanted(property);
        return wanted.isEmpty() || wanted.stream().anyMatch(name::equalsIgnoreCase);
    }
}
