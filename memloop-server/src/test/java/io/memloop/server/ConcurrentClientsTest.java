package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.Memory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N clients × M episodes of retrieve → reward → remember at once, on memories they share: every
 * acknowledged reward must be in the final utilities. Per memory, the acknowledged updates (Q before,
 * Q after, reward) must chain from its initial Q to its final Q with no two updates starting from the same
 * value (that would be a lost update), each one Q + α(r − Q) of the one before: a sequential replay of
 * exactly the acknowledged operations gives the store's final state.
 */
class ConcurrentClientsTest {
  private static final int CLIENTS = 8;
  private static final int EPISODES = 40;
  @TempDir Path dir;

  record Update(double qBefore, double qAfter, double reward) {}

  @Test
  void concurrentEpisodesLoseNoUpdate() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      String ns = "/v1/namespaces/team-a";
      s.send("PUT", ns + "/config", "a", "{\"preset\":\"memrl\"}"); // every selected memory gets the reward
      for (int i = 0; i < 6; i++) {
        s.post(ns + "/memories", "a", "{\"intent\":\"restart the web tier " + (i % 2) + "\",\"experience\":\"seed " + i + "\",\"outcome\":\"success\"}");
      }
      double alpha = s.loop.config("team-a").alpha();
      Map<String, Double> initialQ = new ConcurrentHashMap<>();
      s.loop.store().forEachMemory("team-a", m -> initialQ.put(s.ids.encode("team-a", m.id()), m.q())); // ids as clients see them
      Map<String, List<Update>> updates = new ConcurrentHashMap<>();
      List<String> remembered = new CopyOnWriteArrayList<>();
      try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS)) {
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          int client = c;
          clients.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(1000 + client);
            for (int e = 0; e < EPISODES; e++) {
              String task = "restart the web tier " + random.nextInt(2);
              var r = s.post(ns + "/retrieve", "a", "{\"intent\":\"" + task + "\"}");
              assertThat(r.status()).isEqualTo(200);
              double reward = Math.round((random.nextDouble() * 2 - 1) * 1e6) / 1e6;
              var w = s.post(ns + "/rewards", "a",
                  "{\"retrievalId\":\"" + r.json().get("retrievalId").asText() + "\",\"reward\":" + reward + "}");
              assertThat(w.status()).isEqualTo(200);
              for (JsonNode ch : w.json().get("updated")) {
                updates.computeIfAbsent(ch.get("id").asText(), k -> new CopyOnWriteArrayList<>())
                    .add(new Update(ch.get("qBefore").asDouble(), ch.get("qAfter").asDouble(), reward));
              }
              var m = s.post(ns + "/memories", "a", "{\"intent\":\"" + task + "\",\"experience\":\"client " + client
                  + " episode " + e + "\",\"outcome\":\"" + (reward > 0 ? "success" : "failure") + "\"}");
              assertThat(m.status()).isEqualTo(201);
              remembered.add(m.json().get("id").asText());
              initialQ.putIfAbsent(m.json().get("id").asText(), m.json().get("q").asDouble());
            }
            return null;
          }));
        }
        for (Future<?> f : clients) {
          f.get();
        }
      }
      Map<String, Memory> finals = new HashMap<>();
      s.loop.store().forEachMemory("team-a", m -> finals.put(s.ids.encode("team-a", m.id()), m));
      assertThat(finals).hasSize(6 + CLIENTS * EPISODES);
      assertThat(finals.keySet()).containsAll(remembered);
      int total = 0;
      for (var entry : finals.entrySet()) {
        Memory m = entry.getValue();
        List<Update> chain = new ArrayList<>(updates.getOrDefault(entry.getKey(), List.of()));
        total += chain.size();
        double q = initialQ.get(entry.getKey());
        int applied = 0;
        while (!chain.isEmpty()) {
          final double from = q;
          List<Update> next = chain.stream().filter(u -> u.qBefore() == from).toList();
          assertThat(next).as("%s: updates starting from Q=%s (more than one is a lost update)", m.id(), from).hasSize(1);
          Update u = next.getFirst();
          assertThat(u.qAfter()).as("%s: replayed update", m.id()).isCloseTo(from + alpha * (u.reward() - from), org.assertj.core.data.Offset.offset(1e-12));
          q = u.qAfter();
          chain.remove(u);
          applied++;
        }
        assertThat(m.q()).as(String.format(Locale.ROOT, "%s final Q", m.id())).isEqualTo(q);
        assertThat(m.visits()).as("%s visits", m.id()).isEqualTo(applied);
      }
      assertThat(total).as("rewards reached memories").isGreaterThan(CLIENTS * EPISODES);
    }
  }
}
