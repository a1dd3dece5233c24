package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The policy's fallback when no plan applies or a plan step failed: a simple goal-directed search,
 * like a model reasoning step by step with what it has seen. It works on the first unmet need (get
 * the object, treat it, bring it to the target; or get the key, unlock, open): a known place is
 * walked to by the shortest route; an unknown one is searched room by room (look, open the closed
 * receptacles hints do not rule out, move to the nearest unlooked room, ties broken at random).
 * Stateless; everything it knows is in the {@link TextWorldKnowledge}.
 */
final class TextWorldExplorer {
  private TextWorldExplorer() {}

  /** What the policy is working on, for the "what went wrong" note. */
  static String need(TextWorldGoal goal, TextWorldKnowledge k) {
    if (!k.holding.equals(goal.object())) {
      return "looking for the " + goal.object();
    }
    if (goal.type() == TextWorldGoal.Type.OPEN_WITH_KEY) {
      return "looking for the " + goal.target();
    }
    Optional<Treatment> t = goal.treatment();
    if (t.isPresent() && !k.isTreated(goal.object(), t.get())) {
      return "looking for the " + TextWorldCatalogue.treating(t.get()).name() + " to " + t.get().verb + " the "
          + goal.object();
    }
    return "carrying the " + goal.object() + " to the " + goal.target();
  }

  static TextWorldAction next(TextWorldGoal goal, TextWorldKnowledge k, RandomGenerator rnd) {
    TextWorldAction a = choose(goal, k, rnd);
    if (a.equals(k.lastFailed)) { // the same thing will fail again: move on instead
      List<String> next = k.doors.get(k.room);
      return TextWorldAction.go(next.get(rnd.nextInt(next.size())));
    }
    return a;
  }

  private static TextWorldAction choose(TextWorldGoal goal, TextWorldKnowledge k, RandomGenerator rnd) {
    String x = goal.object();
    if (!k.holding.isEmpty() && !k.holding.equals(x)) {
      return putDown(k);
    }
    if (!k.holding.equals(x)) {
      return fetch(x, k, rnd);
    }
    if (goal.type() == TextWorldGoal.Type.OPEN_WITH_KEY) {
      String lockable = goal.target();
      return reach(lockable, k, rnd)
          .orElseGet(() -> k.unlocked.contains(lockable) ? TextWorldAction.open(lockable)
              : TextWorldAction.unlock(lockable, x));
    }
    Optional<Treatment> t = goal.treatment();
    if (t.isPresent() && !k.isTreated(x, t.get())) {
      String appliance = TextWorldCatalogue.treating(t.get()).name();
      return reach(appliance, k, rnd).orElseGet(() -> TextWorldAction.treat(t.get(), x, appliance));
    }
    String target = goal.target();
    return reach(target, k, rnd)
        .orElseGet(() -> k.knownOpen(target) ? TextWorldAction.put(x, target) : TextWorldAction.open(target));
  }

  /** A step toward {@code receptacle}'s room, a search step while it is unknown, or empty once there. */
  private static Optional<TextWorldAction> reach(String receptacle, TextWorldKnowledge k, RandomGenerator rnd) {
    Optional<String> room = k.roomOf(receptacle);
    if (room.isEmpty()) {
      return k.looked.contains(k.room) ? towardUnlooked(k, rnd) : Optional.of(TextWorldAction.look());
    }
    if (!room.get().equals(k.room)) {
      return Optional.of(toward(room.get(), k));
    }
    if (!k.seenRoom.containsKey(receptacle) && !k.looked.contains(k.room)) {
      return Optional.of(TextWorldAction.look()); // only hinted here: check before acting on it
    }
    return Optional.empty();
  }

