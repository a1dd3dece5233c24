package io.memloop.bench.textworld;

import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One text-world command, as the policy issues it and a plan records it ("take apple from fridge").
 *
 * @param object the object acted on, {@code ""} if none
 * @param place the room ({@link Verb#GO}) or receptacle acted on, {@code ""} for {@link Verb#LOOK}
 */
record TextWorldAction(Verb verb, String object, String place) {

  enum Verb {
    LOOK,
    GO,
    OPEN,
    TAKE,
    PUT,
    CLEAN,
    HEAT,
    COOL,
    UNLOCK
  }

  private static final Pattern GO = Pattern.compile("go to (.+)");
  private static final Pattern OPEN = Pattern.compile("open (.+)");
  private static final Pattern TAKE = Pattern.compile("take (\\S+) from (.+)");
  private static final Pattern PUT = Pattern.compile("put (\\S+) (?:in|on) (.+)");
  private static final Pattern TREAT = Pattern.compile("(clean|heat|cool) (\\S+) with (.+)");
  private static final Pattern UNLOCK = Pattern.compile("unlock (.+) with (\\S+)");

  static TextWorldAction look() {
    return new TextWorldAction(Verb.LOOK, "", "");
  }

  static TextWorldAction go(String room) {
    return new TextWorldAction(Verb.GO, "", room);
  }

  static TextWorldAction open(String receptacle) {
    return new TextWorldAction(Verb.OPEN, "", receptacle);
  }

  static TextWorldAction take(String object, String receptacle) {
    return new TextWorldAction(Verb.TAKE, object, receptacle);
  }

  static TextWorldAction put(String object, String receptacle) {
    return new TextWorldAction(Verb.PUT, object, receptacle);
  }

  static TextWorldAction treat(Treatment treatment, String object, String receptacle) {
    Verb verb = switch (treatment) {
      case CLEAN -> Verb.CLEAN;
      case HEAT -> Verb.HEAT;
      case COOL -> Verb.COOL;
    };
    return new TextWorldAction(verb, object, receptacle);
  }

  static TextWorldAction unlock(String lockable, String key) {
    return new TextWorldAction(Verb.UNLOCK, key, lockable);
  }

  /** The treatment a CLEAN, HEAT or COOL command applies. */
  Optional<Treatment> treatment() {
    return switch (verb) {
      case CLEAN -> Optional.of(Treatment.CLEAN);
      case HEAT -> Optional.of(Treatment.HEAT);
      case COOL -> Optional.of(Treatment.COOL);
      default -> Optional.empty();
    };
  }

  /** The same command on other things (a plan mapped to another task). */
  TextWorldAction with(String object, String place) {
    return new TextWorldAction(verb, object, place);
  }

  String text() {
    return switch (verb) {
      case LOOK -> "look";
      case GO -> "go to " + place;
      case OPEN -> "open " + place;
      case TAKE -> "take " + object + " from " + place;
      case PUT -> "put " + object + " "
          + TextWorldCatalogue.receptacle(place).map(TextWorldCatalogue.Receptacle::preposition).orElse("in") + " "
          + place;
      case CLEAN, HEAT, COOL -> verb.name().toLowerCase(Locale.ROOT) + " " + object + " with " + place;
      case UNLOCK -> "unlock " + place + " with " + object;
    };
  }

  @Override
  public String toString() {
    return text();
  }

  /** Reads a command written by {@link #text}; empty for anything else. */
  static Optional<TextWorldAction> parse(String text) {
    String t = text.strip();
    if (t.equals("look")) {
      return Optional.of(look());
    }
    Matcher m = TAKE.matcher(t);
    if (m.matches()) {
      return Optional.of(take(m.group(1), m.group(2)));
    }
    m = PUT.matcher(t);
    if (m.matches()) {
      return Optional.of(put(m.group(1), m.group(2)));
    }
    m = TREAT.matcher(t);
    if (m.matches()) {
      Treatment treatment = Treatment.valueOf(m.group(1).toUpperCase(Locale.ROOT));
      return Optional.of(treat(treatment, m.group(2), m.group(3)));
    }
    m = UNLOCK.matcher(t);
    if (m.matches()) {
      return Optional.of(unlock(m.group(1), m.group(2)));
    }
    m = GO.matcher(t);
    if (m.matches()) {
      return Optional.of(go(m.group(1)));
    }
    m = OPEN.matcher(t);
    if (m.matches()) {
      return Optional.of(open(m.group(1)));
    }
    return Optional.empty();
  }
}
