package io.memloop.bench.textworld;

import io.memloop.bench.Task;
import io.memloop.bench.textworld.TextWorldCatalogue.Category;
import io.memloop.bench.textworld.TextWorldCatalogue.Item;
import io.memloop.bench.textworld.TextWorldCatalogue.Receptacle;
import io.memloop.bench.textworld.TextWorldGoal.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Draws the houses, the goals and the held-out tasks of a {@link TextWorldEnvironment}.
 *
 * <p>One goal list is shared by every house, so each goal recurs in another layout (same wording
 * but the house name, objects elsewhere). The list is built in twin pairs: a goal and a variant that
 * differs in one element, worded almost alike: "put a mug in ..." next to "put a clean mug in ...",
 * another object of the same kind, another target, or the other key and lock. A held-out task is a
 * goal not in the list whose plan in one house equals a training task's up to the names: its object
 * starts in the same receptacle as the training task's object, or its target stands in the same room
 * as the training task's target.
 */
final class TextWorldGenerator {
  private TextWorldGenerator() {}

  /**
   * One task and its hidden truth.
   *
   * @param house index into the layouts
   * @param twin id of the goal list's twin in the same house, {@code ""} if none
   * @param source for a held-out task, the training task whose plan transfers; {@code ""} otherwise
   */
  record Spec(Task task, int house, TextWorldGoal goal, String twin, String source) {}

  record Generated(List<TextWorldLayout> layouts, List<Spec> training, List<Spec> heldOut) {}

  private record GoalPair(TextWorldGoal goal, Optional<TextWorldGoal> twin) {}

  private static final List<String> TARGETS =
      TextWorldCatalogue.RECEPTACLES.stream().filter(Receptacle::target).map(Receptacle::name).toList();
  private static final int ATTEMPTS = 20_000;

