package dev.dlock.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The median of repeated runs with the smallest and largest value, so that a table shows how much runs differed.
 * NaN values (a metric a run could not measure) are left out; with none left, every field is NaN.
 */
record Spread(double median, double min, double max, int runs) {

    static Spread of(List<Double> values) {
        double[] v = values.stream()
                .mapToDouble(Double::doubleValue)
                .filter(d -> !Double.isNaN(d))
                .sorted()
                .toArray();
        if (v.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Spread(median, v[0], v[n - 1], n);
    }

    static Spread of(double... values) {
        return of(Arrays.stream(values).boxed().toList());
    }

    boolean isKnown() {
        return runs > 0;
    }
}
