package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The metadata the annotation processors write into this module's classes (and so its jar): the IDE's
 * property metadata, merged with {@code additional-spring-configuration-metadata.json}, and Boot's
 * auto-configuration metadata. javac 23 and later run no processor found on the class path, so this
 * fails on a newer JDK unless the build declares them.
 */
final class ConfigurationMetadataTest {

    private static String built(String resource) throws IOException, URISyntaxException {
        Path classes = Path.of(DlockProperties.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path file = classes.resolve(resource);
        assertThat(file)
                .as("built by the annotation processors into " + classes)
                .exists();
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    @Test
    void configurationMetadata_describesEveryDlockProperty_andTheHealthSwitch() throws Exception {
        String json = built("META-INF/spring-configuration-metadata.json");
        for (String property : new String[] {
            "dlock.enabled",
            "dlock.redis-url",
            "dlock.lease-time",
            "dlock.key-prefix",
            "dlock.command-timeout",
            "dlock.client-name",
            "management.health.dlock.enabled"
        }) {
            assertThat(json).contains("\"name\": \"" + property + "\"");
        }
        assertThat(json).contains("Lease time of watchdog-renewed leases");
    }

    @Test
    void autoConfigurationMetadata_namesTheAutoConfigurations() throws Exception {
        assertThat(built("META-INF/spring-autoconfigure-metadata.properties"))
                .contains("dev.dlock.spring.DlockAutoConfiguration")
                .contains("dev.dlock.spring.DlockActuatorAutoConfiguration");
    }
}
