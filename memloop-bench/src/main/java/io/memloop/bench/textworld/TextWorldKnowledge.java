package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What the policy believes about the house during one episode: the floor plan (given at the start),
 * what it has observed itself (certain), and hints read from "what went wrong" notes (tentative: the
 * note may be about another house, and an observation that contradicts a hint removes it). Mutable,
 * for one episode; its fields are shared with {@link TextWorldPolicy} and {@link TextWorldExplorer},
 * which read and update them step by step.
 */
final class TextWorldKnowledge {
  final Map<String, List<String>> doors;
  String room = TextWorldCatalogue.START_ROOM;
  String holding = "";
  /** The last command if it did nothing, so the explorer does not repeat it. */
  @Nullable TextWorldAction lastFailed;

  final Set<String> looked = new HashSet<>();
  /** Receptacle → room, observed. Insertion-ordered, as the note lists them. */
  final Map<String, String> seenRoom = new LinkedHashMap<>();
  /** Receptacle → whether it was closed when last seen. */
  final Map<String, Boolean> closed = new HashMap<>();
  /** Receptacle → its contents when last seen (kept up to date with the policy's own takes and puts). */
  final Map<String, Set<String>> contents = new HashMap<>();
  final Map<String, String> hintRoom = new HashMap<>();
  final Map<String, Set<String>> hintContents = new HashMap<>();
  final Map<String, Set<Treatment>> treated = new HashMap<>();
  final Set<String> unlocked = new HashSet<>();

  TextWorldKnowledge(Map<String, List<String>> doors) {
    this.doors = doors;
  }

  /** A fact from a note: {@code receptacle} is in {@code room}, holding {@code inside} if known. */
  void hint(String receptacle, String room, Optional<List<String>> inside) {
    if (TextWorldCatalogue.receptacle(receptacle).isEmpty() || !doors.containsKey(room)) {
      return; // a note about a room this house does not have says nothing here
    }
    hintRoom.putIfAbsent(receptacle, room);
    inside.ifPresent(objects -> hintContents.putIfAbsent(receptacle, new LinkedHashSet<>(objects)));
  }

  /** Receptacle → contents as last seen, for the failure note. */
  Map<String, List<String>> contentsSeen() {
    Map<String, List<String>> out = new HashMap<>();
    contents.forEach((r, inside) -> out.put(r, List.copyOf(inside)));
    return out;
  }

  void observe(TextWorldAction a, TextWorldObservation o) {
    room = o.room();
    if (!o.ok()) {
      lastFailed = a;
      if (a.verb() == TextWorldAction.Verb.TAKE) {
        hintContents.getOrDefault(a.place(), new HashSet<>()).remove(a.object());
        Set<String> seen = contents.get(a.place());
        if (seen != null && room.equals(seenRoom.get(a.place()))) {
          seen.remove(a.object());
        }
      }
      return;
    }
    lastFailed = null;
    switch (a.verb()) {
      case LOOK -> {
        looked.add(room);
        // A hinted receptacle that is not here after all: the hint was about another house.
        hintRoom.entrySet().removeIf(e -> e.getValue().equals(room) && !o.receptacles().containsKey(e.getKey()));
      }
      case TAKE -> {
        holding = a.object();
        contents.getOrDefault(a.place(), new HashSet<>()).remove(a.object());
        hintContents.values().forEach(s -> s.remove(a.object()));
      }
      case PUT -> {
        holding = "";
        contents.computeIfAbsent(a.place(), r -> new LinkedHashSet<>()).add(a.object());
      }
      case CLEAN, HEAT, COOL -> {
        Set<Treatment> done = treated.computeIfAbsent(a.object(), x -> new HashSet<>());
        Treatment t = a.treatment().orElseThrow();
        done.remove(t == Treatment.HEAT ? Treatment.COOL : Treatment.HEAT);
        done.add(t);
      }
      case UNLOCK -> unlocked.add(a.place());
      case GO, OPEN -> {}
    }
    if (a.verb() != TextWorldAction.Verb.GO && a.verb() != TextWorldAction.Verb.LOOK) {
      seenRoom.put(a.place(), room);
    }
    o.receptacles().forEach((r, isClosed) -> {
      seenRoom.put(r, room);
      closed.put(r, isClosed);
    });
    o.contents().forEach((r, inside) -> contents.put(r, new LinkedHashSet<>(inside)));
  }

  /** The receptacle's room: observed, else hinted. */
  Optional<String> roomOf(String receptacle) {
    return Optional.ofNullable(seenRoom.getOrDefault(receptacle, hintRoom.get(receptacle)));
  }

  /** Where {@code object} is: seen there, else hinted there; empty when unknown. */
  Optional<String> placeOf(String object) {
    for (var e : contents.entrySet()) {
      if (e.getValue().contains(object)) {
        return Optional.of(e.getKey());
      }
    }
    for (var e : hintContents.entrySet()) {
      if (e.getValue().contains(object) && !contents.containsKey(e.getKey())) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  /** Whether {@code receptacle} is believed not to hold {@code object} (seen or hinted without it). */
  boolean ruledOut(String receptacle, String object) {
    Set<String> seen = contents.get(receptacle);
    if (seen != null) {
      return !seen.contains(object);
    }
    Set<String> hinted = hintContents.get(receptacle);
    return hinted != null && !hinted.contains(object);
  }

  boolean knownOpen(String receptacle) {
    return Boolean.FALSE.equals(closed.get(receptacle)) || !TextWorldCatalogue.receptacleNamed(receptacle).closable();
  }

  boolean isTreated(String object, Treatment t) {
    return treated.getOrDefault(object, Set.of()).contains(t);
  }
}
