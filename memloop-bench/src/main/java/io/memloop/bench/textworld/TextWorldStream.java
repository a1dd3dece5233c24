package io.memloop.bench.textworld;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamKinds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import io.memloop.bench.textworld.TextWorldCatalogue.Category;
import io.memloop.bench.textworld.TextWorldCatalogue.Item;
import io.memloop.bench.textworld.TextWorldCatalogue.Receptacle;
import io.memloop.bench.textworld.TextWorldGoal.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The stream of the text world ({@link TextWorldEnvironment#stream}).
 *
 * <p>A kind is a plan up to names: in one of the environment's houses, a goal type (put, put clean, heat, cool)
 * whose object starts in a given receptacle and whose target stands in a given room. Every goal of a kind has the
 * same plan once its object and target are renamed, which is what the frozen policy does with a plan it is shown
 * ({@link TextWorldPolicy#map}), so a success of a kind solves the next instance of it. An instance is a goal of its
 * kind no training or held-out task and no earlier instance asked ("In the Birch Lane house, put a cup on the
 * shelf."). Key goals have no new instances and are left out. When the houses' goals cannot fill the stream, houses
 * built to the same plan as the environment's join it under the catalogue's unused names (same rooms, doors and
 * placement; only the name differs), as many as needed. Each kind gets as equal a share of the stream as its goals
 * allow, spread evenly from start to end.
 *
 * <p>The drift: in each house, the objects of some receptacles are moved to another receptacle in another room (the
 * household reorganised), chosen so that the kinds whose object started there make up the drifted share of all kinds
 * (at least that share: a receptacle's kinds move together, so the world stays one). After the drift a plan recorded
 * before it walks to the old receptacle, finds the object gone and leaves too few steps to recover; the policy
 * without memory explores as before, and a plan recorded after the drift solves the kind again. Goals that the move
 * would leave already achieved (a moved object's target is its new receptacle) are not asked.
 *
 * <p>Immutable and thread-safe.
 */
final class TextWorldStream implements StreamWorld {
  /** An instance's hidden world: the house as it is for it (renamed, and moved after the drift) and its goal. */
  private record Spec(Task task, TextWorldLayout layout, TextWorldGoal goal, int budget) {}

  /** A kind: a goal type whose object starts in {@code source} and whose target stands in {@code targetRoom}. */
  private record Kind(int house, Type type, String source, String targetRoom) {
    String label(List<TextWorldLayout> layouts) {
      return layouts.get(house).house() + "/" + type.name().toLowerCase(Locale.ROOT) + "/from " + source
          + "/to " + targetRoom;
    }
  }

  /** A goal of a kind in a house named {@code name} (the environment's own name or a sibling's). */
  private record Goal(String name, TextWorldGoal goal) {}

  private static final List<Type> TYPES = List.of(Type.PLACE, Type.CLEAN_PLACE, Type.HEAT_PLACE, Type.COOL_PLACE);

  private final TextWorldPolicy policy;
  private final List<StreamTask> tasks;
  private final Map<String, Spec> specs;
  private final int driftAt;

  private TextWorldStream(TextWorldPolicy policy, List<StreamTask> tasks, Map<String, Spec> specs, int driftAt) {
    this.policy = policy;
    this.tasks = List.copyOf(tasks);
    this.specs = Map.copyOf(specs);
    this.driftAt = driftAt;
  }

  static TextWorldStream generate(TextWorldEnvironment env, long seed, StreamShape shape) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "text-world:stream"));
    List<TextWorldLayout> layouts = env.layouts();
    Set<String> seen = new HashSet<>();
    env.tasks().forEach(t -> seen.add(t.intent()));
    env.heldOut().forEach(t -> seen.add(t.intent()));
    // Goals by kind, in a fixed order (house, type, object, target in catalogue order).
    Map<Kind, List<TextWorldGoal>> goalsByKind = new LinkedHashMap<>();
    for (int h = 0; h < layouts.size(); h++) {
      TextWorldLayout l = layouts.get(h);
      for (Type type : TYPES) {
        for (Item item : objects(type)) {
          for (Receptacle target : TextWorldCatalogue.RECEPTACLES) {
            TextWorldGoal g = new TextWorldGoal(type, item.name(), target.name());
            if (target.target() && TextWorldGenerator.fits(g, l)) {
              goalsByKind.computeIfAbsent(new Kind(h, type, l.placeOf().get(item.name()), l.roomOf().get(target.name())),
                  k -> new ArrayList<>()).add(g);
            }
          }
        }
      }
    }
    List<Kind> kinds = new ArrayList<>(goalsByKind.keySet());
    Map<Kind, String> movedTo = drift(layouts, kinds, goalsByKind, shape.driftedShare(), rnd);
    // A goal whose target is where its object moves to would hold from the start after the drift: not asked.
    goalsByKind.replaceAll((k, goals) -> goals.stream()
        .filter(g -> !movedTo.containsKey(k) || !g.target().equals(movedTo.get(k))).toList());
    // House names: the environment's, then siblings under unused names while the goals fall short.
    List<List<String>> names = new ArrayList<>();
    layouts.forEach(l -> names.add(new ArrayList<>(List.of(l.house()))));
    List<String> spare = new ArrayList<>(TextWorldCatalogue.HOUSES);
    layouts.forEach(l -> spare.remove(l.house()));
    Collections.shuffle(spare, rnd);
    for (int next = 0; capacity(kinds, goalsByKind, names, seen) < shape.length() && !spare.isEmpty(); next++) {
      names.get(next % layouts.size()).add(spare.removeFirst());
    }
    List<List<Goal>> instances = new ArrayList<>();
    for (Kind k : kinds) {
      instances.add(shuffled(unasked(k, goalsByKind, names, seen), rnd));
    }
    int[] quotas = StreamKinds.quotas(shape.length(), instances.stream().mapToInt(List::size).toArray());
    int driftAt = shape.driftIndex();
    Map<String, TextWorldLayout> before = new HashMap<>();
    Map<String, TextWorldLayout> after = new HashMap<>();
    for (int h = 0; h < layouts.size(); h++) {
      TextWorldLayout l = layouts.get(h);
      Map<String, String> placeOf = new HashMap<>(l.placeOf());
      for (Map.Entry<Kind, String> m : movedTo.entrySet()) {
        if (m.getKey().house() == h) {
          l.placeOf().forEach((object, place) -> {
            if (place.equals(m.getKey().source())) {
              placeOf.put(object, m.getValue());
            }
          });
        }
      }
      for (String name : names.get(h)) {
        before.put(name, new TextWorldLayout(name, l.rooms(), l.doors(), l.roomOf(), l.placeOf()));
        after.put(name, new TextWorldLayout(name, l.rooms(), l.doors(), l.roomOf(), placeOf));
      }
    }
    int[] next = new int[kinds.size()];
    List<StreamTask> tasks = new ArrayList<>();
    Map<String, Spec> specs = new HashMap<>();
    List<Integer> order = StreamKinds.order(quotas, rnd);
    for (int i = 0; i < order.size(); i++) {
      int k = order.get(i);
      Goal g = instances.get(k).get(next[k]++);
      TextWorldLayout layout = (i >= driftAt ? after : before).get(g.name());
      Task task = new Task("tw-stream/" + i + "/" + TextWorldGenerator.id(g.name(), g.goal()).substring(3),
          g.goal().intent(g.name()));
      int budget = layout.optimalPlan(g.goal()).size() + env.knobs().spareSteps();
      specs.put(task.id(), new Spec(task, layout, g.goal(), budget));
      tasks.add(new StreamTask(task, kinds.get(k).label(layouts), movedTo.containsKey(kinds.get(k))));
    }
    return new TextWorldStream(env.policy(), tasks, specs, driftAt);
  }

  /**
   * The drifting kinds and where their object moves: receptacles of a house, in seeded order, each moved with all
   * its kinds to a receptacle that holds objects in another room, until the kinds moved reach {@code share} of all.
   */
  private static Map<Kind, String> drift(List<TextWorldLayout> layouts, List<Kind> kinds,
      Map<Kind, List<TextWorldGoal>> goalsByKind, double share, RandomGenerator rnd) {
    long wanted = Math.clamp(Math.round(share * kinds.size()), 1, kinds.size());
    record Source(int house, String receptacle) {}
    List<Source> sources = new ArrayList<>(kinds.stream().map(k -> new Source(k.house(), k.source())).distinct().toList());
    Collections.shuffle(sources, rnd);
    List<String> holders = TextWorldCatalogue.RECEPTACLES.stream().filter(Receptacle::holdsObjects)
        .map(Receptacle::name).toList();
    Map<Kind, String> out = new HashMap<>();
    for (Source s : sources) {
      if (out.size() >= wanted) {
        break;
      }
      TextWorldLayout l = layouts.get(s.house());
      String room = l.roomOf().get(s.receptacle());
      List<String> elsewhere = holders.stream().filter(r -> !l.roomOf().get(r).equals(room)).toList();
      String to = elsewhere.get(rnd.nextInt(elsewhere.size()));
      for (Kind k : kinds) {
        if (k.house() == s.house() && k.source().equals(s.receptacle())) {
          out.put(k, to);
        }
      }
    }
    return out;
  }

  private static List<Goal> unasked(Kind k, Map<Kind, List<TextWorldGoal>> goalsByKind, List<List<String>> names,
      Set<String> seen) {
    List<Goal> out = new ArrayList<>();
    for (String name : names.get(k.house())) {
      for (TextWorldGoal g : goalsByKind.get(k)) {
        if (!seen.contains(g.intent(name))) {
          out.add(new Goal(name, g));
        }
      }
    }
    return out;
  }

  private static int capacity(List<Kind> kinds, Map<Kind, List<TextWorldGoal>> goalsByKind, List<List<String>> names,
      Set<String> seen) {
    return kinds.stream().mapToInt(k -> unasked(k, goalsByKind, names, seen).size()).sum();
  }

  private static List<Item> objects(Type type) {
    return switch (type) {
      case CLEAN_PLACE -> TextWorldCatalogue.itemsOf(Category.DISH);
      case HEAT_PLACE, COOL_PLACE -> TextWorldCatalogue.itemsOf(Category.FOOD);
      default -> TextWorldCatalogue.ITEMS.stream().filter(i -> i.category() != Category.KEY).toList();
    };
  }

  private static <T> List<T> shuffled(List<T> list, RandomGenerator rnd) {
    List<T> copy = new ArrayList<>(list);
    Collections.shuffle(copy, rnd);
    return copy;
  }

  @Override
  public List<StreamTask> tasks() {
    return tasks;
  }

  @Override
  public int driftAt() {
    return driftAt;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  /** As {@link TextWorldEnvironment#attempt}, in the house as it is for the instance. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    Spec s = spec(task);
    TextWorldTrajectory t = policy.play(task.intent(), new TextWorldSimulator(s.layout(), s.goal(), s.budget()), shown,
        rnd);
    return new Episode(task, t.success(), t.success() ? 1 : -1, TextWorldEnvironment.experience(task, t));
  }

  /**
   * As {@link TextWorldEnvironment#helps}: the plan the policy takes from the memory, shown first and alone, reaches
   * the goal without a failed step in the house as it is for the instance.
   */
  @Override
  public boolean helps(Task task, Memory memory) {
    Spec s = spec(task);
    Optional<List<TextWorldAction>> plan = TextWorldPolicy.planFor(s.goal(), List.of(memory.experience()));
    if (plan.isEmpty()) {
      return false;
    }
    TextWorldSimulator sim = new TextWorldSimulator(s.layout(), s.goal(), s.budget());
    for (TextWorldAction a : plan.get()) {
      if (sim.over() || !sim.step(a).ok()) {
        break;
      }
    }
    return sim.succeeded();
  }

  /** A success experience of an instance with its shortest plan in its world, for tests. */
  String successExperience(Task task) {
    Spec s = spec(task);
    return TextWorldExperience.success(task.intent(), s.layout().optimalPlan(s.goal()), s.budget());
  }

  private Spec spec(Task task) {
    Spec s = specs.get(task.id());
    if (s == null || !s.task().intent().equals(task.intent())) {
      throw new IllegalArgumentException("task " + task.id() + " is not one of the " + specs.size()
          + " instances of this " + TextWorldEnvironment.NAME + " stream");
    }
    return s;
  }
}
