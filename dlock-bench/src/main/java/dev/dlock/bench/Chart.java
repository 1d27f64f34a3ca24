package dev.dlock.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/** Renders one small bar chart per workload (the median of the runs) into one PNG, headless. */
final class Chart {
    private static final int PANEL_WIDTH = 720;
    private static final int PANEL_HEIGHT = 330;
    private static final Color DLOCK = new Color(0x1f77b4);
    private static final Color OTHER = new Color(0xa0a0a0);

    private Chart() {}

    static void write(Path file, Runs runs) throws IOException {
        Workload[] workloads = Workload.values();
        int columns = 2;
        int rows = (workloads.length + columns - 1) / columns;
        BufferedImage image = new BufferedImage(PANEL_WIDTH * columns, PANEL_HEIGHT * rows, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        for (int i = 0; i < workloads.length; i++) {
            Workload w = workloads[i];
            Metric metric = w == Workload.W6 ? Metric.RENEWAL_CALLS_PER_100 : Metric.PAIRS_PER_SECOND;
            JFreeChart chart = panel(runs, w, metric);
            chart.draw(
                    g,
                    new Rectangle2D.Double(
                            (i % columns) * PANEL_WIDTH, (i / columns) * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT));
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static JFreeChart panel(Runs runs, Workload w, Metric metric) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Peer p : w.peers()) {
            if (runs.has(w, p)) {
                double v = runs.spread(w, p, metric).median();
                data.addValue(Double.isNaN(v) ? 0 : v, metric.column, p.shortLabel);
            }
        }
        String title = w.title + (w == Workload.W6 ? " (lower is better)" : "");
        JFreeChart chart = ChartFactory.createBarChart(
                title, null, metric.column, data, PlotOrientation.HORIZONTAL, false, false, false);
        chart.getTitle().setFont(chart.getTitle().getFont().deriveFont(13f));
        chart.addSubtitle(new org.jfree.chart.title.TextTitle(
                "median of " + runs.runs() + (runs.runs() == 1 ? " run" : " runs") + "; the tables give min–max",
                new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 10)));
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        BarRenderer renderer = new BarRenderer() {
            @Override
            public java.awt.Paint getItemPaint(int row, int column) {
                return data.getColumnKey(column).equals(Peer.DLOCK.shortLabel) ? DLOCK : OTHER;
            }
        };
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDefaultItemLabelGenerator(new org.jfree.chart.labels.StandardCategoryItemLabelGenerator(
                "{2}", new java.text.DecimalFormat(w == Workload.W6 ? "0.00" : "#,##0")));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultPositiveItemLabelPosition(new org.jfree.chart.labels.ItemLabelPosition(
                org.jfree.chart.labels.ItemLabelAnchor.OUTSIDE3, org.jfree.chart.ui.TextAnchor.CENTER_LEFT));
        plot.getRangeAxis().setUpperMargin(0.15);
        plot.setRenderer(renderer);
        return chart;
    }
}
