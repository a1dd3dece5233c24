package io.memloop.bench.textworld;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The vocabulary of the text world: rooms, receptacles and objects every house is built from, and
 * the house names. Every house holds every receptacle and object once (in its own rooms and places),
 * so a goal means the same thing in every house and only the layout decides where to go.
 *
 * <p>This is common knowledge for the policy as well (a model knows that a fridge opens and a table
 * does not); what it cannot know is where things are in a given house.
 */
final class TextWorldCatalogue {
  private TextWorldCatalogue() {}

  /** Where every episode starts; every house has one. */
  static final String START_ROOM = "hallway";

  static final List<String> OTHER_ROOMS =
      List.of("kitchen", "pantry", "living room", "dining room", "bedroom", "bathroom", "study", "laundry room",
          "garage");

  static final List<String> HOUSES =
      List.of("Birch Lane", "Cedar Court", "Maple Street", "Willow Road", "Oak Hill", "Aspen Way", "Elm Grove",
          "Pine Ridge", "Hazel Close", "Rowan Park", "Linden Row", "Alder Bank");

  /** What a treatment receptacle does to the object used with it. */
  enum Treatment {
    CLEAN("clean"),
    HEAT("heat"),
    COOL("cool");

    final String verb;

    Treatment(String verb) {
      this.verb = verb;
    }
  }

  /**
   * A receptacle kind; each house has exactly one of each, so its name identifies it.
   *
   * @param preposition "in" or "on", as objects are put there
   * @param closable starts closed and must be opened before taking or putting
   * @param key the object that unlocks it, {@code ""} if it is not locked
   * @param treatment what using an object with it does, if anything
   * @param holdsObjects whether objects start there
   * @param target whether a placement goal may name it
   */
  record Receptacle(String name, String preposition, boolean closable, String key, Optional<Treatment> treatment,
      boolean holdsObjects, boolean target) {}

  enum Category {
    DISH,
    FOOD,
    THING,
    KEY
  }

  record Item(String name, Category category) {
    String withArticle() {
      return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }
  }

  static final List<Receptacle> RECEPTACLES =
      List.of(
          new Receptacle("fridge", "in", true, "", Optional.of(Treatment.COOL), true, true),
          new Receptacle("microwave", "in", false, "", Optional.of(Treatment.HEAT), false, false),
          new Receptacle("sink", "in", false, "", Optional.of(Treatment.CLEAN), false, false),
          new Receptacle("coffee machine", "in", false, "", Optional.empty(), false, true),
          new Receptacle("cabinet", "in", true, "", Optional.empty(), true, true),
          new Receptacle("drawer", "in", true, "", Optional.empty(), true, true),
          new Receptacle("cupboard", "in", true, "", Optional.empty(), true, true),
          new Receptacle("wardrobe", "in", true, "", Optional.empty(), true, true),
          new Receptacle("dresser", "in", true, "", Optional.empty(), true, true),
          new Receptacle("table", "on", false, "", Optional.empty(), true, true),
          new Receptacle("countertop", "on", false, "", Optional.empty(), true, true),
          new Receptacle("shelf", "on", false, "", Optional.empty(), true, true),
          new Receptacle("desk", "on", false, "", Optional.empty(), true, true),
          new Receptacle("safe", "in", true, "key", Optional.empty(), false, false),
          new Receptacle("locker", "in", true, "keycard", Optional.empty(), false, false));

  static final List<Item> ITEMS =
      List.of(
          new Item("mug", Category.DISH), new Item("cup", Category.DISH), new Item("plate", Category.DISH),
          new Item("bowl", Category.DISH), new Item("apple", Category.FOOD), new Item("potato", Category.FOOD),
          new Item("egg", Category.FOOD), new Item("tomato", Category.FOOD), new Item("bagel", Category.FOOD),
          new Item("book", Category.THING), new Item("pen", Category.THING), new Item("remote", Category.THING),
          new Item("candle", Category.THING), new Item("key", Category.KEY), new Item("keycard", Category.KEY));

  private static final Map<String, Receptacle> RECEPTACLE_BY_NAME =
      RECEPTACLES.stream().collect(Collectors.toUnmodifiableMap(Receptacle::name, Function.identity()));
  private static final Map<String, Item> ITEM_BY_NAME =
      ITEMS.stream().collect(Collectors.toUnmodifiableMap(Item::name, Function.identity()));

  static Optional<Receptacle> receptacle(String name) {
    return Optional.ofNullable(RECEPTACLE_BY_NAME.get(name));
  }

  static Receptacle receptacleNamed(String name) {
    return receptacle(name).orElseThrow(() -> new IllegalArgumentException("no receptacle named '" + name + "'"));
  }

  static Item itemNamed(String name) {
    Item item = ITEM_BY_NAME.get(name);
    if (item == null) {
      throw new IllegalArgumentException("no object named '" + name + "'");
    }
    return item;
  }

  /** The receptacle that applies {@code treatment}. */
  static Receptacle treating(Treatment treatment) {
    return RECEPTACLES.stream().filter(r -> r.treatment().equals(Optional.of(treatment))).findFirst().orElseThrow();
  }

  static List<Item> itemsOf(Category category) {
    return ITEMS.stream().filter(i -> i.category() == category).toList();
  }
}
