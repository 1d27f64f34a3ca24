package dev.dlock.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Enumeration;
import java.util.Properties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.util.ClassUtils;

/**
 * Checks, when dlock-lettuce is on the class path, that the Lettuce and Netty beside it are the ones it
 * runs on: Lettuce 7 and Netty 4.2. Spring Boot 3.5's dependency management picks Lettuce 6 and Netty
 * 4.1 for an application on its parent or BOM, which dlock-lettuce is neither built nor tested with;
 * the start then fails naming the version found and the property that sets it. Stateless.
 */
final class LettuceVersions {
    private static final Log log = LogFactory.getLog(LettuceVersions.class);
    private static final String DLOCK_LETTUCE = "dev.dlock.lettuce.LettuceTransportFactory";

    /** The versions dlock-lettuce is built and tested with, from this module's build. */
    static final String TESTED_LETTUCE;

    static final String TESTED_NETTY;

    static {
        Properties tested = new Properties();
        try (InputStream in = LettuceVersions.class.getResourceAsStream("dlock-lettuce-versions.properties")) {
            tested.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TESTED_LETTUCE = tested.getProperty("lettuce");
        TESTED_NETTY = tested.getProperty("netty");
    }

    private LettuceVersions() {}

    /**
     * Checks the class path of {@code loader}, if it has dlock-lettuce.
     *
     * @throws DlockStartupException if its Lettuce is older than 7, or its Netty older than 4.2
     */
    static void check(ClassLoader loader) {
        if (!ClassUtils.isPresent(DLOCK_LETTUCE, loader)) {
            return;
        }
        String lettuce = lettuceVersion(loader);
        String netty = nettyVersion(loader);
        if (lettuce == null || netty == null) {
            log.warn("dlock-lettuce is on the class path, but the version of lettuce-core (" + lettuce + ") or of"
                    + " netty-common (" + netty + ") cannot be read; dlock-lettuce needs Lettuce 7 and Netty 4.2");
        }
        check(lettuce, netty);
    }

    /**
     * Checks versions as the jars give them ({@code 6.6.0.RELEASE}, {@code 7.7.0.RELEASE/1960d49},
     * {@code 4.1.118.Final}); null or a version that does not start with numbers (unknown) passes.
     *
     * @throws DlockStartupException naming the version found and the property to set
     */
    static void check(String lettuce, String netty) {
        int lettuceMajor = lettuce == null ? -1 : part(lettuce, 0);
        if (lettuceMajor >= 0 && lettuceMajor < 7) {
            throw new DlockStartupException(
                    "dlock-lettuce runs on Lettuce 7 (it is built and tested with " + TESTED_LETTUCE + "), but the"
                            + " class path has lettuce-core " + lettuce + ". Spring Boot 3.5's dependency management"
                            + " chooses Lettuce 6 unless told otherwise.",
                    "Set <lettuce.version>" + TESTED_LETTUCE + "</lettuce.version> and <netty.version>" + TESTED_NETTY
                            + "</netty.version> in the <properties> of a pom on spring-boot-starter-parent (Gradle:"
                            + " ext['lettuce.version'] and ext['netty.version']); with Boot's BOM imported, import"
                            + " io.netty:netty-bom and declare io.lettuce:lettuce-core at those versions before it."
                            + " Or drop dlock-lettuce for the default transport, dlock-resp (docs/spring-boot.md).",
                    null);
        }
        int nettyMajor = netty == null ? -1 : part(netty, 0);
        int nettyMinor = netty == null ? -1 : part(netty, 1);
        if (nettyMajor >= 0 && (nettyMajor < 4 || nettyMajor == 4 && nettyMinor >= 0 && nettyMinor < 2)) {
            throw new DlockStartupException(
                    "dlock-lettuce runs on Lettuce 7, which needs Netty 4.2 (tested with " + TESTED_NETTY + "), but"
                            + " the class path has netty-common " + netty + ". Spring Boot 3.5's dependency management"
                            + " chooses Netty 4.1 unless told otherwise.",
                    "Set <netty.version>" + TESTED_NETTY + "</netty.version> in the <properties> of a pom on"
                            + " spring-boot-starter-parent (Gradle: ext['netty.version']), or import"
                            + " io.netty:netty-bom:" + TESTED_NETTY + " before Spring Boot's BOM; check what else of"
                            + " the application runs on Netty against it (docs/spring-boot.md).",
                    null);
        }
    }

    /** The version in lettuce-core's manifest, else in its Maven descriptor; null if neither says. */
    static String lettuceVersion(ClassLoader loader) {
        try {
            Package p =
                    ClassUtils.forName("io.lettuce.core.RedisClient", loader).getPackage();
            if (p != null && p.getImplementationVersion() != null) {
                return p.getImplementationVersion();
            }
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        return property(loader, "META-INF/maven/io.lettuce/lettuce-core/pom.properties", "version");
    }

    /** The version of netty-common that Netty's own version files give; null if none does. */
    static String nettyVersion(ClassLoader loader) {
        return property(loader, "META-INF/io.netty.versions.properties", "netty-common.version");
    }

    private static String property(ClassLoader loader, String resource, String key) {
        try {
            Enumeration<URL> urls = loader.getResources(resource);
            while (urls.hasMoreElements()) {
                Properties properties = new Properties();
                try (InputStream in = urls.nextElement().openStream()) {
                    properties.load(in);
                }
                String value = properties.getProperty(key);
                if (value != null) {
                    return value;
                }
            }
        } catch (IOException e) {
            log.debug("cannot read " + resource, e);
        }
        return null;
    }

    /** The {@code index}th dot-separated number of a version, -1 when absent or not a number. */
    private static int part(String version, int index) {
        String[] parts = version.trim().split("[.\\-/]");
        if (parts.length <= index) {
            return -1;
        }
        try {
            return Integer.parseInt(parts[index]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
