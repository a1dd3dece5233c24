package io.memloop.history.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.ChartEncoder;
import org.knowm.xchart.internal.chartpart.IChart;

/** What the decision report and the benchmark report both write: text in HTML, and charts as PNG and SVG. */
public final class ReportOutput {
  private ReportOutput() {}

  /** Text in HTML element content or a quoted attribute: the five characters that could open markup or end an attribute, escaped. */
  public static String html(String s) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** Saves {@code chart} as {@code stem.png} and {@code stem.svg} in {@code dir} (headless). */
  public static void saveChart(Path dir, String stem, IChart chart) throws IOException {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    // ChartEncoder: XChart 4's one export entry point; "svg" needs VectorGraphics2D on the class path.
    for (String format : List.of("png", "svg")) {
      Path file = dir.resolve(stem + "." + format);
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
        ChartEncoder.saveChart(chart, out, format);
      } catch (IOException e) {
        throw new IOException("chart " + file + ": " + e.getMessage(), e);
      }
    }
  }
}
