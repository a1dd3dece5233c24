package io.memloop;

import java.util.List;

/**
 * docs/configuration.md, rendered from the {@link Knob} table: a knob added, re-bounded or re-described there
 * changes the page, and a test in this package fails until the page follows ({@code -Dmemloop.writeDocs=true}
 * rewrites it).
 */
final class KnobDocs {
  private KnobDocs() {}

  /** The whole page. */
  static String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Configuration: every knob\n\n")
        .append("<!-- Generated from io.memloop.Knob by KnobTest: edit the table there, then run the test with ")
        .append("-Dmemloop.writeDocs=true. -->\n\n")
        .append("A namespace runs with one `MemLoopConfig`: a preset (`default`, `memrl` or `similarity`) with any knob ")
        .append("overridden. The same names work everywhere: `--set KNOB=VALUE` on the command line (repeatable; each ")
        .append("knob once), `{\"preset\": \"memrl\", \"knobs\": {\"k1\": 10}}` on `PUT /v1/namespaces/{ns}/config`, ")
        .append("`MemLoopConfig.builder().k1(10)` or `.set(\"k1\", \"10\")` in Java, and the settings a store records ")
        .append("per namespace (`stats --json` and `GET /v1/namespaces/{ns}/config` show them). How the knobs act ")
        .append("together: [README, How retrieval and learning work](../README.md#how-retrieval-and-learning-work-and-every-knob).\n\n")
        .append("Each value is checked when it is set (type and bounds; the error names the knob); conflicts between ")
        .append("knobs are checked when the configuration is built and name both knobs. The result never depends on ")
        .append("the order in which knobs are given. Numbers are plain decimals (`0.5`, `1e-3`, `-Infinity`); ")
        .append("durations are ISO-8601 (`PT1H`) or seconds; choices are case-insensitive, with `-` for `_`. ")
        .append("Values are shown as the settings record them.\n\n");
    sb.append("| knob | type | bounds | `default` | `memrl` | `similarity` | meaning | conflicts with |\n")
        .append("|---|---|---|---|---|---|---|---|\n");
    for (Knob k : Knob.values()) {
      sb.append("| `").append(k.key()).append('`').append(k.alias().map(a -> " (or `" + a + "`)").orElse(""))
          .append(" | ").append(k.type().label())
          .append(" | ").append(cell(k.bounds()))
          .append(" | ").append(k.defaultValue(Preset.DEFAULT))
          .append(" | ").append(k.defaultValue(Preset.MEMRL))
          .append(" | ").append(k.defaultValue(Preset.SIMILARITY))
          .append(" | ").append(cell(k.doc()))
          .append(" | ").append(conflicts(k))
          .append(" |\n");
    }
    sb.append("\n## Conflicts\n\nRefused when the configuration is built, whichever knob was set first:\n\n");
    for (Knob.Conflict c : Knob.Conflict.values()) {
      sb.append("- `").append(c.first().key()).append("` and `").append(c.second().key()).append("`: ")
          .append(c.describe()).append(".\n");
    }
    sb.append("\n## Shorthands\n\n");
    for (Knob.Shorthand s : Knob.Shorthand.values()) {
      sb.append("- `").append(s.key()).append("`: ").append(s.doc()).append('\n');
    }
    sb.append("\n## Settings recorded by earlier versions\n\n")
        .append("A namespace recorded before a knob existed keeps the behaviour of the version that recorded it: ")
        .append("the missing knob reads as\n\n");
    for (Knob k : Knob.values()) {
      k.legacyValue().ifPresent(v -> sb.append("- `").append(k.key()).append("`: ")
          .append(Knob.text(k.parse(v))).append('\n'));
    }
    return sb.toString();
  }

  private static String conflicts(Knob k) {
    List<String> out = k.conflicts().stream()
        .map(c -> "`" + (c.first() == k ? c.second() : c.first()).key() + "`").toList();
    return out.isEmpty() ? "" : String.join(", ", out);
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
