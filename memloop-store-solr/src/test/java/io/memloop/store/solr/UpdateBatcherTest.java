package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;

class UpdateBatcherTest {
  private static SolrInputDocument doc(String id) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", id);
    return d;
  }

  @Test
  void concurrentCallers_shareRequests_eachDocumentSentOnce_neverTwoOfOneIdInARequest_conflictsGoToTheirOwner() throws Exception {
    List<List<String>> requests = new CopyOnWriteArrayList<>();
    Map<String, AtomicInteger> sent = new ConcurrentHashMap<>();
    // the fake cluster: documents whose id ends in 7 fail their version check the first time they are sent
    UpdateBatcher batcher = new UpdateBatcher(docs -> {
      List<String> ids = docs.stream().map(d -> (String) d.getFieldValue("id")).toList();
      requests.add(ids);
      Set<String> conflicts = new HashSet<>();
      for (String id : ids) {
        if (sent.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet() == 1 && id.endsWith("7")) {
          conflicts.add(id);
        }
      }
      return conflicts;
    });
    int callers = 8;
    int calls = 200;
    try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
      List<Future<List<Set<String>>>> futures = new ArrayList<>();
      for (int c = 0; c < callers; c++) {
        int caller = c;
        futures.add(pool.submit(() -> {
          List<Set<String>> results = new ArrayList<>();
          for (int i = 0; i < calls; i++) {
            // each call: one document of its own, and one shared by every caller (the same memory, rewarded by all)
            results.add(batcher.write(List.of(doc("c" + caller + "-" + i), doc("shared-" + (i % 10)))));
          }
          return results;
        }));
      }
      for (int c = 0; c < callers; c++) {
        List<Set<String>> results = futures.get(c).get();
        for (int i = 0; i < calls; i++) {
          Set<String> expected = new HashSet<>();
          // every caller's own document ending in 7 conflicts; of the shared-7 sends only the very first does
          if (String.valueOf(i).endsWith("7")) {
            expected.add("c" + c + "-" + i);
          }
          assertThat(results.get(i)).as("caller %d call %d", c, i).containsAll(expected);
          assertThat(results.get(i)).isSubsetOf(Set.of("c" + c + "-" + i, "shared-" + (i % 10)));
        }
      }
    }
    for (List<String> ids : requests) {
      assertThat(ids).doesNotHaveDuplicates();
    }
    assertThat(sent.get("shared-7").get()).isEqualTo(callers * calls / 10);
    long own = sent.entrySet().stream().filter(e -> e.getKey().startsWith("c")).mapToInt(e -> e.getValue().get()).sum();
    assertThat(own).isEqualTo((long) callers * calls);
  }

  @Test
  void callersArrivingWhileARequestIsInFlight_shareTheNextRequest() throws Exception {
    java.util.concurrent.CountDownLatch inFlight = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    List<List<String>> requests = new CopyOnWriteArrayList<>();
    UpdateBatcher batcher = new UpdateBatcher(docs -> {
      requests.add(docs.stream().map(d -> (String) d.getFieldValue("id")).toList());
      if (requests.size() == 1) {
        inFlight.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Set.of();
    });
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      Future<?> first = pool.submit(() -> batcher.write(List.of(doc("first"))));
      inFlight.await();
      List<Future<?>> others = new ArrayList<>();
      for (int c = 0; c < 6; c++) {
        String id = "caller-" + c;
        others.add(pool.submit(() -> batcher.write(List.of(doc(id)))));
      }
      others.add(pool.submit(() -> batcher.write(List.of(doc("caller-0"))))); // the same id: must wait a round
      while (batcher.queued() < 7) {
        Thread.onSpinWait(); // until all seven wait behind the request in flight
      }
      release.countDown();
      first.get();
      for (Future<?> f : others) {
        f.get();
      }
    }
    assertThat(requests).hasSize(3);
    assertThat(requests.get(0)).containsExactly("first");
    assertThat(requests.get(1)).containsExactlyInAnyOrder("caller-0", "caller-1", "caller-2", "caller-3", "caller-4", "caller-5");
    assertThat(requests.get(2)).containsExactly("caller-0");
  }

  @Test
  void aFailedRequest_failsEveryCallerInIt_andTheNextRequestGoesOut() {
    AtomicInteger n = new AtomicInteger();
    UpdateBatcher batcher = new UpdateBatcher(docs -> {
      if (n.incrementAndGet() == 1) {
        throw new IllegalStateException("cluster down");
      }
      return Set.of();
    });
    assertThatThrownBy(() -> batcher.write(List.of(doc("a")))).hasMessage("cluster down");
    assertThat(batcher.write(List.of(doc("a")))).isEmpty();
  }
}
