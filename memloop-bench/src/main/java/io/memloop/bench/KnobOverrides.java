package io.memloop.bench;

import io.memloop.Checks;
import io.memloop.MemLoopException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Overrides of an environment's knobs by name ({@code memloop bench --knob text-world.rooms=9}): a copy of the
 * environment's {@code Knobs} record with some components replaced, parsed from text to the component's type and
 * checked by the record's own constructor. Outcome noise ({@code slipProbability}) is not a knob here: it has its
 * own option, for every environment at once. Stateless.
 */
final class KnobOverrides {
  /** The outcome-noise component every environment's knobs have; set with {@code --slip}, not by name. */
  static final String SLIP = "slipProbability";

  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,9}");

  private KnobOverrides() {}

  /** The knobs of {@code type} that can be overridden, in the record's order. */
  static List<String> names(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).filter(n -> !n.equals(SLIP)).toList();
  }

  /**
   * {@code base} with {@code overrides} (knob name → value text) applied.
   *
   * @param environment the environment's name, for errors
   * @param derive adjusts the values (name → value) before the record is built, given the names overridden: for a
   *     knob whose default is derived from another's
   * @throws MemLoopException INVALID_ARGUMENT naming the knob: an unknown name, {@link #SLIP}, a value that is not
   *     a number of the knob's type, or one the record rejects
   */
  static <K extends Record> K apply(
      String environment, K base, Map<String, String> overrides, BiConsumer<Map<String, Object>, Set<String>> derive) {
    @SuppressWarnings("unchecked")
    Class<K> type = (Class<K>) base.getClass();
    RecordComponent[] components = type.getRecordComponents();
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, Class<?>> types = new LinkedHashMap<>();
    for (RecordComponent c : components) {
      types.put(c.getName(), c.getType());
      try {
        values.put(c.getName(), c.getAccessor().invoke(base));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read knob " + c.getName() + " of " + type.getName(), e);
      }
    }
    overrides.forEach((name, text) -> {
      String knob = environment + "." + Checks.abbreviate(name);
      if (name.equals(SLIP)) {
        throw MemLoopException.invalid("knob", knob + ": outcome noise is set for every environment with --slip");
      }
      Class<?> t = types.get(name);
      if (t == null) {
        throw MemLoopException.invalid("knob", knob + ": unknown knob (" + environment + " has "
            + String.join(", ", names(type)) + ")");
      }
      values.put(name, parse(knob, text, t));
    });
    derive.accept(values, overrides.keySet());
    Class<?>[] signature = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
    try {
      Constructor<K> canonical = type.getDeclaredConstructor(signature);
      return canonical.newInstance(values.values().toArray());
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) {
        throw MemLoopException.invalid("knob", environment + ": " + bad.getMessage());
      }
      throw new IllegalStateException("cannot build the knobs of " + environment, e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build the knobs of " + environment, e);
    }
  }

  private static Object parse(String knob, String text, Class<?> type) {
    if (type == int.class) {
      if (text == null || !INTEGER.matcher(text).matches()) {
        throw MemLoopException.invalid("knob", knob + ": expected a whole number, got '" + Checks.abbreviate(text) + "'");
      }
      return Integer.parseInt(text);
    }
    if (type == double.class) {
      try {
        return Checks.parseDecimal(text, "knob");
      } catch (MemLoopException e) {
        throw MemLoopException.invalid("knob", knob + ": expected a decimal number, got '" + Checks.abbreviate(text) + "'");
      }
    }
    throw new IllegalStateException("knob " + knob + " has an unsupported type " + type);
  }
}
