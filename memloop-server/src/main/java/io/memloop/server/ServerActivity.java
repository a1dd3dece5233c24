package io.memloop.server;

import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.UtilityChange;
import io.memloop.events.EventSink;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What the server has seen happen since it started, kept in memory for the inspector's routes ({@code /overview},
 * {@code /events}, {@code /memories/{id}/history}): an {@link EventSink} the engine reports to ({@code memloop
 * serve} tees it with the event log, {@link EventSink#all}). Nothing is persisted; a restart starts empty.
 *
 * <p>Bounded, per namespace: the newest {@link #EVENTS_PER_NAMESPACE} events; per-minute counts of the last 24 hours;
 * per memory at most {@link #ENTRIES_PER_MEMORY} utility points and as many retrievals that pooled it, for at most
 * {@link #MEMORIES_PER_NAMESPACE} memories (the least recently touched dropped; a forgotten memory dropped at once).
 *
 * <p>Thread safety: every namespace has its own lock, held only for the few array writes of one event, so
 * namespaces never wait for each other. On the engine's hot path (every retrieval and reward) it allocates the
 * event's record and one small entry per pooled memory, nothing else once a namespace's arrays exist.
 */
public final class ServerActivity implements EventSink {
  /** Events kept per namespace. */
  public static final int EVENTS_PER_NAMESPACE = 10_000;
  /** Utility points, and retrievals, kept per memory. */
  public static final int ENTRIES_PER_MEMORY = 50;
  /** Memories with a history kept per namespace. */
  public static final int MEMORIES_PER_NAMESPACE = 10_000;
  /** Width of an activity bucket. */
  public static final int BUCKET_SECONDS = 60;
  /** Buckets kept: 24 hours. */
  static final int BUCKETS = 24 * 60 * 60 / BUCKET_SECONDS;
  /** Longest intent text kept with an event or a retrieval. */
  public static final int INTENT_CHARS = 200;

  /** What an event was. */
  public enum Type {
    RETRIEVED, REWARDED, REMEMBERED, EDITED, FORGOTTEN, CONFIGURED;

    /** Its name in JSON. */
    public String json() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One event.
   *
   * @param seq its number in the namespace, from 1, without gaps
   * @param memoryIds retrieved: the memories selected, in the order shown; rewarded: the memories updated
   * @param reward NaN unless rewarded
   * @param success whether the reward was above the middle of the namespace's reward range; null unless rewarded
   * @param intent the retrieval's intent text, at most {@link #INTENT_CHARS} characters
   * @param memoryId remembered, edited, forgotten: the memory
   */
  public record Event(long seq, Instant at, Type type, @Nullable String retrievalId, @Nullable List<String> memoryIds,
      double reward, @Nullable Boolean success, @Nullable String intent, @Nullable String memoryId) {}

  /** One minute's counts. */
  public record Bucket(Instant start, long retrievals, long rewards, long successes, double rewardSum, long remembered,
      long edited, long forgotten) {}

  /** A utility after a reward. */
  public record QPoint(Instant at, double q, String retrievalId, double reward) {}

  /** A retrieval that pooled a memory, with the reward it got (NaN, success null, until rewarded). */
  public record Seen(String retrievalId, Instant at, @Nullable String intent, double similarity, double score,
      boolean selected, double probability, double reward, @Nullable Boolean success) {}

  /**
   * A memory's history since the server started.
   *
   * @param q utility points, oldest first
   * @param retrievals newest first
   * @param complete false when bounds dropped part of it
   */
  public record History(List<QPoint> q, List<Seen> retrievals, boolean complete) {}

  private final InstantSource clock;
  private final Instant since;
  private final int maxEvents;
  private final int maxEntries;
  private final int maxMemories;
  private final ConcurrentHashMap<String, Space> spaces = new ConcurrentHashMap<>();

  /** With the bounds of the constants above and the system clock; {@link #since()} is now. */
  public ServerActivity() {
    this(InstantSource.system(), EVENTS_PER_NAMESPACE, ENTRIES_PER_MEMORY, MEMORIES_PER_NAMESPACE);
  }

  ServerActivity(InstantSource clock, int maxEvents, int maxEntries, int maxMemories) {
    if (maxEvents < 1 || maxEntries < 1 || maxMemories < 1) {
      throw new IllegalArgumentException("bounds must be positive: events=" + maxEvents + " entries=" + maxEntries
          + " memories=" + maxMemories);
    }
    this.clock = clock;
    this.since = clock.instant();
    this.maxEvents = maxEvents;
    this.maxEntries = maxEntries;
    this.maxMemories = maxMemories;
  }

  /** When it started keeping (the server's start). */
  public Instant since() {
    return since;
  }

  private Space space(String namespace) {
    Space s = spaces.get(namespace); // the usual case: no lambda, no lock of the map
    return s != null ? s : spaces.computeIfAbsent(namespace, k -> new Space());
  }

  @Override
  public void configured(String namespace, Instant at, MemLoopConfig config) {
    Space s = space(namespace);
    synchronized (s) {
      s.middle = (config.rewardMin() + config.rewardMax()) / 2;
      s.add(new Event(s.seq + 1, at, Type.CONFIGURED, null, null, Double.NaN, null, null, null));
    }
  }

  @Override
  public void retrieved(String namespace, Instant at, Intent intent, float[] embedding, Retrieval retrieval) {
    String text = clip(intent.text());
    List<String> selected = new ArrayList<>(retrieval.selected().size());
    for (Memory m : retrieval.selected()) {
      selected.add(m.id());
    }
    Space s = space(namespace);
    synchronized (s) {
      s.add(new Event(s.seq + 1, at, Type.RETRIEVED, retrieval.id(), selected, Double.NaN, null, text, null));
      s.count(at).retrievals++;
      Shown shown = new Shown(retrieval.id(), at, text);
      s.shown.put(retrieval.id(), shown);
      for (Candidate c : retrieval.candidates()) {
        s.track(c.memoryId()).seen(new Entry(shown, c.similarity(), c.score(), c.selected(), c.probability()));
      }
    }
  }

  @Override
  public void rewarded(String namespace, Instant at, RewardResult result, @Nullable List<String> usedMemoryIds) {
    List<String> updated = new ArrayList<>(result.changes().size());
    for (UtilityChange c : result.changes()) {
      updated.add(c.memoryId());
    }
    Space s = space(namespace);
    synchronized (s) {
      boolean success = result.reward() > s.middle;
      s.add(new Event(s.seq + 1, at, Type.REWARDED, result.retrievalId(), updated, result.reward(), success, null, null));
      Minute m = s.count(at);
      m.rewards++;
      m.successes += success ? 1 : 0;
      m.rewardSum += result.reward();
      Shown shown = s.shown.get(result.retrievalId());
      if (shown != null) {
        shown.reward = result.reward();
        shown.success = success;
      }
      for (UtilityChange c : result.changes()) {
        s.track(c.memoryId()).q(new QPoint(at, c.qAfter(), result.retrievalId(), result.reward()));
      }
    }
  }

  @Override
  public void remembered(String namespace, Instant at, Memory memory, boolean duplicate, @Nullable String retrievalId) {
    Space s = space(namespace);
    synchronized (s) {
      s.add(new Event(s.seq + 1, at, Type.REMEMBERED, retrievalId, null, Double.NaN, null, null, memory.id()));
      s.count(at).remembered++;
    }
  }

  @Override
  public void edited(String namespace, Instant at, Memory memory) {
    Space s = space(namespace);
    synchronized (s) {
      s.add(new Event(s.seq + 1, at, Type.EDITED, null, null, Double.NaN, null, null, memory.id()));
      s.count(at).edited++;
    }
  }

  @Override
  public void forgot(String namespace, Instant at, String memoryId) {
    Space s = space(namespace);
    synchronized (s) {
      s.add(new Event(s.seq + 1, at, Type.FORGOTTEN, null, null, Double.NaN, null, null, memoryId));
      s.count(at).forgotten++;
      s.tracks.remove(memoryId);
    }
  }

  /**
   * Events of {@code namespace} after number {@code after}, oldest first, at most {@code limit}: the oldest ones
   * after it (so that polling with the last number seen misses nothing the bounds kept), or, with {@code after}
   * null, the newest {@code limit}.
   */
  public List<Event> events(String namespace, @Nullable Long after, int limit) {
    Space s = spaces.get(namespace);
    if (s == null) {
      return List.of();
    }
    synchronized (s) {
      long first = Math.max(s.seq - s.size + 1, 1); // the oldest kept
      long from = after == null ? Math.max(first, s.seq - limit + 1) : Math.max(first, after + 1);
      long to = Math.min(s.seq, from + limit - 1);
      List<Event> out = new ArrayList<>((int) Math.max(0, to - from + 1));
      for (long q = from; q <= to; q++) {
        out.add(s.ring[(int) ((q - 1) % maxEvents)]);
      }
      return out;
    }
  }

  /** The number of {@code namespace}'s newest event (0 before any). */
  public long lastSeq(String namespace) {
    Space s = spaces.get(namespace);
    if (s == null) {
      return 0;
    }
    synchronized (s) {
      return s.seq;
    }
  }

  /** Per-minute counts of the last 24 hours that are not all zero, oldest first. */
  public List<Bucket> buckets(String namespace) {
    Space s = spaces.get(namespace);
    if (s == null) {
      return List.of();
    }
    long oldest = Math.floorDiv(clock.instant().getEpochSecond(), BUCKET_SECONDS) - BUCKETS + 1;
    List<Bucket> out = new ArrayList<>();
    synchronized (s) {
      for (Minute m : s.minutes) {
        if (m != null && m.minute >= oldest) {
          out.add(new Bucket(Instant.ofEpochSecond(m.minute * BUCKET_SECONDS), m.retrievals, m.rewards, m.successes,
              m.rewardSum, m.remembered, m.edited, m.forgotten));
        }
      }
    }
    out.sort(java.util.Comparator.comparing(Bucket::start));
    return out;
  }

  /** The history of memory {@code memoryId} (a store id), if the server has seen it since it started. */
  public Optional<History> history(String namespace, String memoryId) {
    Space s = spaces.get(namespace);
    if (s == null) {
      return Optional.empty();
    }
    synchronized (s) {
      Track t = s.tracks.get(memoryId);
      if (t == null) {
        return Optional.empty();
      }
      List<Seen> seen = new ArrayList<>(t.seen.size());
      var it = t.seen.descendingIterator();
      while (it.hasNext()) {
        Entry e = it.next();
        seen.add(new Seen(e.shown.id, e.shown.at, e.shown.intent, e.similarity, e.score, e.selected, e.probability,
            e.shown.reward, e.shown.success));
      }
      return Optional.of(new History(List.copyOf(t.q), seen, t.complete));
    }
  }

  /** Whether the bounds have dropped a memory's history in {@code namespace} (a history kept since is not complete). */
  boolean droppedAny(String namespace) {
    Space s = spaces.get(namespace);
    if (s == null) {
      return false;
    }
    synchronized (s) {
      return s.droppedMemories;
    }
  }

  private static @Nullable String clip(@Nullable String text) {
    if (text == null || text.length() <= INTENT_CHARS) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(INTENT_CHARS - 1)) ? INTENT_CHARS - 1 : INTENT_CHARS;
    return text.substring(0, end);
  }

  /** A retrieval as the histories of its pooled memories share it: its reward is filled in once rewarded. */
  private static final class Shown {
    final String id;
    final Instant at;
    final @Nullable String intent;
    double reward = Double.NaN;
    @Nullable Boolean success;

    Shown(String id, Instant at, @Nullable String intent) {
      this.id = id;
      this.at = at;
      this.intent = intent;
    }
  }

  /** One pooled memory of one retrieval. */
  private record Entry(Shown shown, double similarity, double score, boolean selected, double probability) {}

  /** One minute's counters, reused when its slot comes round again. */
  private static final class Minute {
    long minute;
    long retrievals;
    long rewards;
    long successes;
    double rewardSum;
    long remembered;
    long edited;
    long forgotten;
  }

  /** A memory's kept history. */
  private final class Track {
    final ArrayDeque<QPoint> q = new ArrayDeque<>();
    final ArrayDeque<Entry> seen = new ArrayDeque<>();
    boolean complete;

    Track(boolean complete) {
      this.complete = complete;
    }

    void q(QPoint p) {
      if (q.size() == maxEntries) {
        q.removeFirst();
        complete = false;
      }
      q.addLast(p);
    }

    void seen(Entry e) {
      if (seen.size() == maxEntries) {
        seen.removeFirst();
        complete = false;
      }
      seen.addLast(e);
    }
  }

  /** One namespace's state; every field guarded by the instance's lock. */
  private final class Space {
    final Event[] ring = new Event[maxEvents];
    long seq;
    int size;
    final Minute[] minutes = new Minute[BUCKETS];
    double middle;
    boolean droppedMemories;
    /** By memory id, least recently touched first. */
    final LinkedHashMap<String, Track> tracks = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Track> eldest) {
        if (size() > maxMemories) {
          droppedMemories = true;
          return true;
        }
        return false;
      }
    };
    /** The newest retrievals by id, for their rewards. */
    final LinkedHashMap<String, Shown> shown = new LinkedHashMap<>(64, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Shown> eldest) {
        return size() > maxEvents;
      }
    };

    void add(Event e) {
      seq = e.seq();
      ring[(int) ((seq - 1) % maxEvents)] = e;
      size = Math.min(size + 1, maxEvents);
    }

    /** The counters of {@code at}'s minute (a scratch one, counted nowhere, for a minute older than its slot's). */
    Minute count(Instant at) {
      long minute = Math.floorDiv(at.getEpochSecond(), BUCKET_SECONDS);
      int slot = (int) Math.floorMod(minute, (long) BUCKETS);
      Minute m = minutes[slot];
      if (m == null) {
        m = new Minute();
        m.minute = minute;
        minutes[slot] = m;
      } else if (m.minute < minute) {
        m.minute = minute;
        m.retrievals = m.rewards = m.successes = m.remembered = m.edited = m.forgotten = 0;
        m.rewardSum = 0;
      } else if (m.minute > minute) {
        return new Minute(); // more than 24 h late: not kept
      }
      return m;
    }

    Track track(String memoryId) {
      Track t = tracks.get(memoryId);
      if (t == null) {
        t = new Track(!droppedMemories); // after a drop, this memory's earlier history may have been the one dropped
        tracks.put(memoryId, t);
      }
      return t;
    }
  }
}
