package io.memloop.policy;

import io.memloop.store.Annotations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Issue 26's demonstration that a new learning idea is a core-only change: "prefer memories not shown in the last
 * {@code n} retrievals of this task", written as a {@link RankingSignal} whose state is one annotation per memory,
 * with no change to any store. A memory counts as recently shown to a task when fewer than {@code n} of the task's
 * retrievals that recalled it have passed since one showed it; recently shown memories move behind the others,
 * each side keeping its greedy order.
 *
 * <p>The annotation {@code recently-shown} (version 1) holds, per task key, that count (0: the last retrieval of the
 * task that recalled the memory showed it), for at most {@link #MAX_TASKS} tasks (the stalest go first).
 */
public final class RecentlyShownSignal implements RankingSignal {
  public static final String NAME = "recently-shown";
  static final int MAX_TASKS = 32;

  private final int n;

  public RecentlyShownSignal(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, got " + n);
    }
    this.n = n;
  }

  @Override
  public String annotation() {
    return NAME;
  }

  @Override
  public void reorder(String task, List<PoolEntry> pool, Annotations.@Nullable Entry[] state, int[] order, int eligible) {
    List<Integer> fresh = new ArrayList<>(eligible);
    List<Integer> recent = new ArrayList<>();
    for (int r = 0; r < eligible; r++) {
      Integer since = decode(state[order[r]]).get(task);
      (since != null && since < n ? recent : fresh).add(order[r]);
    }
    int r = 0;
    for (int i : fresh) {
      order[r++] = i;
    }
    for (int i : recent) {
      order[r++] = i;
    }
  }

  @Override
  public Annotations.@Nullable Entry after(String task, PoolEntry entry, Annotations.@Nullable Entry before, boolean shown) {
    Map<String, Integer> since = decode(before);
    Integer was = since.get(task);
    if (!shown && was == null) {
      return null; // never shown to this task: nothing to count
    }
    since.put(task, shown ? 0 : was + 1);
    while (since.size() > MAX_TASKS) { // forget the task that showed it longest ago
      String stalest = since.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
      since.remove(stalest);
    }
    return new Annotations.Entry(1, encode(since));
  }

  /** Per task key, retrievals of the task since one showed the memory. */
  public static Map<String, Integer> decode(Annotations.@Nullable Entry entry) {
    Map<String, Integer> out = new TreeMap<>();
    if (entry == null) {
      return out;
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry.data()))) {
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        out.put(in.readUTF(), in.readInt());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("annotation " + NAME + " is damaged", e);
    }
    return out;
  }

  private static byte[] encode(Map<String, Integer> since) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(since.size());
      for (var e : since.entrySet()) {
        out.writeUTF(e.getKey());
        out.writeInt(e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
