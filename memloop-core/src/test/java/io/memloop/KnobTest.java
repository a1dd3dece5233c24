package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The knob table ({@link Knob}) and the builder, settings and docs made from it. */
class KnobTest {

  /**
   * {@code toSettings()} of each preset at 9a469e6, before the table, with each knob added since at its value: the
   * presets must not move but by a decision (default: firstEncounterK2 8, a task with no record of its
   * own is shown eight; exploreBeyondBudget 0.9, a task keeps exploring where exploring pays; firstEncounterK1 32, such a
   * task's eight are recalled from 32 intents; freshness 0.75, such a task is shown newer memories first where a
   * success went stale and tasks seldom come back; similarityBlocks 0, vectors split as the embedder makes them;
   * similarityDirections 8, a similarity learned from rewards; textSimilarity LEARNED, such a task's ranking weighs the
   * words its text shares with each memory's intent too; doubt LEARNED, such a task may be shown successes whose latest
   * use failed last, as the namespace's rewards say it pays; directionsUse LEARNED, such a task is ranked by the learned
   * similarity as the namespace's rewards say it pays; textAlone LEARNED, such a task is ranked by its text's words
   * alone as the namespace's rewards say it pays; the other presets: 0, OFF, ALWAYS and NEVER, as MemRL).
   */
  static final Map<Preset, String> PRESETS_BEFORE_THE_TABLE = Map.of(
      Preset.MEMRL, "{k1=5, k2=3, similarityThreshold=0.5, lambda=0.5, alpha=0.3, rewardMin=-1.0, rewardMax=1.0, "
          + "qInitSuccess=0.0, qInitFailure=0.0, qInitUnknown=0.0, qMin=-10.0, mergeThreshold=0.9, exploration=NONE, "
          + "epsilon=0.0, similarityNormalization=FIXED, simMean=0.5, simStd=0.1, retrievalTtl=PT168H, "
          + "similarityScope=INTENT_GROUP, tieBreak=OLDEST_FIRST, consolidation=NONE, taskLearning=OFF, "
          + "exploreAfterFailures=2, exploreBudget=4, maxMemories=0, mergeScope=NEAREST, gamma=0.0, noteDepth=LEARNED, firstEncounterK2=0, "
          + "exploreBeyondBudget=0.9, firstEncounterK1=0, freshness=0.0, similarityBlocks=0, similarityDirections=0, "
          + "textSimilarity=OFF, doubt=OFF, directionsUse=ALWAYS, textAlone=NEVER}",
      Preset.SIMILARITY, "{k1=5, k2=3, similarityThreshold=0.5, lambda=0.0, alpha=0.0, rewardMin=-1.0, rewardMax=1.0, "
          + "qInitSuccess=0.0, qInitFailure=0.0, qInitUnknown=0.0, qMin=-10.0, mergeThreshold=0.9, exploration=NONE, "
          + "epsilon=0.0, similarityNormalization=POOL, simMean=0.5, simStd=0.1, retrievalTtl=PT168H, "
          + "similarityScope=INTENT_GROUP, tieBreak=OLDEST_FIRST, consolidation=NONE, taskLearning=OFF, "
          + "exploreAfterFailures=2, exploreBudget=4, maxMemories=0, mergeScope=NEAREST, gamma=0.0, noteDepth=LEARNED, firstEncounterK2=0, "
          + "exploreBeyondBudget=0.9, firstEncounterK1=0, freshness=0.0, similarityBlocks=0, similarityDirections=0, "
          + "textSimilarity=OFF, doubt=OFF, directionsUse=ALWAYS, textAlone=NEVER}",
      Preset.DEFAULT, "{k1=5, k2=3, similarityThreshold=0.5, lambda=0.0, alpha=0.3, rewardMin=-1.0, rewardMax=1.0, "
          + "qInitSuccess=0.0, qInitFailure=0.0, qInitUnknown=0.0, qMin=-10.0, mergeThreshold=0.9, exploration=NONE, "
          + "epsilon=0.0, similarityNormalization=POOL, simMean=0.5, simStd=0.1, retrievalTtl=PT168H, "
          + "similarityScope=MEMORY, tieBreak=NEWEST_FIRST, consolidation=MERGE_FAILURES, taskLearning=ON, "
          + "exploreAfterFailures=2, exploreBudget=4, maxMemories=0, mergeScope=RETRIEVED, gamma=0.0, noteDepth=LEARNED, firstEncounterK2=8, "
          + "exploreBeyondBudget=0.9, firstEncounterK1=32, freshness=0.75, similarityBlocks=0, similarityDirections=8, "
          + "textSimilarity=LEARNED, doubt=NOTES_FIRST, directionsUse=LEARNED, textAlone=LEARNED}");