  private static TextWorldAction fetch(String x, TextWorldKnowledge k, RandomGenerator rnd) {
    Optional<String> place = k.placeOf(x);
    if (place.isPresent() && k.roomOf(place.get()).isPresent()) {
      String r = place.get();
      return reach(r, k, rnd)
          .orElseGet(() -> k.knownOpen(r) ? TextWorldAction.take(x, r) : TextWorldAction.open(r));
    }
    if (!k.looked.contains(k.room)) {
      return TextWorldAction.look();
    }
    List<String> unopened = unopenedHere(x, k, false);
    if (!unopened.isEmpty()) {
      return TextWorldAction.open(unopened.get(rnd.nextInt(unopened.size())));
    }
    if (k.looked.size() < k.doors.size()) {
      return towardUnlooked(k, rnd).orElseThrow();
    }
    // Every room looked at: open what the hints ruled out, nearest first.
    List<String> ruledOut = unopenedHere(x, k, true);
    if (!ruledOut.isEmpty()) {
      return TextWorldAction.open(ruledOut.get(rnd.nextInt(ruledOut.size())));
    }
    for (String room : byDistance(k)) {
      for (var e : k.seenRoom.entrySet()) {
        if (e.getValue().equals(room) && unopened(e.getKey(), k)) {
          return toward(room, k);
        }
      }
    }
    return wander(k, rnd);
  }

  /** Closed receptacles seen here whose contents are unknown; those hints rule out, or the others. */
  private static List<String> unopenedHere(String x, TextWorldKnowledge k, boolean ruledOut) {
    List<String> out = new ArrayList<>();
    for (var e : k.seenRoom.entrySet()) {
      String r = e.getKey();
      if (e.getValue().equals(k.room) && unopened(r, k) && k.ruledOut(r, x) == ruledOut) {
        out.add(r);
      }
    }
    return out;
  }

  private static boolean unopened(String r, TextWorldKnowledge k) {
    return Boolean.TRUE.equals(k.closed.get(r)) && !k.contents.containsKey(r)
        && TextWorldCatalogue.receptacleNamed(r).key().isEmpty();
  }

  private static TextWorldAction putDown(TextWorldKnowledge k) {
    for (var e : k.seenRoom.entrySet()) {
      if (e.getValue().equals(k.room) && k.knownOpen(e.getKey())
          && TextWorldCatalogue.receptacleNamed(e.getKey()).holdsObjects()) {
        return TextWorldAction.put(k.holding, e.getKey());
      }
    }
    return TextWorldAction.look();
  }

  private static Optional<TextWorldAction> towardUnlooked(TextWorldKnowledge k, RandomGenerator rnd) {
    List<String> nearest = new ArrayList<>();
    int best = Integer.MAX_VALUE;
    for (String room : k.doors.keySet()) {
      if (k.looked.contains(room) || room.equals(k.room)) {
        continue;
      }
      int d = TextWorldLayout.path(k.doors, k.room, room).size();
      if (d < best) {
        best = d;
        nearest.clear();
      }
      if (d == best) {
        nearest.add(room);
      }
    }
    if (nearest.isEmpty()) {
      return Optional.of(wander(k, rnd));
    }
    return Optional.of(toward(nearest.get(rnd.nextInt(nearest.size())), k));
  }

  private static List<String> byDistance(TextWorldKnowledge k) {
    List<String> rooms = new ArrayList<>(k.doors.keySet());
    Map<String, Integer> d = new HashMap<>();
    rooms.forEach(r -> d.put(r, r.equals(k.room) ? 0 : TextWorldLayout.path(k.doors, k.room, r).size()));
    rooms.sort(Comparator.comparingInt(d::get));
    return rooms;
  }

  private static TextWorldAction toward(String room, TextWorldKnowledge k) {
    return TextWorldAction.go(TextWorldLayout.path(k.doors, k.room, room).getFirst());
  }

  private static TextWorldAction wander(TextWorldKnowledge k, RandomGenerator rnd) {
    List<String> next = k.doors.get(k.room);
    return TextWorldAction.go(next.get(rnd.nextInt(next.size())));
  }
}
