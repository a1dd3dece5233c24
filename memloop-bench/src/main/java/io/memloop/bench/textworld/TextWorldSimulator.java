package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Receptacle;
import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One episode in one house: the hidden world state, advanced one command at a time under a step
 * budget. Every command costs a step, whether it does anything or not; the episode ends when the goal
 * holds or the budget is spent. Success is only known at the end (the reward is +1 or −1 then, never
 * shaped on the way, as in ALFWorld). Mutable, for one thread.
 */
final class TextWorldSimulator {
  private final TextWorldLayout layout;
  private final TextWorldGoal goal;
  private final int budget;

  private String room = TextWorldCatalogue.START_ROOM;
  private String holding = "";
  private final Map<String, String> placeOf;
  private final Set<String> open = new HashSet<>();
  private final Set<String> unlocked = new HashSet<>();
  private final Map<String, Set<Treatment>> treated = new HashMap<>();
  private int steps;
  private boolean succeeded;

  TextWorldSimulator(TextWorldLayout layout, TextWorldGoal goal, int budget) {
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1 step, got " + budget);
    }
    this.layout = layout;
    this.goal = goal;
    this.budget = budget;
    this.placeOf = new HashMap<>(layout.placeOf());
  }

  /** The first observation, before any step: where the player is and the floor plan (rooms and doors). */
  String floorPlan() {
    StringBuilder doors = new StringBuilder();
    layout.doors().forEach((a, next) -> next.stream().filter(b -> layout.rooms().indexOf(b) > layout.rooms().indexOf(a))
        .forEach(b -> doors.append(doors.isEmpty() ? "" : ", ").append(a).append(" - ").append(b)));
    return "You are in the " + room + " of the " + layout.house() + " house. Rooms: " + String.join(", ", layout.rooms())
        + ". Doors: " + doors + ".";
  }

  Map<String, List<String>> doors() {
    return layout.doors();
  }

  int steps() {
    return steps;
  }

  int budget() {
    return budget;
  }

  boolean succeeded() {
    return succeeded;
  }

  /** No more commands: the goal holds or the budget is spent. */
  boolean over() {
    return succeeded || steps >= budget;
  }

  TextWorldObservation step(TextWorldAction action) {
    if (over()) {
      throw new IllegalStateException("episode is over (steps=" + steps + ", budget=" + budget + ", succeeded="
          + succeeded + "); refused '" + action.text() + "'");
    }
    steps++;
    TextWorldObservation obs = apply(action);
    succeeded = goalHolds();
    return obs;
  }

  /**
   * A reply that is not a command: it costs a step, like any command that does nothing (ALFWorld
   * answers "Nothing happens." to what it cannot parse).
   */
  TextWorldObservation invalid() {
    if (over()) {
      throw new IllegalStateException("episode is over (steps=" + steps + ", budget=" + budget + ")");
    }
    steps++;
    return TextWorldObservation.nothing(room);
  }

  private TextWorldObservation apply(TextWorldAction a) {
    return switch (a.verb()) {
      case LOOK -> look();
      case GO -> {
        if (!layout.adjacent(room, a.place())) {
          yield TextWorldObservation.nothing(room);
        }
        room = a.place();
        yield TextWorldObservation.done("You go to the " + room + ".", room);
      }
      case OPEN -> {
        if (!here(a.place()) || !receptacle(a.place()).closable() || locked(a.place())) {
          yield TextWorldObservation.nothing(room);
        }
        open.add(a.place());
        yield contentsOf(a.place(), "You open the " + a.place() + ".");
      }
      case TAKE -> {
        if (!holding.isEmpty() || !reachable(a.place()) || !a.place().equals(placeOf.get(a.object()))) {
          yield TextWorldObservation.nothing(room);
        }
        placeOf.remove(a.object());
        holding = a.object();
        yield TextWorldObservation.done("You take the " + a.object() + " from the " + a.place() + ".", room);
      }
      case PUT -> {
        if (!holding.equals(a.object()) || a.object().isEmpty() || !reachable(a.place()) || locked(a.place())) {
          yield TextWorldObservation.nothing(room);
        }
        placeOf.put(a.object(), a.place());
        holding = "";
        yield TextWorldObservation.done("You put the " + a.object() + " " + a.text().split(" ")[2] + " the " + a.place()
            + ".", room);
      }
      case CLEAN, HEAT, COOL -> {
        Treatment t = a.treatment().orElseThrow();
        if (!holding.equals(a.object()) || a.object().isEmpty() || !here(a.place())
            || !receptacle(a.place()).treatment().equals(Optional.of(t))) {
          yield TextWorldObservation.nothing(room);
        }
        Set<Treatment> done = treated.computeIfAbsent(a.object(), o -> EnumSet.noneOf(Treatment.class));
        done.remove(t == Treatment.HEAT ? Treatment.COOL : Treatment.HEAT); // heating undoes cooling, and back
        done.add(t);
        yield TextWorldObservation.done("You " + t.verb + " the " + a.object() + " with the " + a.place() + ".", room);
      }
      case UNLOCK -> {
        if (!holding.equals(a.object()) || !here(a.place()) || !receptacle(a.place()).key().equals(a.object())) {
          yield TextWorldObservation.nothing(room);
        }
        unlocked.add(a.place());
        yield TextWorldObservation.done("You unlock the " + a.place() + " with the " + a.object() + ".", room);
      }
    };
  }

  private TextWorldObservation look() {
    Map<String, Boolean> seen = new LinkedHashMap<>();
    Map<String, List<String>> contents = new LinkedHashMap<>();
    List<String> parts = new ArrayList<>();
    for (String r : layout.receptaclesIn(room)) {
      boolean closed = receptacle(r).closable() && !open.contains(r);
      seen.put(r, closed);
      if (closed) {
        parts.add("a " + r + " (closed)");
      } else {
        List<String> inside = objectsIn(r);
        contents.put(r, inside);
        parts.add("a " + r + (inside.isEmpty() ? "" : " holding " + String.join(", ", inside)));
      }
    }
    String text = "You are in the " + room + ". You see " + (parts.isEmpty() ? "nothing" : String.join("; ", parts))
        + ". Doors lead to: " + String.join(", ", layout.doors().get(room)) + ".";
    return new TextWorldObservation(true, text, room, seen, contents);
  }

  private TextWorldObservation contentsOf(String receptacle, String prefix) {
    List<String> inside = objectsIn(receptacle);
    String text = prefix + " In it: " + (inside.isEmpty() ? "nothing" : String.join(", ", inside)) + ".";
    return new TextWorldObservation(true, text, room, Map.of(receptacle, false), Map.of(receptacle, inside));
  }

  private List<String> objectsIn(String receptacle) {
    return TextWorldCatalogue.ITEMS.stream().map(TextWorldCatalogue.Item::name)
        .filter(o -> receptacle.equals(placeOf.get(o))).toList();
  }

  private boolean goalHolds() {
    if (goal.type() == TextWorldGoal.Type.OPEN_WITH_KEY) {
      return open.contains(goal.target());
    }
    return goal.target().equals(placeOf.get(goal.object()))
        && goal.treatment().map(t -> treated.getOrDefault(goal.object(), Set.of()).contains(t)).orElse(true);
  }

  private boolean here(String receptacle) {
    return room.equals(layout.roomOf().get(receptacle));
  }

  /** In this room and open (or never closed). */
  private boolean reachable(String receptacle) {
    return here(receptacle) && (!receptacle(receptacle).closable() || open.contains(receptacle));
  }

  private boolean locked(String receptacle) {
    return !receptacle(receptacle).key().isEmpty() && !unlocked.contains(receptacle);
  }

  private static Receptacle receptacle(String name) {
    return TextWorldCatalogue.receptacleNamed(name);
  }
}
