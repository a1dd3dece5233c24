package io.memloop.bench.textworld;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The experiences of the text world, written and read as text (MemRL stores a distilled script for a
 * success and a reflection for a failure).
 *
 * <pre>
 * Task: In the Birch Lane house, heat an apple and put it on the table.
 * Outcome: succeeded in 9 steps.
 * Plan: go to kitchen; open fridge; take apple from fridge; heat apple with microwave; ...
 *
 * Task: ...
 * Outcome: failed, out of steps (16 of 16).
 * What went wrong: the plan step `take apple from drawer` failed; ran out of steps while looking for the apple.
 * Seen: fridge (kitchen) holding egg; microwave (kitchen); drawer (bedroom) holding nothing.
 * </pre>
 */
final class TextWorldExperience {
  private TextWorldExperience() {}

  private static final String TASK = "Task: ";
  private static final String PLAN = "Plan: ";
  private static final String SEEN = "Seen: ";
  private static final String SEP = "; ";
  private static final Pattern FACT = Pattern.compile("(.+?) \\((.+?)\\)(?: holding (.+))?");

  /** A fact read from a note: a receptacle, its room and, if seen, its contents. */
  record Fact(String receptacle, String room, Optional<List<String>> contents) {}

  static String success(String intent, List<TextWorldAction> plan, int steps) {
    return TASK + intent + "\nOutcome: succeeded in " + steps + " steps.\n" + PLAN
        + String.join(SEP, plan.stream().map(TextWorldAction::text).toList()) + ".";
  }

  static String failure(String intent, TextWorldTrajectory t) {
    StringBuilder wrong = new StringBuilder();
    t.brokenStep().ifPresent(s -> wrong.append("the plan step `").append(s).append("` failed; "));
    wrong.append("ran out of steps while ").append(t.unmetNeed());
    List<String> facts = new ArrayList<>();
    t.seenRooms().forEach((r, room) -> {
      List<String> inside = t.seenContents().get(r);
      facts.add(r + " (" + room + ")"
          + (inside == null ? "" : " holding " + (inside.isEmpty() ? "nothing" : String.join(", ", inside))));
    });
    return TASK + intent + "\nOutcome: failed, out of steps (" + t.steps() + " of " + t.budget() + ").\n"
        + "What went wrong: " + wrong + ".\n" + SEEN + (facts.isEmpty() ? "nothing" : String.join(SEP, facts)) + ".";
  }

  static Optional<String> task(String experience) {
    return line(experience, TASK);
  }

  /** The plan of a success experience; empty if there is none or a step does not read as a command. */
  static Optional<List<TextWorldAction>> plan(String experience) {
    Optional<String> line = line(experience, PLAN);
    if (line.isEmpty()) {
      return Optional.empty();
    }
    List<TextWorldAction> out = new ArrayList<>();
    for (String step : stripDot(line.get()).split(SEP)) {
      Optional<TextWorldAction> a = TextWorldAction.parse(step);
      if (a.isEmpty()) {
        return Optional.empty();
      }
      out.add(a.get());
    }
    return Optional.of(out);
  }

  /** The facts of a failure note; empty if it has none. */
  static List<Fact> facts(String experience) {
    Optional<String> line = line(experience, SEEN);
    if (line.isEmpty() || stripDot(line.get()).equals("nothing")) {
      return List.of();
    }
    List<Fact> out = new ArrayList<>();
    for (String item : stripDot(line.get()).split(SEP)) {
      Matcher m = FACT.matcher(item);
      if (m.matches()) {
        Optional<List<String>> inside =
            m.group(3) == null ? Optional.empty()
                : Optional.of(m.group(3).equals("nothing") ? List.of() : Arrays.asList(m.group(3).split(", ")));
        out.add(new Fact(m.group(1), m.group(2), inside));
      }
    }
    return out;
  }

  private static Optional<String> line(String experience, String prefix) {
    for (String l : experience.split("\n")) {
      if (l.startsWith(prefix)) {
        return Optional.of(l.substring(prefix.length()));
      }
    }
    return Optional.empty();
  }

  private static String stripDot(String s) {
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
