package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a text-world task asks for, as ALFWorld's task types: put an object somewhere, optionally
 * cleaned, heated or cooled first, or find a key and open what it locks.
 *
 * @param object the object to place, or the key for {@link Type#OPEN_WITH_KEY}
 * @param target the receptacle to place it in, or the one to open
 */
record TextWorldGoal(Type type, String object, String target) {

  enum Type {
    PLACE(Optional.empty()),
    CLEAN_PLACE(Optional.of(Treatment.CLEAN)),
    HEAT_PLACE(Optional.of(Treatment.HEAT)),
    COOL_PLACE(Optional.of(Treatment.COOL)),
    OPEN_WITH_KEY(Optional.empty());

    final Optional<Treatment> treatment;

    Type(Optional<Treatment> treatment) {
      this.treatment = treatment;
    }
  }

  /** A goal read from an intent, with the house it names. */
  record Parsed(String house, TextWorldGoal goal) {}

  private static final Pattern PUT =
      Pattern.compile("In the (.+) house, put an? (clean )?(\\S+) (?:in|on) the (.+)\\.");
  private static final Pattern TREAT_AND_PUT =
      Pattern.compile("In the (.+) house, (heat|cool) an? (\\S+) and put it (?:in|on) the (.+)\\.");
  private static final Pattern KEY = Pattern.compile("In the (.+) house, find the (\\S+) and open the (.+)\\.");

  Optional<Treatment> treatment() {
    return type.treatment;
  }

  /**
   * How the policy reads the goal at a glance: by its verb. "put a clean mug in ..." and "put a mug
   * in ..." read alike (both {@code put}), which is how a plan for one is taken for the other.
   */
  String family() {
    return switch (type) {
      case PLACE, CLEAN_PLACE -> "put";
      case HEAT_PLACE -> "heat";
      case COOL_PLACE -> "cool";
      case OPEN_WITH_KEY -> "open";
    };
  }

  /** The task's natural-language intent in {@code house}. */
  String intent(String house) {
    String prefix = "In the " + house + " house, ";
    String object = TextWorldCatalogue.itemNamed(this.object).withArticle();
    String where = type == Type.OPEN_WITH_KEY ? "" : TextWorldCatalogue.receptacleNamed(target).preposition() + " the "
        + target;
    return prefix + switch (type) {
      case PLACE -> "put " + object + " " + where + ".";
      case CLEAN_PLACE -> "put a clean " + this.object + " " + where + ".";
      case HEAT_PLACE -> "heat " + object + " and put it " + where + ".";
      case COOL_PLACE -> "cool " + object + " and put it " + where + ".";
      case OPEN_WITH_KEY -> "find the " + this.object + " and open the " + target + ".";
    };
  }

  /** Reads an intent written by {@link #intent}; empty for any other text. */
  static Optional<Parsed> parse(String intent) {
    Matcher m = PUT.matcher(intent);
    if (m.matches()) {
      Type type = m.group(2) == null ? Type.PLACE : Type.CLEAN_PLACE;
      return Optional.of(new Parsed(m.group(1), new TextWorldGoal(type, m.group(3), m.group(4))));
    }
    m = TREAT_AND_PUT.matcher(intent);
    if (m.matches()) {
      Type type = m.group(2).equals("heat") ? Type.HEAT_PLACE : Type.COOL_PLACE;
      return Optional.of(new Parsed(m.group(1), new TextWorldGoal(type, m.group(3), m.group(4))));
    }
    m = KEY.matcher(intent);
    if (m.matches()) {
      return Optional.of(new Parsed(m.group(1), new TextWorldGoal(Type.OPEN_WITH_KEY, m.group(2), m.group(3))));
    }
    return Optional.empty();
  }
}