  static Generated generate(long seed, TextWorldEnvironment.Knobs knobs) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> names = shuffled(TextWorldCatalogue.HOUSES, rnd).subList(0, knobs.houses());
    List<TextWorldLayout> layouts = new ArrayList<>();
    for (String name : names) {
      layouts.add(TextWorldLayout.generate(name, knobs.rooms(), rnd));
    }
    List<GoalPair> goals = goals(layouts, knobs, rnd);
    List<TextWorldGoal> flat = new ArrayList<>();
    goals.forEach(p -> {
      flat.add(p.goal());
      p.twin().ifPresent(flat::add);
    });
    List<Spec> training = new ArrayList<>();
    for (int h = 0; h < layouts.size(); h++) {
      for (GoalPair p : goals) {
        String house = layouts.get(h).house();
        String twinId = p.twin().map(t -> id(house, t)).orElse("");
        training.add(spec(house, h, p.goal(), twinId, ""));
        if (p.twin().isPresent()) {
          training.add(spec(house, h, p.twin().get(), id(house, p.goal()), ""));
        }
      }
    }
    return new Generated(layouts, shuffled(training, rnd), heldOut(layouts, training, flat, knobs, rnd));
  }

  private static Spec spec(String house, int h, TextWorldGoal goal, String twin, String source) {
    return new Spec(new Task(id(house, goal) + (source.isEmpty() ? "" : "/held-out"), goal.intent(house)), h, goal,
        twin, source);
  }

  static String id(String house, TextWorldGoal g) {
    String slug = (g.type().name() + "-" + g.object() + "-" + g.target()).toLowerCase(Locale.ROOT).replace(' ', '_');
    return "tw/" + house.toLowerCase(Locale.ROOT).replace(' ', '-') + "/" + slug;
  }

  private static List<GoalPair> goals(List<TextWorldLayout> layouts, TextWorldEnvironment.Knobs knobs,
      RandomGenerator rnd) {
    List<Type> types = shuffled(List.of(Type.values()), rnd);
    List<GoalPair> out = new ArrayList<>();
    List<TextWorldGoal> used = new ArrayList<>();
    int next = 0;
    for (int attempt = 0; attempt < ATTEMPTS && used.size() < knobs.goalsPerHouse(); attempt++) {
      TextWorldGoal base = randomGoal(types.get(next++ % types.size()), rnd);
      if (used.contains(base) || !fitsEverywhere(base, layouts)) {
        continue;
      }
      if (used.size() == knobs.goalsPerHouse() - 1) {
        out.add(new GoalPair(base, Optional.empty()));
        used.add(base);
        continue;
      }
      Optional<TextWorldGoal> twin = twinOf(base, rnd);
      if (twin.isEmpty() || used.contains(twin.get()) || !fitsEverywhere(twin.get(), layouts)) {
        continue;
      }
      out.add(new GoalPair(base, twin));
      used.add(base);
      used.add(twin.get());
    }
    if (used.size() < knobs.goalsPerHouse()) {
      throw new IllegalStateException("found only " + used.size() + " of " + knobs.goalsPerHouse()
          + " goals that are not already achieved in any of the " + knobs.houses() + " houses; ask for fewer goals");
    }
    return out;
  }

  private static TextWorldGoal randomGoal(Type type, RandomGenerator rnd) {
    if (type == Type.OPEN_WITH_KEY) {
      return rnd.nextBoolean() ? new TextWorldGoal(type, "key", "safe") : new TextWorldGoal(type, "keycard", "locker");
    }
    List<Item> objects = switch (type) {
      case CLEAN_PLACE -> TextWorldCatalogue.itemsOf(Category.DISH);
      case HEAT_PLACE, COOL_PLACE -> TextWorldCatalogue.itemsOf(Category.FOOD);
      default -> TextWorldCatalogue.ITEMS.stream().filter(i -> i.category() != Category.KEY).toList();
    };
    return new TextWorldGoal(type, pick(objects, rnd).name(), pick(TARGETS, rnd));
  }

  /** A goal worded almost like {@code base} with one element changed. */
  private static Optional<TextWorldGoal> twinOf(TextWorldGoal base, RandomGenerator rnd) {
    if (base.type() == Type.OPEN_WITH_KEY) {
      return Optional.of(base.object().equals("key") ? new TextWorldGoal(base.type(), "keycard", "locker")
          : new TextWorldGoal(base.type(), "key", "safe"));
    }
    Category category = TextWorldCatalogue.itemNamed(base.object()).category();
    int kinds = category == Category.DISH && (base.type() == Type.PLACE || base.type() == Type.CLEAN_PLACE) ? 3 : 2;
    return switch (rnd.nextInt(kinds)) {
      case 0 -> Optional.of(new TextWorldGoal(base.type(),
          pick(TextWorldCatalogue.itemsOf(category).stream().filter(i -> !i.name().equals(base.object())).toList(),
              rnd).name(), base.target()));
      case 1 -> Optional.of(new TextWorldGoal(base.type(), base.object(),
          pick(TARGETS.stream().filter(t -> !t.equals(base.target())).toList(), rnd)));
      default -> Optional.of(new TextWorldGoal(base.type() == Type.PLACE ? Type.CLEAN_PLACE : Type.PLACE, base.object(),
          base.target()));
    };
  }

  private static boolean fitsEverywhere(TextWorldGoal g, List<TextWorldLayout> layouts) {
    return layouts.stream().allMatch(l -> fits(g, l));
  }

  /** Not already achieved at the start. */
  static boolean fits(TextWorldGoal g, TextWorldLayout layout) {
    return !g.target().equals(layout.placeOf().get(g.object()));
  }

  private static List<Spec> heldOut(List<TextWorldLayout> layouts, List<Spec> training, List<TextWorldGoal> goals,
      TextWorldEnvironment.Knobs knobs, RandomGenerator rnd) {
    List<Spec> candidates = new ArrayList<>();
    for (Spec s : training) {
      TextWorldGoal g = s.goal();
      if (g.type() == Type.OPEN_WITH_KEY) {
        continue;
      }
      TextWorldLayout layout = layouts.get(s.house());
      String place = layout.placeOf().get(g.object());
      Category category = TextWorldCatalogue.itemNamed(g.object()).category();
      List<TextWorldGoal> variants = new ArrayList<>();
      for (String other : layout.objectsIn(place)) {
        if (!other.equals(g.object()) && TextWorldCatalogue.itemNamed(other).category() == category) {
          variants.add(new TextWorldGoal(g.type(), other, g.target()));
        }
      }
      boolean closable = TextWorldCatalogue.receptacleNamed(g.target()).closable();
      for (String other : layout.receptaclesIn(layout.roomOf().get(g.target()))) {
        if (!other.equals(g.target()) && TARGETS.contains(other)
            && TextWorldCatalogue.receptacleNamed(other).closable() == closable) {
          variants.add(new TextWorldGoal(g.type(), g.object(), other));
        }
      }
      for (TextWorldGoal v : variants) {
        if (!goals.contains(v) && fits(v, layout)) {
          candidates.add(spec(layout.house(), s.house(), v, "", s.task().id()));
        }
      }
    }
    List<Spec> out = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (Spec c : shuffled(candidates, rnd)) {
      if (out.size() < knobs.heldOut() && !ids.contains(c.task().id())) {
        out.add(c);
        ids.add(c.task().id());
      }
    }
    return out;
  }

  private static <T> T pick(List<T> list, RandomGenerator rnd) {
    return list.get(rnd.nextInt(list.size()));
  }

  private static <T> List<T> shuffled(List<T> list, RandomGenerator rnd) {
    List<T> copy = new ArrayList<>(list);
    Collections.shuffle(copy, rnd);
    return copy;
  }
}
