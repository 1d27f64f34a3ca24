package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published Javadoc (packages {@code dev.dlock} and {@code dev.dlock.spi}) names the docs as links
 * to the rendered Markdown under the project's URL ({@code <url>} of the parent POM, branch {@code
 * main}), not as plain text, and every linked doc exists (issue 27; docs/decisions.md).
 */
final class JavadocDocLinksTest {
    private static final Pattern LINK = Pattern.compile("<a href=\"([^\"]*)\">(docs/[a-z-]+\\.md)</a>");
    private static final Pattern DOC_NAME = Pattern.compile("docs/[a-z-]+\\.md");

    @Test
    void publicJavadoc_linksEveryDoc_toAnExistingFile() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        String pom = Files.readString(root.resolve("pom.xml"));
        Matcher url = Pattern.compile("<url>([^<]+)</url>").matcher(pom);
        assertThat(url.find()).as("the parent POM's <url>").isTrue();
        String base = url.group(1) + "/blob/main/";
        List<String> problems = new ArrayList<>();
        int links = 0;
        Path sources = root.resolve("dlock-core/src/main/java/dev/dlock");
        List<Path> files;
        try (Stream<Path> api = Files.list(sources);
                Stream<Path> spi = Files.list(sources.resolve("spi"))) {
            files = Stream.concat(api, spi)
                    .filter(p -> p.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        }
        for (Path file : files) {
            String text = Files.readString(file);
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                links++;
                if (!link.group(1).equals(base + link.group(2))) {
                    problems.add(file.getFileName() + ": " + link.group(1) + " is not " + base + link.group(2));
                }
                if (!Files.isRegularFile(root.resolve(link.group(2)))) {
                    problems.add(file.getFileName() + ": links " + link.group(2) + ", which does not exist");
                }
            }
            Matcher plain = DOC_NAME.matcher(link.reset().replaceAll(" ").replace(base, " "));
            while (plain.find()) {
                problems.add(file.getFileName() + ": " + plain.group() + " as plain text; make it a link");
            }
        }
        assertThat(links).as("doc links in the API's Javadoc").isGreaterThanOrEqualTo(7);
        assertThat(problems).isEmpty();
    }
}
