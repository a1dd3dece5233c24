package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Receptacle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One house: its rooms, the doors between them, the room of every receptacle and the receptacle every
 * object starts in. Every house has every receptacle and object of the {@link TextWorldCatalogue}
 * once; houses differ in rooms, doors and placement. Immutable.
 *
 * @param rooms {@link TextWorldCatalogue#START_ROOM} first
 * @param doors the rooms each room opens on, in {@code rooms} order
 * @param roomOf receptacle → room
 * @param placeOf object → the receptacle it starts in
 */
record TextWorldLayout(String house, List<String> rooms, Map<String, List<String>> doors, Map<String, String> roomOf,
    Map<String, String> placeOf) {

  TextWorldLayout {
    rooms = List.copyOf(rooms);
    Map<String, List<String>> d = new LinkedHashMap<>(); // in rooms order, whatever the given map's order
    for (String room : rooms) {
      d.put(room, List.copyOf(doors.getOrDefault(room, List.of())));
    }
    doors = Collections.unmodifiableMap(d);
    roomOf = Map.copyOf(roomOf);
    placeOf = Map.copyOf(placeOf);
  }

  /**
   * Draws a house of {@code roomCount} rooms: a random spanning tree of doors (every room reachable)
   * plus one extra door when there are four rooms or more, receptacles spread over the rooms (every
   * room but the hallway gets at least one), objects in receptacles that hold objects.
   */
  static TextWorldLayout generate(String house, int roomCount, RandomGenerator rnd) {
    List<String> others = new ArrayList<>(TextWorldCatalogue.OTHER_ROOMS);
    Collections.shuffle(others, rnd);
    List<String> rooms = new ArrayList<>();
    rooms.add(TextWorldCatalogue.START_ROOM);
    rooms.addAll(others.subList(0, roomCount - 1));
    Map<String, List<String>> adjacency = new LinkedHashMap<>();
    rooms.forEach(r -> adjacency.put(r, new ArrayList<>()));
    for (int i = 1; i < rooms.size(); i++) {
      connect(adjacency, rooms.get(i), rooms.get(rnd.nextInt(i)));
    }
    if (rooms.size() >= 4) {
      for (int attempt = 0; attempt < 20; attempt++) {
        String a = rooms.get(rnd.nextInt(rooms.size()));
        String b = rooms.get(rnd.nextInt(rooms.size()));
        if (!a.equals(b) && !adjacency.get(a).contains(b)) {
          connect(adjacency, a, b);
          break;
        }
      }
    }
    adjacency.values().forEach(next -> next.sort((x, y) -> Integer.compare(rooms.indexOf(x), rooms.indexOf(y))));
    List<Receptacle> receptacles = new ArrayList<>(TextWorldCatalogue.RECEPTACLES);
    Collections.shuffle(receptacles, rnd);
    Map<String, String> roomOf = new HashMap<>();
    for (int i = 0; i < receptacles.size(); i++) {
      // The first ones go one to each room but the hallway, so no room is empty; the rest anywhere.
      int room = i < rooms.size() - 1 ? i + 1 : rnd.nextInt(rooms.size());
      roomOf.put(receptacles.get(i).name(), rooms.get(room));
    }
    List<String> holders =
        TextWorldCatalogue.RECEPTACLES.stream().filter(Receptacle::holdsObjects).map(Receptacle::name).toList();
    Map<String, String> placeOf = new HashMap<>();
    for (TextWorldCatalogue.Item item : TextWorldCatalogue.ITEMS) {
      placeOf.put(item.name(), holders.get(rnd.nextInt(holders.size())));
    }
    return new TextWorldLayout(house, rooms, adjacency, roomOf, placeOf);
  }

  private static void connect(Map<String, List<String>> adjacency, String a, String b) {
    adjacency.get(a).add(b);
    adjacency.get(b).add(a);
  }

  boolean adjacent(String a, String b) {
    return doors.getOrDefault(a, List.of()).contains(b);
  }

  /** Receptacles in {@code room}, in catalogue order. */
  List<String> receptaclesIn(String room) {
    return TextWorldCatalogue.RECEPTACLES.stream().map(Receptacle::name).filter(r -> room.equals(roomOf.get(r))).toList();
  }

  /** Objects that start in {@code receptacle}, in catalogue order. */
  List<String> objectsIn(String receptacle) {
    return TextWorldCatalogue.ITEMS.stream().map(TextWorldCatalogue.Item::name)
        .filter(o -> receptacle.equals(placeOf.get(o))).toList();
  }

  /** The rooms walked through from {@code from} to {@code to}, {@code from} excluded (shortest, BFS). */
  List<String> path(String from, String to) {
    return path(doors, from, to);
  }

  static List<String> path(Map<String, List<String>> doors, String from, String to) {
    Map<String, String> parent = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(from);
    parent.put(from, from);
    while (!queue.isEmpty()) {
      String room = queue.removeFirst();
      if (room.equals(to)) {
        break;
      }
      for (String next : doors.getOrDefault(room, List.of())) {
        if (parent.putIfAbsent(next, room) == null) {
          queue.addLast(next);
        }
      }
    }
    if (!parent.containsKey(to)) {
      throw new IllegalArgumentException("no path from " + from + " to " + to + " in " + doors);
    }
    List<String> out = new ArrayList<>();
    for (String r = to; !r.equals(from); r = parent.get(r)) {
      out.add(r);
    }
    Collections.reverse(out);
    return out;
  }

  /**
   * The shortest plan that achieves {@code goal} from the start room: fetch the object (opening its
   * receptacle if closed), treat it if the goal asks, carry it to the target (opening it if closed);
   * or fetch the key, unlock and open. What a distiller writes down from a successful episode.
   */
  List<TextWorldAction> optimalPlan(TextWorldGoal goal) {
    List<TextWorldAction> plan = new ArrayList<>();
    String at = walk(plan, TextWorldCatalogue.START_ROOM, roomOf.get(placeOf.get(goal.object())));
    String source = placeOf.get(goal.object());
    if (TextWorldCatalogue.receptacleNamed(source).closable()) {
      plan.add(TextWorldAction.open(source));
    }
    plan.add(TextWorldAction.take(goal.object(), source));
    if (goal.type() == TextWorldGoal.Type.OPEN_WITH_KEY) {
      walk(plan, at, roomOf.get(goal.target()));
      plan.add(TextWorldAction.unlock(goal.target(), goal.object()));
      plan.add(TextWorldAction.open(goal.target()));
      return plan;
    }
    if (goal.treatment().isPresent()) {
      String appliance = TextWorldCatalogue.treating(goal.treatment().get()).name();
      at = walk(plan, at, roomOf.get(appliance));
      plan.add(TextWorldAction.treat(goal.treatment().get(), goal.object(), appliance));
    }
    walk(plan, at, roomOf.get(goal.target()));
    if (TextWorldCatalogue.receptacleNamed(goal.target()).closable() && !goal.target().equals(source)) {
      plan.add(TextWorldAction.open(goal.target()));
    }
    plan.add(TextWorldAction.put(goal.object(), goal.target()));
    return plan;
  }

  private String walk(List<TextWorldAction> plan, String from, String to) {
    for (String room : path(from, to)) {
      plan.add(TextWorldAction.go(room));
    }
    return to;
  }
}
