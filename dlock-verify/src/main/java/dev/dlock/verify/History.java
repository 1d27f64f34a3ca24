package dev.dlock.verify;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSONL history file: every operation writes an {@code invoke} line before the call and a {@code complete} line
 * after it, each flushed at once, so a client killed mid-call leaves its invocation behind (read back as outcome
 * {@code unknown}, never completed). Writing is thread-safe.
 */
final class History implements AutoCloseable {

    private final JsonGenerator out;

    History(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            this.out = Json.lines(Files.newBufferedWriter(
                    file,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open history " + file, e);
        }
    }

    void invoked(Op op) {
        write(op, "invoke");
    }

    void completed(Op op) {
        write(op, "complete");
    }

    private synchronized void write(Op op, String phase) {
        try {
            Json.line(out, op, phase);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write history", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close history", e);
        }
    }

    /**
     * Reads history files back into operations, in invocation order per file. An invocation without its completion
     * becomes outcome {@code unknown} with {@code complete = Long.MAX_VALUE}; a torn last line (the writer was killed)
     * is skipped.
     */
    static List<Op> read(List<Path> files) {
        Map<String, Op> ops = new LinkedHashMap<>();
        for (Path file : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read history " + file, e);
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.isBlank()) {
                    continue;
                }
                Map<String, String> f;
                try {
                    f = Json.parse(line);
                } catch (RuntimeException e) {
                    if (i == lines.size() - 1) {
                        continue; // torn by SIGKILL
                    }
                    throw new IllegalStateException("bad history line " + (i + 1) + " of " + file + ": " + line, e);
                }
                Op op = fromFields(f);
                ops.put(op.scenario() + "/" + op.client() + "/" + op.pid() + "/" + op.seq(), op);
            }
        }
        return new ArrayList<>(ops.values());
    }

    private static Op fromFields(Map<String, String> f) {
        boolean complete = "complete".equals(f.get("phase"));
        return new Op(
                f.get("scenario"),
                f.get("client"),
                num(f, "pid"),
                num(f, "seq"),
                f.get("type"),
                num(f, "invoke"),
                complete ? num(f, "complete") : Long.MAX_VALUE,
                complete ? f.get("outcome") : Op.UNKNOWN,
                num(f, "token"),
                num(f, "deadline"),
                f.getOrDefault("element", ""),
                num(f, "timeoutNanos"),
                f.getOrDefault("detail", ""),
                f.getOrDefault("lock", ""),
                num(f, "leaseNanos"),
                f.getOrDefault("kind", ""));
    }

    private static long num(Map<String, String> f, String name) {
        String value = f.get(name);
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }
}
