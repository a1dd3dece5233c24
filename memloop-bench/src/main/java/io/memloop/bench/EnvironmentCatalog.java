package io.memloop.bench;

import io.memloop.MemLoopException;
import io.memloop.bench.hardquestions.HardQuestionsEnvironment;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.sql.SqlEnvironment;
import io.memloop.bench.textworld.TextWorldEnvironment;
import java.util.List;
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
      public Environment create(long seed, BenchSize size, @Nullable Double slip) {
        double s = slip == null ? SqlEnvironment.DEFAULT_SLIP : slip;
        SqlEnvironment.Knobs knobs = size == BenchSize.QUICK
            ? new SqlEnvironment.Knobs(60, 0.4, 20, s)
            : new SqlEnvironment.Knobs(120, 0.4, 40, s);
        return SqlEnvironment.generate(seed, knobs);
      }
    };
  }

  private static EnvironmentFactory textWorld() {
    return factory(TextWorldEnvironment.NAME, (seed, size, slip) -> {
      double s = slip == null ? TextWorldEnvironment.DEFAULT_SLIP : slip;
      return TextWorldEnvironment.generate(seed, size == BenchSize.QUICK
          ? TextWorldEnvironment.Knobs.defaults().withSlip(s)
          : new TextWorldEnvironment.Knobs(8, 8, 6, 4, 16, s));
    });
  }

  private static EnvironmentFactory hardQuestions() {
    return factory(HardQuestionsEnvironment.NAME, (seed, size, slip) -> {
      double s = slip == null ? HardQuestionsEnvironment.DEFAULT_SLIP : slip;
      return HardQuestionsEnvironment.generate(seed, size == BenchSize.QUICK
          ? HardQuestionsEnvironment.Knobs.defaults().withSlip(s)
          : new HardQuestionsEnvironment.Knobs(120, 0.5, 24, s));
    });
  }

  /** Creates an environment from a seed, a size and a slip override. */
  @FunctionalInterface
  private interface Maker {
    Environment make(long seed, BenchSize size, @Nullable Double slip);
  }

  private static EnvironmentFactory factory(String name, Maker create) {
    return new EnvironmentFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Environment create(long seed, BenchSize size, @Nullable Double slip) {
        return create.make(seed, size, slip);
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
      public Environment create(long seed, BenchSize size, @Nullable Double slip) {
        int families = size == BenchSize.QUICK ? 20 : Math.min(40, RecurringTasksEnvironment.maxFamilies());
        return RecurringTasksEnvironment.generate(seed, new RecurringTasksEnvironment.Knobs(
            families, 3, 0.25, slip == null ? RecurringTasksEnvironment.DEFAULT_SLIP : slip, families * 3 / 5));
      }
    };
  }
}