  @Test
  void table_isTheRecordsComponents_inOrder_withTheirTypes() {
    RecordComponent[] components = MemLoopConfig.class.getRecordComponents();
    assertThat(Arrays.stream(Knob.values()).map(Knob::key).toList())
        .containsExactlyElementsOf(Arrays.stream(components).map(RecordComponent::getName).toList());
    for (Knob k : Knob.values()) {
      Class<?> type = components[k.ordinal()].getType();
      Class<?> expected = switch (k.type()) {
        case INTEGER -> int.class;
        case COUNT -> long.class;
        case DECIMAL -> double.class;
        case DURATION -> Duration.class;
        case CHOICE -> type.isEnum() ? type : Enum.class;
      };
      assertThat(type).as(k.key()).isEqualTo(expected);
      assertThat(k.doc()).as(k.key()).isNotBlank().doesNotContain("\n");
    }
  }

  @Test
  void presets_areBitIdenticalToThoseBeforeTheTable() {
    for (Preset p : Preset.values()) {
      MemLoopConfig c = MemLoopConfig.preset(p);
      assertThat(c.toSettings().toString()).as(p.id()).isEqualTo(PRESETS_BEFORE_THE_TABLE.get(p));
      for (Knob k : Knob.values()) {
        assertThat(k.defaultValue(p)).as("%s %s", p.id(), k.key()).isEqualTo(c.toSettings().get(k.key()));
      }
    }
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL);
    assertThat(Double.doubleToRawLongBits(memrl.alpha())).isEqualTo(Double.doubleToRawLongBits(0.3));
    assertThat(Double.doubleToRawLongBits(memrl.simStd())).isEqualTo(Double.doubleToRawLongBits(0.1));
    assertThat(Double.doubleToRawLongBits(memrl.mergeThreshold())).isEqualTo(Double.doubleToRawLongBits(0.9));
  }

  @Test
  void setter_withBadValue_failsAtOnce_namingTheKnob() {
    MemLoopConfig.Builder b = MemLoopConfig.builder();
    assertThatThrownBy(() -> b.k2(0)).isInstanceOf(MemLoopException.class).hasMessage("k2: must be in [1, 1000], got 0");
    assertThatThrownBy(() -> b.lambda(1.5)).hasMessage("lambda: must be in [0.0, 1.0], got 1.5");
    assertThatThrownBy(() -> b.rewardMin(Double.NaN)).hasMessage("rewardMin: must be a finite number, got NaN");
    assertThatThrownBy(() -> b.qMin(Double.POSITIVE_INFINITY)).hasMessageStartingWith("qMin: must be a number or -Infinity");
    assertThatThrownBy(() -> b.maxMemories(-1)).hasMessage("maxMemories: must be in [0, 2147483647], got -1");
    assertThatThrownBy(() -> b.retrievalTtl(Duration.ZERO)).hasMessageStartingWith("retrievalTtl: must be positive");
    assertThatThrownBy(() -> b.exploration(null)).hasMessage("exploration: must not be null");
    assertThatThrownBy(() -> b.set("exploreBudget", "1001")).hasMessage("exploreBudget: must be in [0, 1000], got 1001");
    assertThatThrownBy(() -> b.set("epsilon", "2")).hasMessage("epsilon: must be in [0.0, 1.0], got 2.0");
    assertThatThrownBy(() -> b.set("qInit", "NaN")).hasMessageStartingWith("qInitSuccess: expected a decimal number");
    assertThatThrownBy(() -> b.set("tieBreak", "random")).hasMessage(
        "tieBreak: unknown value 'random' (expected one of [OLDEST_FIRST, NEWEST_FIRST])");
    // none of those reached the builder
    assertThat(b.build()).isEqualTo(MemLoopConfig.preset(Preset.DEFAULT));
  }

  @Test
  void conflict_namesBothKnobs_inEitherOrder() {
    String expected = "exploration: NONE conflicts with epsilon=0.1; set exploration EPSILON_GREEDY or epsilon 0";
    assertThatThrownBy(() -> MemLoopConfig.builder().set("epsilon", "0.1").set("exploration", "NONE").build())
        .isInstanceOf(MemLoopException.class).hasMessage(expected)
        .satisfies(e -> assertThat(((MemLoopException) e).field()).isEqualTo("exploration"));
    assertThatThrownBy(() -> MemLoopConfig.builder().set("exploration", "NONE").set("epsilon", "0.1").build())
        .hasMessage(expected);
    // epsilon alone no longer switches exploration on: the preset's NONE stays, and build says so
    assertThatThrownBy(() -> MemLoopConfig.builder().epsilon(0.1).build()).hasMessage(expected);
    assertThatThrownBy(() -> MemLoopConfig.builder().rewardMin(1).rewardMax(-1).build())
        .hasMessage("rewardMin: 1.0 conflicts with rewardMax=-1.0; rewardMin must be below rewardMax");
    MemLoopConfig on = MemLoopConfig.builder().epsilon(0.1).exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).build();
    assertThat(MemLoopConfig.builder().exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.1).build())
        .isEqualTo(on);
    // and epsilon 0 no longer switches it off
    assertThat(on.toBuilder().epsilon(0).build().exploration()).isEqualTo(MemLoopConfig.Exploration.EPSILON_GREEDY);
  }

  @Test
  void shorthand_yieldsToAKnobSetByItsOwnName_inEitherOrder() {
    MemLoopConfig a = MemLoopConfig.builder().set("qInit", "0.5").set("qInitFailure", "-0.5").build();
    MemLoopConfig b = MemLoopConfig.builder().set("qInitFailure", "-0.5").set("qInit", "0.5").build();
    assertThat(a).isEqualTo(b);
    assertThat(a.qInitSuccess()).isEqualTo(0.5);
    assertThat(a.qInitUnknown()).isEqualTo(0.5);
    assertThat(a.qInitFailure()).isEqualTo(-0.5);
    assertThat(MemLoopConfig.builder().set("delta", "0.7").build().similarityThreshold()).isEqualTo(0.7);
  }

  /** Property: any set of knobs, given in any order, makes the same configuration or the same error. */
  @Test
  void settings_inAnyOrder_giveTheSameConfigOrTheSameError() {
    Random random = new Random(26);
    List<String> names = new ArrayList<>(MemLoopConfig.KNOBS);
    int built = 0;
    int refused = 0;
    for (int round = 0; round < 2_000; round++) {
      Collections.shuffle(names, random);
      Map<String, String> settings = new LinkedHashMap<>();
      for (String name : names.subList(0, 1 + random.nextInt(names.size()))) {
        settings.put(name, valueFor(name, random));
      }
      List<Map.Entry<String, String>> order = new ArrayList<>(settings.entrySet());
      String first = outcome(order);
      for (int permutation = 0; permutation < 4; permutation++) {
        Collections.shuffle(order, random);
        assertThat(outcome(order)).as("settings %s in the order %s", settings, order).isEqualTo(first);
      }
      if (first.startsWith("config ")) {
        built++;
      } else {
        refused++;
      }
    }
    // both sides were exercised, conflicts included
    assertThat(built).isGreaterThan(200);
    assertThat(refused).isGreaterThan(200);
  }

  private static String outcome(List<Map.Entry<String, String>> settings) {
    MemLoopConfig.Builder b = MemLoopConfig.preset(Preset.MEMRL).toBuilder();
    try {
      settings.forEach(e -> b.set(e.getKey(), e.getValue()));
      return "config " + b.build();
    } catch (MemLoopException e) {
      return "error " + e.getMessage();
    }
  }

  /** A valid value of the knob (or shorthand) {@code name}, sometimes at its bounds, in various spellings. */
  private static String valueFor(String name, Random random) {
    if (name.equals("qInit")) {
      return Double.toString(random.nextInt(5) - 2);
    }
    Knob k = Knob.named(name).orElseThrow();
    return switch (k.type()) {
      case INTEGER, COUNT -> {
        String[] b = k.bounds().substring(1, k.bounds().length() - 1).split(", ");
        long min = Long.parseLong(b[0]);
        long max = Long.parseLong(b[1]);
        yield Long.toString(random.nextBoolean() ? min + random.nextInt(5) : max - random.nextInt(2));
      }
      case DECIMAL -> switch (k.bounds()) {
        case "finite" -> Double.toString(random.nextInt(9) / 4.0 - 1);
        case "finite or -Infinity" -> random.nextInt(4) == 0 ? "-Infinity" : Double.toString(-random.nextInt(20));
        default -> {
          String[] b = k.bounds().substring(1, k.bounds().length() - 1).split(", ");
          double min = Double.parseDouble(b[0]);
          double max = Double.parseDouble(b[1]);
          double v = switch (random.nextInt(4)) {
            case 0 -> min;
            case 1 -> max;
            default -> min + (max - min) * random.nextDouble();
          };
          yield Double.toString(v);
        }
      };
      case DURATION -> random.nextBoolean() ? "PT" + (1 + random.nextInt(48)) + "H" : Integer.toString(1 + random.nextInt(86_400));
      case CHOICE -> {
        String c = k.choices().get(random.nextInt(k.choices().size()));
        yield random.nextBoolean() ? c : c.toLowerCase(Locale.ROOT).replace('_', '-');
      }
    };
  }

  @Test
  void everyKnob_roundTripsThroughSettings_atItsBoundsAndEveryChoice() {
    Random random = new Random(1001);
    for (Knob k : Knob.values()) {
      List<String> values = new ArrayList<>(k.choices());
      for (int i = 0; i < 20; i++) {
        values.add(valueFor(k.key(), random));
      }
      for (String v : values) {
        MemLoopConfig.Builder b = MemLoopConfig.preset(Preset.MEMRL).toBuilder()
            .exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).rewardMin(-1e300).rewardMax(1e300);
        if (k == Knob.EXPLORATION) {
          b.epsilon(0);
        }
        MemLoopConfig c = b.set(k.key(), v).build();
        Map<String, String> settings = c.toSettings();
        assertThat(settings.keySet()).containsExactlyElementsOf(Arrays.stream(Knob.values()).map(Knob::key).toList());
        assertThat(MemLoopConfig.fromSettings(settings)).as("%s=%s", k.key(), v).isEqualTo(c);
        assertThat(settings.get(k.key())).isEqualTo(Knob.text(k.parse(v)));
      }
    }
  }

  @Test
  void settingsStoredToday_loadToTheSameConfig() {
    for (Preset p : Preset.values()) {
      Map<String, String> stored = parseMap(PRESETS_BEFORE_THE_TABLE.get(p));
      assertThat(MemLoopConfig.fromSettings(stored)).isEqualTo(MemLoopConfig.preset(p));
    }
    Map<String, String> explored = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.MEMRL));
    explored.put("exploration", "EPSILON_GREEDY");
    explored.put("epsilon", "0.2");
    assertThat(MemLoopConfig.fromSettings(explored)).isEqualTo(MemLoopConfig.preset(Preset.MEMRL).toBuilder()
        .exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.2).build());
    // recorded before the later knobs existed: they read as the behaviour of then
    Map<String, String> old = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.SIMILARITY));
    Arrays.stream(Knob.values()).filter(k -> k.legacyValue().isPresent()).forEach(k -> old.remove(k.key()));
    assertThat(old).containsKeys("k1", "retrievalTtl").doesNotContainKeys("taskLearning", "noteDepth");
    // exploreBeyondBudget reads as 1 (stop at the budget, as then) where today's presets say 0.9
    assertThat(MemLoopConfig.fromSettings(old))
        .isEqualTo(MemLoopConfig.preset(Preset.SIMILARITY).toBuilder().exploreBeyondBudget(1).build());
    // a default namespace recorded before firstEncounterK1: its new tasks keep recalling k1 intents, as then
    Map<String, String> before = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    before.remove("firstEncounterK1");
    before.remove("freshness");
    before.remove("similarityBlocks");
    before.remove("similarityDirections");
    before.remove("textSimilarity");
    before.remove("doubt");
    before.remove("directionsUse");
    before.remove("textAlone");
    assertThat(MemLoopConfig.fromSettings(before))
        .isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK1(0).freshness(0)
            .similarityDirections(0).textSimilarity(MemLoopConfig.TextSimilarity.OFF).doubt(MemLoopConfig.Doubt.OFF)
            .directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).textAlone(MemLoopConfig.TextAlone.NEVER).build());
    // a default namespace recorded before textSimilarity keeps ranking new tasks by the vectors alone
    Map<String, String> beforeText = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    beforeText.remove("textSimilarity");
    beforeText.remove("doubt");
    beforeText.remove("directionsUse");
    beforeText.remove("textAlone");
    assertThat(MemLoopConfig.fromSettings(beforeText))
        .isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().textSimilarity(MemLoopConfig.TextSimilarity.OFF)
            .doubt(MemLoopConfig.Doubt.OFF).directionsUse(MemLoopConfig.DirectionsUse.ALWAYS)
            .textAlone(MemLoopConfig.TextAlone.NEVER).build());
    // a default namespace recorded before NOTES_FIRST (doubt=LEARNED stored) keeps demoting only its doubted successes
    Map<String, String> beforeNotes = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    beforeNotes.put("doubt", "LEARNED");
    assertThat(MemLoopConfig.fromSettings(beforeNotes))
        .isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().doubt(MemLoopConfig.Doubt.LEARNED).build());
    // a default namespace recorded before doubt keeps every success where similarity put it
    Map<String, String> beforeDoubt = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    beforeDoubt.remove("doubt");
    beforeDoubt.remove("directionsUse");
    beforeDoubt.remove("textAlone");
    assertThat(MemLoopConfig.fromSettings(beforeDoubt))
        .isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().doubt(MemLoopConfig.Doubt.OFF)
            .directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).textAlone(MemLoopConfig.TextAlone.NEVER).build());
    // a default namespace recorded before directionsUse ranks new tasks by its learned similarity whenever it has one
    Map<String, String> beforeUse = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    beforeUse.remove("directionsUse");
    beforeUse.remove("textAlone");
    assertThat(MemLoopConfig.fromSettings(beforeUse)).isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder()
        .directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).textAlone(MemLoopConfig.TextAlone.NEVER).build());
    // a default namespace recorded before textAlone ranks new tasks by the learned mix of vectors and texts
    Map<String, String> beforeAlone = parseMap(PRESETS_BEFORE_THE_TABLE.get(Preset.DEFAULT));
    beforeAlone.remove("textAlone");
    assertThat(MemLoopConfig.fromSettings(beforeAlone)).isEqualTo(
        MemLoopConfig.preset(Preset.DEFAULT).toBuilder().textAlone(MemLoopConfig.TextAlone.NEVER).build());
    assertThatThrownBy(() -> MemLoopConfig.fromSettings(Map.of())).hasMessage("k1: is missing from the recorded settings");
  }

  private static Map<String, String> parseMap(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String kv : text.substring(1, text.length() - 1).split(", ")) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return m;
  }

  @Test
  void knobNames_areTheTables_withTheShorthandBeforeItsKnobs() {
    assertThat(MemLoopConfig.KNOBS).containsExactly(
        "k1", "k2", "similarityThreshold", "lambda", "alpha", "rewardMin", "rewardMax", "qInit", "qInitSuccess",
        "qInitFailure", "qInitUnknown", "qMin", "mergeThreshold", "exploration", "epsilon", "similarityNormalization",
        "simMean", "simStd", "retrievalTtl", "similarityScope", "tieBreak", "consolidation", "taskLearning",
        "exploreAfterFailures", "exploreBudget", "maxMemories", "mergeScope", "gamma", "noteDepth", "firstEncounterK2",
        "exploreBeyondBudget", "firstEncounterK1", "freshness", "similarityBlocks", "similarityDirections",
        "textSimilarity", "doubt", "directionsUse", "textAlone");
  }

  /**
   * docs/configuration.md is the table, rendered: run with {@code -Dmemloop.writeDocs=true} to rewrite it (then
   * review the diff).
   */
  @Test
  void docsConfiguration_isTheTableRendered() throws IOException {
    Path doc = Path.of("..", "docs", "configuration.md");
    String expected = KnobDocs.markdown();
    String actual = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
    if (Boolean.getBoolean("memloop.writeDocs") && !actual.equals(expected)) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
      actual = expected;
    }
    assertThat(actual).as("docs/configuration.md (rerun with -Dmemloop.writeDocs=true to regenerate it)").isEqualTo(expected);
    for (Knob k : Knob.values()) {
      assertThat(expected).contains("| `" + k.key() + "`");
    }
    assertThat(expected).contains("| `exploration` | choice | NONE, EPSILON_GREEDY | NONE | NONE | NONE |");
    assertThat(expected).contains("- `exploration` and `epsilon`: exploration NONE with epsilon > 0 is refused");
  }
}
