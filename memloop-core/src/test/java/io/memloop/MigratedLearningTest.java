package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.StoreCopy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a namespace learned per task moves with it: a copy into another store retrieves as the source does. */
class MigratedLearningTest {
  private static final int DIM = 8;

  private static float[] near(double y) {
    float[] v = new float[DIM];
    v[0] = 1;
    v[1] = (float) y;
    return Vectors.normalized(v, "v");
  }

  private static MemLoop engine(MemoryStore store) {
    return MemLoop.builder().store(store).config(MemLoopConfig.preset(Preset.DEFAULT))
        .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(11).build();
  }

  private static List<String> shown(MemoryStore store, Intent task) {
    // not closed: closing an engine closes its store, which this test reads again (an in-memory store holds nothing else)
    return engine(store).retrieve("team", task).selected().stream().map(Memory::experience).toList();
  }

  @Test
  void aCopiedNamespace_showsWhatItsTaskLearned_asTheSourceDoes() {
    InMemoryStore source = new InMemoryStore(DIM);
    Intent task = Intent.of("restart the payment service", near(0));
    {
      MemLoop loop = engine(source);
      // the nearest experience is wrong for this task, the one behind it right
      loop.remember("team", Intent.of("restart the payments service", near(0.05)), "kill -9 the pid", Outcome.SUCCESS);
      loop.remember("team", Intent.of("restart payment service now", near(0.2)), "systemctl restart payments",
          Outcome.SUCCESS);
      for (int episode = 0; episode < 6; episode++) {
        Retrieval r = loop.retrieve("team", task);
        Memory first = r.selected().getFirst(); // the agent follows the first experience shown
        loop.reward("team", r.id(), first.experience().startsWith("systemctl") ? 1 : -1, List.of(first.id()));
      }
    }
    List<String> learned = shown(source, task);
    assertThat(learned.getFirst()).as("the source learned the task's answer").isEqualTo("systemctl restart payments");

    InMemoryStore copy = new InMemoryStore(DIM);
    StoreCopy.Result r = StoreCopy.copy(source, copy, "team", n -> {});
    assertThat(r.ledgerEntries()).isPositive();
    assertThat(shown(copy, task)).isEqualTo(learned);

    InMemoryStore forgetful = new InMemoryStore(DIM); // the copy of before: memories and utilities, no ledger
    StoreCopy.copy(source, forgetful, "team", n -> {});
    forgetful.deleteLedger("team", forgetful.ledgerKeys("team"));
    assertThat(shown(forgetful, task)).as("without the ledger the task's lesson is lost").isNotEqualTo(learned);
  }
}
