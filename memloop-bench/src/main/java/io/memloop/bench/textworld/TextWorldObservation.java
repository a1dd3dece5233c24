package io.memloop.bench.textworld;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the policy perceives after one command: partial observation, only what is in the current room
 * and only after "look" or "open".
 *
 * @param ok whether the command did anything ("Nothing happens." otherwise)
 * @param text the observation as a player reads it
 * @param room the room the player is in afterwards
 * @param receptacles receptacles seen in the room by this command → whether each is closed
 * @param contents receptacles whose contents this command showed → those contents
 */
record TextWorldObservation(boolean ok, String text, String room, Map<String, Boolean> receptacles,
    Map<String, List<String>> contents) {

  TextWorldObservation {
    // Insertion order kept (Map.copyOf's iteration order changes from run to run): the policy breaks
    // ties in the order it saw things, and runs must repeat exactly.
    receptacles = Collections.unmodifiableMap(new LinkedHashMap<>(receptacles));
    contents = Collections.unmodifiableMap(new LinkedHashMap<>(contents));
  }

  static TextWorldObservation nothing(String room) {
    return new TextWorldObservation(false, "Nothing happens.", room, Map.of(), Map.of());
  }

  static TextWorldObservation done(String text, String room) {
    return new TextWorldObservation(true, text, room, Map.of(), Map.of());
  }
}
