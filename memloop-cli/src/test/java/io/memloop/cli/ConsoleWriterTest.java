package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a console without a UTF-8 locale shows of the reports' characters. */
class ConsoleWriterTest {
  private static final String LINE = "| default | 0.74 ± 0.05 | −0.03 [−0.10, +0.05] | — | p ≥ 0.9 | naïve | 漢 |";

  private static String printed(Charset charset) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintWriter w = ConsoleWriter.of(new PrintStream(bytes, true, charset));
    w.println(LINE);
    w.print('±');
    w.write("x ≤ y".toCharArray(), 0, 5);
    w.flush();
    return bytes.toString(charset);
  }

  @Test
  void ascii_spellsWhatItCannotEncode_andKeepsTheRest() {
    assertThat(printed(StandardCharsets.US_ASCII)).isEqualTo(
        "| default | 0.74 +/- 0.05 | -0.03 [-0.10, +0.05] | - | p >= 0.9 | na?ve | ? |" + System.lineSeparator()
            + "+/-x <= y");
  }

  @Test
  void latin1_keepsWhatItCanEncode() {
    assertThat(printed(StandardCharsets.ISO_8859_1)).startsWith("| default | 0.74 ± 0.05 | -0.03 [-0.10, +0.05] | - | p >= 0.9 | naïve | ? |");
  }

  @Test
  void utf8_passesEverythingUnchanged() {
    assertThat(printed(StandardCharsets.UTF_8)).isEqualTo(LINE + System.lineSeparator() + "±x ≤ y");
  }
}
