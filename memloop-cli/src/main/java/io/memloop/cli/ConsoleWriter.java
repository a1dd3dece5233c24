package io.memloop.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The CLI's writer for a console stream. Where the console's charset cannot encode what the reports
 * print (a shell with no locale, as in many containers, is US-ASCII), "0.74 ± 0.05" would reach the
 * user as "0.74 ? 0.05": characters it cannot encode are spelled in ASCII instead ({@code ± → +/-},
 * {@code — → -}, {@code ≥ → >=} ...), any other as {@code ?} as before. Where it can, text passes
 * unchanged.
 */
final class ConsoleWriter extends FilterWriter {
  static final Map<Character, String> ASCII = Map.ofEntries(
      Map.entry('±', "+/-"), Map.entry('—', "-"), Map.entry('–', "-"), Map.entry('−', "-"), Map.entry('×', "x"),
      Map.entry('…', "..."), Map.entry('≥', ">="), Map.entry('≤', "<="), Map.entry('≈', "~"), Map.entry('→', "->"),
      Map.entry('½', "1/2"), Map.entry('µ', "u"), Map.entry('λ', "lambda"), Map.entry('δ', "delta"),
      Map.entry('ε', "epsilon"), Map.entry('γ', "gamma"), Map.entry('α', "alpha"), Map.entry('·', "*"),
      Map.entry('‘', "'"), Map.entry('’', "'"), Map.entry('“', "\""), Map.entry('”', "\""), Map.entry('²', "^2"),
      Map.entry('√', "sqrt"), Map.entry('Σ', "sum"), Map.entry('█', "#"), Map.entry('░', "."));

  private final CharsetEncoder encoder;

  private ConsoleWriter(Writer out, Charset charset) {
    super(out);
    this.encoder = charset.newEncoder();
  }

  /**
   * An auto-flushing writer for {@code stream}, spelling in ASCII what its charset cannot encode; a Unicode
   * charset, which encodes everything, gets the plain writer.
   */
  static PrintWriter of(PrintStream stream) {
    Charset charset = stream.charset();
    Writer w = new OutputStreamWriter(stream, charset);
    return new PrintWriter(charset.contains(StandardCharsets.UTF_8) ? w : new ConsoleWriter(w, charset), true);
  }

  /** {@code s} with every character {@code charset} cannot encode spelled in ASCII (or {@code ?}). */
  static String spelled(String s, CharsetEncoder encoder) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80 || Character.isSurrogate(c) || encoder.canEncode(c)) {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (out == null) {
        out = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      out.append(ASCII.getOrDefault(c, "?"));
    }
    return out == null ? s : out.toString();
  }

  @Override
  public void write(int c) throws IOException {
    out.write(spelled(String.valueOf((char) c), encoder));
  }

  @Override
  public void write(char[] cbuf, int off, int len) throws IOException {
    out.write(spelled(new String(cbuf, off, len), encoder));
  }

  @Override
  public void write(String str, int off, int len) throws IOException {
    out.write(spelled(str.substring(off, off + len), encoder));
  }
}
