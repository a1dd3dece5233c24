package io.memloop.bench;

import io.memloop.MemLoopException;
import java.util.List;

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
    return all().stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow(() -> MemLoopException.invalid("environments", "unknown environment '" + name + "' (known: "
            + String.join(", ", names()) + ")"));
  }

  private static EnvironmentFactory sql() {
    return new EnvironmentFactory() {
      @Override
      public String name() {
        return SqlEnvironment.NAME;
      }

      @Override
      public Environment create(long seed, BenchSize size) {
        SqlEnvironment.Knobs knobs = size == BenchSize.QUICK
            ? new SqlEnvironment.Knobs(60, 0.4, 20, SqlEnvironment.DEFAULT_SLIP)
            : new SqlEnvironment.Knobs(120, 0.4, 40, SqlEnvironment.DEFAULT_SLIP);
        return SqlEnvironment.generate(seed, knobs);
      }
    };
  }

  private static EnvironmentFactory textWorld() {
    return factory(TextWorldEnvironment.NAME, (seed, size) -> TextWorldEnvironment.generate(seed, size == BenchSize.QUICK
        ? TextWorldEnvironment.Knobs.defaults()
        : new TextWorldEnvironment.Knobs(8, 8, 6, 4, 16, TextWorldEnvironment.DEFAULT_SLIP)));
  }

  private static EnvironmentFactory hardQuestions() {
    return factory(HardQuestionsEnvironment.NAME, (seed, size) -> HardQuestionsEnvironment.generate(seed, size == BenchSize.QUICK
        ? HardQuestionsEnvironment.Knobs.defaults()
        : new HardQuestionsEnvironment.Knobs(120, 0.5, 24, HardQuestionsEnvironment.DEFAULT_SLIP)));
  }

  private static EnvironmentFactory factory(String name, java.util.function.BiFunction<Long, BenchSize, Environment> create) {
    return new EnvironmentFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Environment create(long seed, BenchSize size) {
        return create.apply(seed, size);
      }
    };
  }

  private static EnvironmentFactory recurringOps() {
    return new EnvironmentFactory() {
      @Override
      public String name() {
        return RecurringTasksEnvironment.NAME;
      }

      @Override
      public Environment create(long seed, BenchSize size) {
        int families = size == BenchSize.QUICK ? 20 : Math.min(40, RecurringTasksEnvironment.maxFamilies());
        return RecurringTasksEnvironment.generate(seed, new RecurringTasksEnvironment.Knobs(
            families, 3, 0.25, RecurringTasksEnvironment.DEFAULT_SLIP, families * 3 / 5));
      }
    };
  }
}
