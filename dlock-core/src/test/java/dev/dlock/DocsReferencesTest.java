package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs name only files that exist. Reads every Markdown file under {@code docs/} and every
 * {@code README.md} of the repository, and takes as a reference to a file: a relative link, and a
 * word (in a code span, a code block or prose) that ends in a file extension of the tree
 * ({@code shared-info.lua}, {@code LeaseKind.java}, {@code docs/waiting.md}) or is a path under a
 * top-level directory ({@code bin/dlock}, {@code dlock-core/src/...}) or under a module's
 * {@code src/}. A bare file name must exist somewhere in the tree, a path at that path (from the
 * doc's directory or the repository root); {@code *} and {@code <placeholder>} match any part of a
 * name. The tree is the repository on disk without {@code .git} and any {@code target/}.
 *
 * <p>No doc pins a line number of a source file ({@code Foo.java:123}, "around line 120 of
 * {@code Foo.java}"): it goes stale with the next edit of the file; name the class or method.
 */
final class DocsReferencesTest {
    /** Extensions of files the docs name; {@code .jar} and other build outputs are not in the tree. */
    private static final String EXTENSIONS = "lua|java|md|xml|sh|png|json|properties|yml|yaml";

    private static final Pattern FILE_NAME = Pattern.compile("[\\w.*/-]*[\\w*]\\.(?:" + EXTENSIONS + ")");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)[^)]*\\)");
    private static final Pattern URL = Pattern.compile("\\b[a-z][a-z0-9+.-]*://\\S*");
    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>\\s]*>");
    private static final Pattern WORD_SEPARATOR = Pattern.compile("[\\s,;()\\[\\]\"'|=]+");
    /** {@code Foo.java:123}, {@code Foo.java#L123}: a line number written onto a source file. */
    private static final Pattern LINE_SUFFIX =
            Pattern.compile("[\\w./-]*\\.(?:java|lua|xml|sh|kt)(?::|#L)\\d+", Pattern.CASE_INSENSITIVE);
    /** "line 12", "lines 40–52", "around line 7": a line number, tied to a file by its paragraph. */
    private static final Pattern LINE_PHRASE =
            Pattern.compile("\\blines?\\s+\\d+(?:\\s*[–-]\\s*\\d+)?", Pattern.CASE_INSENSITIVE);

    private static final Pattern SOURCE_FILE = Pattern.compile("[\\w-]\\.(?:java|lua|xml|sh|kt)\\b");

    /**
     * Words that look like files and are not the tree's, each with why. Keep it short: a stale
     * name belongs fixed in the doc, not here. (Paths with a {@code target/} segment are skipped
     * as a rule: they exist only after a build.)
     */
    private static final Map<String, String> NOT_IN_THE_TREE = Map.of(
            "/opt/jobs/nightly.sh", "README.md: the user's job in the cron example",
            "./job.sh", "docs/redlock.md: the user's job in the dlock run example",
            "bin/java", "docs/cli.md: the launcher under a JAVA_HOME",
            "module-info.java", "docs/decisions.md: says there is none yet");

    @Test
    void docs_nameOnlyFilesThatExist() {
        Tree tree = Tree.of(repositoryRoot());
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path doc : tree.docs()) {
            for (Reference reference : references(read(doc), tree.topLevel())) {
                if (NOT_IN_THE_TREE.containsKey(reference.text()) || isBuildOutput(reference.text())) {
                    continue;
                }
                checked++;
                if (!tree.resolves(reference, doc.getParent())) {
                    missing.add(tree.root().relativize(doc) + ":" + reference.line() + ": " + reference.text());
                }
            }
        }
        assertThat(checked).as("file references read in the docs").isGreaterThan(100);
        assertThat(missing)
                .withFailMessage(
                        "%d reference(s) in the docs to a file not in the tree (doc:line: reference):%n%s",
                        missing.size(), String.join(System.lineSeparator(), missing))
                .isEmpty();
    }

    @Test
    void docs_pinNoLineNumbersOfSource() {
        Tree tree = Tree.of(repositoryRoot());
        List<String> pinned = new ArrayList<>();
        for (Path doc : tree.docs()) {
            for (Reference reference : lineReferences(read(doc))) {
                pinned.add(tree.root().relativize(doc) + ":" + reference.line() + ": " + reference.text());
            }
        }
        assertThat(pinned)
                .withFailMessage(
                        "line numbers of source files in the docs go stale with the next edit; name the class or"
                                + " method instead (doc:line: reference):%n%s",
                        String.join(System.lineSeparator(), pinned))
                .isEmpty();
    }

    @Test
    void references_comeFromLinksCodeSpansCodeBlocksAndProse() {
        List<String> doc = List.of(
                "See [waiting](waiting.md#fifo) and the [site](https://example.org/x.md), `rw-*.lua` and",
                "`semaphore-acquire.lua`, `-release.lua`; prose names docs/redlock.md, `bin/dlock --help`,",
                "a status/list/release command and `dlock-core/src/main`.",
                "```",
                "./dlock-cli/bin/dlock run -- ./job.sh",
                "```");
        assertThat(references(doc, Set.of("bin", "dlock-core", "dlock-cli")))
                .extracting(Reference::line, Reference::text)
                .containsExactlyInAnyOrder(
                        tuple(1, "waiting.md"),
                        tuple(1, "rw-*.lua"),
                        tuple(2, "semaphore-acquire.lua"),
                        tuple(2, "*-release.lua"),
                        tuple(2, "docs/redlock.md"),
                        tuple(2, "bin/dlock"),
                        tuple(3, "dlock-core/src/main"),
                        tuple(5, "./dlock-cli/bin/dlock"),
                        tuple(5, "./job.sh"));
    }

    @Test
    void lineReferences_areLineSuffixesAndLinePhrasesBesideASourceFile() {
        List<String> doc = List.of(
                "`Gate.java:120` hands off;",
                "",
                "around line 40 of",
                "`Scripts.java`, and lines 3–9",
                "",
                "the first line 2 of the output table");
        assertThat(lineReferences(doc))
                .extracting(Reference::line, Reference::text)
                .containsExactly(tuple(1, "Gate.java:120"), tuple(3, "line 40"), tuple(4, "lines 3–9"));
    }

    /** A reference in a doc: its 1-based line and the name or path as the test checks it. */
    record Reference(int line, String text) {}

    static List<Reference> references(List<String> lines, Set<String> topLevel) {
        List<Reference> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = URL.matcher(lines.get(i)).replaceAll(" ");
            Matcher link = LINK.matcher(line);
            while (link.find()) {
                String target = link.group(1).replaceFirst("#.*", "");
                if (!target.isEmpty() && !target.startsWith("mailto:")) {
                    found.add(new Reference(i + 1, target));
                }
            }
            for (String word : WORD_SEPARATOR.split(link.replaceAll(" ").replace('`', ' '))) {
                String name = fileLike(word, topLevel);
                if (name != null) {
                    found.add(new Reference(i + 1, name));
                }
            }
        }
        return found;
    }

    /** The word as a name or path to check, or null when it does not look like a file of the tree. */
    private static String fileLike(String word, Set<String> topLevel) {
        String name = PLACEHOLDER.matcher(word).replaceAll("*").replaceAll("[.:!?]+$", "");
        if (name.startsWith("-") && FILE_NAME.matcher(name.substring(1)).matches()) {
            return "*" + name; // a suffix after a full name: `semaphore-acquire.lua`, `-release.lua`
        }
        if (FILE_NAME.matcher(name).matches()) {
            return name;
        }
        int slash = name.indexOf('/');
        if (slash > 0) {
            String first = name.startsWith("./") ? name.substring(2).split("/")[0] : name.substring(0, slash);
            if (topLevel.contains(first) || first.equals("src")) {
                return name;
            }
        }
        return null;
    }

    static List<Reference> lineReferences(List<String> lines) {
        List<Reference> found = new ArrayList<>();
        List<Reference> phrases = new ArrayList<>();
        boolean namesSource = false;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            if (line.isBlank()) {
                if (namesSource) {
                    found.addAll(phrases);
                }
                phrases.clear();
                namesSource = false;
                continue;
            }
            Matcher suffix = LINE_SUFFIX.matcher(line);
            while (suffix.find()) {
                found.add(new Reference(i + 1, suffix.group()));
            }
            Matcher phrase = LINE_PHRASE.matcher(line);
            while (phrase.find()) {
                phrases.add(new Reference(i + 1, phrase.group()));
            }
            namesSource |= SOURCE_FILE.matcher(line).find();
        }
        return found;
    }

    private static boolean isBuildOutput(String path) {
        return path.startsWith("target/") || path.contains("/target/");
    }

    /** The directory of the parent pom: the first directory up from here whose pom.xml lists modules. */
    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && String.join("\n", read(pom)).contains("<module>")) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no pom.xml with <module> entries above " + Path.of("").toAbsolutePath());
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository on disk without .git and target/: its files' and directories' names and paths. */
    private record Tree(Path root, Set<String> names, Set<Path> paths) {
        static Tree of(Path root) {
            Set<String> names = new HashSet<>();
            Set<Path> paths = new HashSet<>();
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        String name = dir.equals(root) ? "" : dir.getFileName().toString();
                        if (name.equals(".git") || name.equals("target")) {
                            return FileVisitResult.SKIP_SUBTREE;
                        }
                        add(dir);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (!file.getFileName().toString().equals(".git")) {
                            add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    private void add(Path path) {
                        paths.add(root.relativize(path));
                        if (!path.equals(root)) {
                            names.add(path.getFileName().toString());
                        }
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Tree(root, names, paths);
        }

        Set<String> topLevel() {
            Set<String> top = new HashSet<>();
            for (Path path : paths) {
                if (path.getNameCount() == 1 && Files.isDirectory(root.resolve(path))) {
                    top.add(path.toString());
                }
            }
            return top;
        }

        /** Markdown files under docs/ and every README.md, in a stable order. */
        List<Path> docs() {
            return paths.stream()
                    .filter(p -> (p.startsWith("docs") && p.toString().endsWith(".md"))
                            || p.getFileName().toString().equals("README.md"))
                    .map(root::resolve)
                    .sorted()
                    .toList();
        }

        boolean resolves(Reference reference, Path docDir) {
            String text = reference.text();
            if (!text.contains("/")) {
                return text.contains("*") ? names.stream().anyMatch(glob(text)) : names.contains(text);
            }
            List<Path> candidates = Stream.of(docDir.resolve(text), root.resolve(text))
                    .map(p -> root.relativize(p.normalize()))
                    .toList();
            if (text.contains("*")) {
                return candidates.stream()
                        .anyMatch(c ->
                                paths.stream().anyMatch(FileSystems.getDefault().getPathMatcher("glob:" + c)::matches));
            }
            return candidates.stream().anyMatch(paths::contains);
        }

        private static Predicate<String> glob(String pattern) {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            return name -> matcher.matches(Path.of(name));
        }
    }
}
