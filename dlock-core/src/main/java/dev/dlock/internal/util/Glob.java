package dev.dlock.internal.util;

/**
 * Redis' glob patterns ({@code *}, {@code ?}, {@code [abc]}, {@code [^a]}, {@code [a-z]}, {@code \x}),
 * matched in Java: {@code dlock list} filters lock names here, since names that start with '}' are
 * stored in another key form than the pattern could be applied to in Redis (LockKeys).
 */
public final class Glob {
    private Glob() {}

    public static boolean matches(String pattern, String text) {
        return matches(pattern, 0, text, 0);
    }

    private static boolean matches(String p, int pi, String t, int ti) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '*') {
                while (pi < p.length() && p.charAt(pi) == '*') {
                    pi++;
                }
                if (pi == p.length()) {
                    return true;
                }
                for (int k = ti; k <= t.length(); k++) {
                    if (matches(p, pi, t, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (ti == t.length()) {
                return false;
            }
            if (c == '?') {
                pi++;
            } else if (c == '[') {
                int end = classEnd(p, pi);
                if (!inClass(p, pi + 1, end, t.charAt(ti))) {
                    return false;
                }
                pi = end + 1;
            } else {
                if (c == '\\' && pi + 1 < p.length()) {
                    c = p.charAt(++pi);
                }
                if (c != t.charAt(ti)) {
                    return false;
                }
                pi++;
            }
            ti++;
        }
        return ti == t.length();
    }

    /** The index of the ']' that closes the class opened at {@code open}, or the pattern's last index. */
    private static int classEnd(String p, int open) {
        int i = open + 1;
        while (i < p.length() && p.charAt(i) != ']') {
            i += p.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i, p.length() - 1);
    }

    private static boolean inClass(String p, int from, int end, char c) {
        boolean negate = from < end && p.charAt(from) == '^';
        int i = negate ? from + 1 : from;
        boolean found = false;
        while (i < end) {
            char lo = p.charAt(i);
            if (lo == '\\' && i + 1 < end) {
                lo = p.charAt(++i);
            }
            if (i + 2 < end && p.charAt(i + 1) == '-') {
                char hi = p.charAt(i + 2);
                if (Math.min(lo, hi) <= c && c <= Math.max(lo, hi)) {
                    found = true;
                }
                i += 3;
            } else {
                if (lo == c) {
                    found = true;
                }
                i++;
            }
        }
        return found != negate;
    }
}
