package dev.dlock.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** A sorted set as Redis orders one: by score, then by member (byte order of the UTF-8 text). Not thread-safe. */
final class ZSet {
    /** One element; ordered as {@code ZRANGE} lists them. */
    record Element(double score, String member) implements Comparable<Element> {
        @Override
        public int compareTo(Element o) {
            int c = Double.compare(score, o.score);
            return c != 0 ? c : Glob.compareBytes(member, o.member);
        }
    }

    // lookup only: iteration order never escapes (ZRANGE walks the TreeSet)
    private final Map<String, Double> scores = new HashMap<>();
    private final TreeSet<Element> order = new TreeSet<>();

    int size() {
        return scores.size();
    }

    Double score(String member) {
        return scores.get(member);
    }

    /** Adds or moves a member; returns true if it was new. */
    boolean put(String member, double score) {
        Double old = scores.put(member, score);
        if (old != null) {
            order.remove(new Element(old, member));
        }
        order.add(new Element(score, member));
        return old == null;
    }

    boolean remove(String member) {
        Double old = scores.remove(member);
        if (old == null) {
            return false;
        }
        order.remove(new Element(old, member));
        return true;
    }

    /** Elements from rank {@code start} to {@code stop} inclusive, both already clamped to the set. */
    List<Element> range(long start, long stop) {
        List<Element> out = new ArrayList<>();
        long i = 0;
        for (Element e : order) {
            if (i > stop) {
                break;
            }
            if (i >= start) {
                out.add(e);
            }
            i++;
        }
        return out;
    }

    ZSet copy() {
        ZSet z = new ZSet();
        for (Element e : order) {
            z.put(e.member(), e.score());
        }
        return z;
    }
}
