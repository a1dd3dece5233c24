package io.memloop.store.solr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.solr.common.SolrInputDocument;

/**
 * Group commit for version-checked updates: callers hand over their documents and wait; whichever caller finds no
 * request in flight sends everything queued so far as one request, and the others' documents ride along. No
 * timer: a lone caller's request leaves at once, and under load a request carries whatever arrived while the
 * previous one was in flight.
 *
 * <p>The request goes through Solr's tolerant update chain, which applies every document it can and names those it
 * could not; a document whose {@code _version_} check failed is returned to its caller, which reads it again and
 * retries. A batch never holds two documents with the same id (the second waits for the next request), so a failure
 * always belongs to exactly one caller.
 */
final class UpdateBatcher {
  private static final int MAX_DOCS = 1_000;

  private final Function<List<SolrInputDocument>, Set<String>> sender;
  private final Object lock = new Object();
  private List<Pending> queue = new ArrayList<>();
  private boolean flushing;

  private static final class Pending {
    final List<SolrInputDocument> docs;
    Set<String> conflicts;
    RuntimeException failure;
    boolean done;

    Pending(List<SolrInputDocument> docs) {
      this.docs = docs;
    }
  }

  /** {@code sender} sends one request and returns the ids of the documents whose version check failed. */
  UpdateBatcher(Function<List<SolrInputDocument>, Set<String>> sender) {
    this.sender = sender;
  }

  /** Writes {@code docs} (each with its own version check); returns the ids of those whose check failed. */
  Set<String> write(List<SolrInputDocument> docs) {
    Pending me = new Pending(docs);
    synchronized (lock) {
      queue.add(me);
    }
    while (true) {
      List<Pending> batch;
      synchronized (lock) {
        while (!me.done && flushing) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a Solr update", e);
          }
        }
        if (me.done) {
          if (me.failure != null) {
            throw me.failure;
          }
          return me.conflicts;
        }
        flushing = true;
        batch = take();
      }
      try {
        send(batch);
      } finally {
        synchronized (lock) {
          flushing = false;
          lock.notifyAll();
        }
      }
    }
  }

  /** Callers waiting for a request (for tests). */
  int queued() {
    synchronized (lock) {
      return queue.size();
    }
  }

  /** Up to {@link #MAX_DOCS} documents from the queue, oldest callers first, no id twice. */
  private List<Pending> take() {
    List<Pending> batch = new ArrayList<>();
    Set<Object> ids = new HashSet<>();
    int size = 0;
    for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      boolean clash = false;
      for (SolrInputDocument d : p.docs) {
        clash |= ids.contains(d.getFieldValue("id"));
      }
      if (clash || (size > 0 && size + p.docs.size() > MAX_DOCS)) {
        continue;
      }
      p.docs.forEach(d -> ids.add(d.getFieldValue("id")));
      size += p.docs.size();
      batch.add(p);
      it.remove();
    }
    return batch;
  }

  private void send(List<Pending> batch) {
    List<SolrInputDocument> docs = new ArrayList<>();
    batch.forEach(p -> docs.addAll(p.docs));
    Set<String> conflicts;
    RuntimeException failure = null;
    try {
      conflicts = sender.apply(docs);
    } catch (RuntimeException e) {
      conflicts = Set.of();
      failure = e;
    }
    synchronized (lock) {
      for (Pending p : batch) {
        Set<String> mine = new HashSet<>();
        for (SolrInputDocument d : p.docs) {
          Object id = d.getFieldValue("id");
          if (conflicts.contains(id)) {
            mine.add((String) id);
          }
        }
        p.conflicts = mine;
        p.failure = failure;
        p.done = true;
      }
      lock.notifyAll();
    }
  }
}
