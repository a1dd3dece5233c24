package io.memloop.bench;

import io.memloop.Checks;
import io.memloop.MemLoopException;
import io.memloop.bench.hardquestions.HardQuestionsEnvironment;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.sql.SqlEnvironment;
import io.memloop.bench.textworld.TextWorldEnvironment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/** The benchmark's environments, by name. */
final class EnvironmentCatalog {
  private EnvironmentCatalog() {}

  static List<EnvironmentFactory> all() {
    return List.of(recurringOps(), sql(), textWorld(), hardQuestions());
  }

  static List<String> names() {
    return all().stream().map(EnvironmentFactory::name).toList();
  }

  static EnvironmentFactory named(String name) {
    return named(name, "environments");
  }

  /** The environment {@code name}; an unknown name is an INVALID_ARGUMENT of {@code field}. */
  static EnvironmentFactory named(String name, String field) {
    return all().stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow(() -> MemLoopException.invalid(field, "unknown environment '" + Checks.abbreviate(name) + "' (known: "
            + String.join(", ", names()) + ")"));
  }

  private static EnvironmentFactory sql() {
    return factory(SqlEnvironment.NAME, SqlEnvironment.Knobs.class, (size, slip) -> {
      double s = slip == null ? SqlEnvironment.DEFAULT_SLIP : slip;
      return size == BenchSize.QUICK ? new SqlEnvironment.Knobs(60, 0.4, 20, s) : new SqlEnvironment.Knobs(120, 0.4, 40, s);
    }, NO_DERIVED, SqlEnvironment::generate);
  }

  private static EnvironmentFactory textWorld() {
    return factory(TextWorldEnvironment.NAME, TextWorldEnvironment.Knobs.class, (size, slip) -> {
      double s = slip == null ? TextWorldEnvironment.DEFAULT_SLIP : slip;
      return size == BenchSize.QUICK ? TextWorldEnvironment.Knobs.defaults().withSlip(s)
          : new TextWorldEnvironment.Knobs(8, 8, 6, 4, 16, s);
    }, NO_DERIVED, TextWorldEnvironment::generate);
  }

  private static EnvironmentFactory hardQuestions() {
    return factory(HardQuestionsEnvironment.NAME, HardQuestionsEnvironment.Knobs.class, (size, slip) -> {
      double s = slip == null ? HardQuestionsEnvironment.DEFAULT_SLIP : slip;
      return size == BenchSize.QUICK ? HardQuestionsEnvironment.Knobs.defaults().withSlip(s)
          : new HardQuestionsEnvironment.Knobs(120, 0.5, 24, s);
    }, NO_DERIVED, HardQuestionsEnvironment::generate);
  }

  private static EnvironmentFactory recurringOps() {
    return factory(RecurringTasksEnvironment.NAME, RecurringTasksEnvironment.Knobs.class, (size, slip) -> {
      int families = size == BenchSize.QUICK ? 20 : Math.min(40, RecurringTasksEnvironment.maxFamilies());
      return new RecurringTasksEnvironment.Knobs(
          families, 3, 0.25, slip == null ? RecurringTasksEnvironment.DEFAULT_SLIP : slip, heldOutOps(families));
    }, (values, overridden) -> { // held-out requests follow the number of families unless set themselves
      if (overridden.contains("families") && !overridden.contains("heldOut")) {
        values.put("heldOut", heldOutOps((Integer) values.get("families")));
      }
    }, RecurringTasksEnvironment::generate);
  }

  private static int heldOutOps(int families) {
    return families * 3 / 5;
  }

  private static final BiConsumer<Map<String, Object>, Set<String>> NO_DERIVED = (values, overridden) -> {};

  private static <K extends Record> EnvironmentFactory factory(
      String name, Class<K> type, BiFunction<BenchSize, @Nullable Double, K> base,
      BiConsumer<Map<String, Object>, Set<String>> derive, BiFunction<Long, K, Environment> generate) {
    return new EnvironmentFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public List<String> knobNames() {
        return KnobOverrides.names(type);
      }

      @Override
      public K knobs(BenchSize size, @Nullable Double slip, Map<String, String> overrides) {
        K k = base.apply(size, slip);
        return overrides.isEmpty() ? k : KnobOverrides.apply(name, k, overrides, derive);
      }

      @Override
      public Environment create(long seed, BenchSize size, @Nullable Double slip, Map<String, String> overrides) {
        return generate.apply(seed, knobs(size, slip, overrides));
      }
    };
  }
}
