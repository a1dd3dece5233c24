package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The request parser's fast path (ASCII bodies, a top-level embedding read straight into floats) must answer
 * exactly as the general path (a Jackson tree of the strictly decoded body): the same floats, bit for bit, the same
 * other fields, and for bad input the same error naming the same field. Seeded random bodies, good and bad.
 */
class RequestsFastPathTest {
  private static final int MAX_LENGTH = 512;

  @Test
  void answersAsTheGeneralPathOnRandomBodies() {
    Random rnd = new Random(20261126L);
    int fast = 0;
    for (int c = 0; c < 4000; c++) {
      String body = body(rnd);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String general = outcome(() -> Requests.parseGeneral(bytes));
      String either = outcome(() -> Requests.parse(bytes));
      assertThat(either).as("body %s", body).isEqualTo(general);
      if (isFloatsNode(bytes)) {
        fast++;
      }
    }
    assertThat(fast).as("cases the fast path answered itself").isGreaterThan(1000);
  }

  @Test
  void readsTheCommonRequestWithoutATree() {
    ObjectNode o = Requests.parse("{\"embedding\":[0.25,-1,3e-2,7],\"intent\":\"x\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(o.get("embedding")).isInstanceOf(Requests.FloatsNode.class);
    assertThat(Requests.optionalVector(o, "embedding", 8)).containsExactly(0.25f, -1f, 0.03f, 7f);
    assertThat(Requests.optionalText(o, "intent", 10)).isEqualTo("x");
  }

  private static boolean isFloatsNode(byte[] bytes) {
    try {
      return Requests.parse(bytes).get("embedding") instanceof Requests.FloatsNode;
    } catch (MemLoopException e) {
      return false;
    }
  }

  /** What a retrieve handler would make of the body: the parsed fields and vector, or the error it reports. */
  private static String outcome(java.util.function.Supplier<ObjectNode> parse) {
    try {
      ObjectNode o = parse.get();
      Requests.object(o, "body", Service.RETRIEVE_FIELDS);
      float[] v = Requests.optionalVector(o, "embedding", MAX_LENGTH);
      String intent = Requests.optionalText(o, "intent", 100);
      int[] bits = v == null ? null : new int[v.length];
      for (int i = 0; bits != null && i < v.length; i++) {
        bits[i] = Float.floatToRawIntBits(v[i]);
      }
      return "ok intent=" + intent + " vector=" + Arrays.toString(bits);
    } catch (MemLoopException e) {
      return "error " + e.getMessage();
    }
  }

  private static String body(Random rnd) {
    List<String> fields = new ArrayList<>();
    if (rnd.nextInt(10) > 0) {
      fields.add("\"embedding\":" + array(rnd));
    }
    switch (rnd.nextInt(8)) {
      case 0 -> fields.add("\"intent\":\"deploy the service\"");
      case 1 -> fields.add("\"intent\":\"d\\u00e9ployer \u00e9t\u00e9\""); // not ASCII: the general path
      case 2 -> fields.add("\"intent\":42");
      case 3 -> fields.add("\"other\":true");
      case 4 -> fields.add("\"embedding\":[1]"); // a duplicate key when the first is there
      default -> { }
    }
    java.util.Collections.shuffle(fields, rnd);
    String b = "{" + String.join(",", fields) + "}";
    return switch (rnd.nextInt(20)) {
      case 0 -> b + " {}"; // trailing tokens
      case 1 -> b.substring(0, Math.max(1, b.length() - 1 - rnd.nextInt(3))); // truncated
      case 2 -> "[" + b + "]";
      case 3 -> " \n" + b + "\t ";
      default -> b;
    };
  }

  private static String array(Random rnd) {
    int n = rnd.nextInt(20) == 0 ? MAX_LENGTH + 1 + rnd.nextInt(3) : rnd.nextInt(40);
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ",").append(number(rnd));
    }
    return switch (rnd.nextInt(30)) {
      case 0 -> "\"not an array\"";
      case 1 -> "null";
      case 2 -> "{\"a\":1}";
      default -> sb.append("]").toString();
    };
  }

  private static String number(Random rnd) {
    return switch (rnd.nextInt(200)) {
      case 0 -> "\"0.5\"";
      case 1 -> "null";
      case 2 -> "1e400";
      case 3 -> "-1e-400";
      case 4 -> "123456789012345678901234567890"; // a BigInteger
      case 5 -> Long.toString(rnd.nextLong()); // past 2^53: rounding of a long
      case 6 -> "[1,2]";
      case 7 -> "true";
      case 8 -> "3.4028236e38"; // rounds to infinity as a float
      case 9 -> "-0.0";
      case 10 -> Integer.toString(rnd.nextInt());
      case 11 -> String.format(Locale.ROOT, "%.17g", rnd.nextGaussian() * 1e-30);
      default -> Float.toString((float) rnd.nextGaussian());
    };
  }
}
