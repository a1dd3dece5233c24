package io.memloop.bench.textworld;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One played episode, as the policy lived it.
 *
 * @param actions every command issued, in order (one step each)
 * @param observations what each command showed
 * @param planSteps how many of the first commands came from a remembered plan
 * @param brokenStep the plan command that failed, after which the policy explored
 * @param unmetNeed what the policy was working on when the episode ended ({@code ""} on success)
 * @param seenRooms receptacle → room, for every receptacle the policy saw
 * @param seenContents receptacle → contents, for those whose contents it saw
 * @param executed the commands that did something, in order, without {@code look}: the plan a success stores,
 *     which replays the episode in the same house
 */
record TextWorldTrajectory(List<String> actions, List<String> observations, boolean success, int budget, int planSteps,
    Optional<String> brokenStep, String unmetNeed, Map<String, String> seenRooms,
    Map<String, List<String>> seenContents, List<TextWorldAction> executed) {

  TextWorldTrajectory {
    actions = List.copyOf(actions);
    observations = List.copyOf(observations);
    seenRooms = Collections.unmodifiableMap(new LinkedHashMap<>(seenRooms));
    seenContents = Map.copyOf(seenContents);
    executed = List.copyOf(executed);
    if (actions.size() > budget) {
      throw new IllegalArgumentException(actions.size() + " actions over a budget of " + budget);
    }
  }

  int steps() {
    return actions.size();
  }
}
