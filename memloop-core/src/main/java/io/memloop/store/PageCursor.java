package io.memloop.store;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.MemoryQuery;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * The cursors of {@link MemoryStore#search}: where a page ended, as an opaque string bound to its query. A
 * position is the last memory's sort key and sequence (creation order, the tie-break); a cursor also carries a
 * fingerprint of the namespace, the filters and the sort, so that a cursor of another query, namespace or order
 * is refused (INVALID_ARGUMENT naming {@code after}) rather than silently paging something else. The page size
 * may change between pages. Not a secret: a cursor only says where a page ended.
 *
 * <p>Layout: {@code "c1"} then unpadded base64url of {@code long fingerprint, long key, int key2, long seq}
 * (big-endian). The key is the sort value as a long that orders like the value: 0 for CREATED, visits, the epoch
 * second (key2 the nanoseconds) for UPDATED, and for Q the IEEE bits made sortable (as Lucene's
 * {@code NumericUtils.doubleToSortableLong}, so that it orders as {@link Double#compare}).
 */
public final class PageCursor {
  private static final String PREFIX = "c1";
  private static final int BYTES = 8 + 8 + 4 + 8;

  private PageCursor() {}

  /** Where a page ended: the sort key (two parts) and the memory's sequence. */
  public record Position(long key, int key2, long seq) {}

  /** The position of memory {@code m} in an order by {@code sort}. */
  public static Position of(MemoryQuery.Sort sort, Memory m) {
    long seq = MemoryStore.sequenceOf(m.id());
    return switch (sort) {
      case CREATED -> new Position(0, 0, seq);
      case UPDATED -> new Position(m.updatedAt().getEpochSecond(), m.updatedAt().getNano(), seq);
      case Q -> new Position(sortableLong(m.q()), 0, seq);
      case VISITS -> new Position(m.visits(), 0, seq);
    };
  }

  /** {@code a} against {@code b} in ascending order (key, key2, then sequence). */
  public static int compare(Position a, Position b) {
    int c = Long.compare(a.key, b.key);
    if (c == 0) {
      c = Integer.compare(a.key2, b.key2);
    }
    return c != 0 ? c : Long.compare(a.seq, b.seq);
  }

  /** Whether {@code p} comes after {@code from} in the order of {@code query} (descending reverses). */
  public static boolean isAfter(MemoryQuery query, Position p, Position from) {
    int c = compare(p, from);
    return query.descending() ? c < 0 : c > 0;
  }

  /** The double a Q key stands for ({@link #sortableLong} inverted). */
  public static double qOf(long key) {
    return Double.longBitsToDouble(key ^ (key >> 63) & 0x7fffffffffffffffL);
  }

  /** A long that orders as {@link Double#compare} orders the doubles. */
  public static long sortableLong(double v) {
    long bits = Double.doubleToLongBits(v);
    return bits ^ (bits >> 63) & 0x7fffffffffffffffL;
  }

  /** The instant an UPDATED position stands for. */
  public static Instant instantOf(Position p) {
    return Instant.ofEpochSecond(p.key, p.key2);
  }

  /** The cursor of a page of {@code query} in {@code namespace} that ended at {@code last}. */
  public static String encode(String namespace, MemoryQuery query, Position last) {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.putLong(fingerprint(namespace, query)).putLong(last.key).putInt(last.key2).putLong(last.seq);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }

  /**
   * The position {@code query.after()} names, or null for a first page.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code after} for a malformed cursor or one of another
   *     query, sort or namespace
   */
  public static @Nullable Position decode(String namespace, MemoryQuery query) {
    String after = query.after();
    if (after == null) {
      return null;
    }
    byte[] raw;
    try {
      raw = after.startsWith(PREFIX) ? Base64.getUrlDecoder().decode(after.substring(PREFIX.length())) : null;
    } catch (IllegalArgumentException e) {
      raw = null;
    }
    if (raw == null || raw.length != BYTES) {
      throw MemLoopException.invalid("after", "is not a cursor of this service (pass the 'next' of the previous page)");
    }
    ByteBuffer b = ByteBuffer.wrap(raw);
    if (b.getLong() != fingerprint(namespace, query)) {
      throw MemLoopException.invalid("after", "is the cursor of another query, sort or namespace: page with the same "
          + "filters and sort as the page that returned it, or start again without 'after'");
    }
    Position p = new Position(b.getLong(), b.getInt(), b.getLong());
    if (p.seq < 0 || p.key2 < 0 || p.key2 > 999_999_999 || query.sort() == MemoryQuery.Sort.CREATED && (p.key != 0 || p.key2 != 0)
        || query.sort() == MemoryQuery.Sort.VISITS && p.key < 0) {
      throw MemLoopException.invalid("after", "is not a cursor of this service (pass the 'next' of the previous page)");
    }
    return p;
  }

  /**
   * The page of {@code query} made of {@code firstAfter}: the memories after the cursor in order, at most
   * {@code limit + 1} of them (one more than the page shows tells whether a next page exists).
   */
  public static io.memloop.MemoryPage page(String namespace, MemoryQuery query, java.util.List<Memory> firstAfter,
      long total) {
    if (firstAfter.size() <= query.limit()) {
      return new io.memloop.MemoryPage(firstAfter, null, total);
    }
    java.util.List<Memory> shown = firstAfter.subList(0, query.limit());
    return new io.memloop.MemoryPage(shown, encode(namespace, query, of(query.sort(), shown.getLast())), total);
  }

  /** FNV-1a over the namespace, the filters and the order: what a cursor must agree with. */
  static long fingerprint(String namespace, MemoryQuery q) {
    StringBuilder s = new StringBuilder(128).append(namespace).append('\u0000').append(String.join(" ", q.words()))
        .append('\u0000').append(q.outcomes().stream().map(Enum::name).sorted().toList())
        .append('\u0000').append(q.minQ()).append(',').append(q.maxQ())
        .append('\u0000').append(q.minVisits()).append(',').append(q.maxVisits())
        .append('\u0000').append(q.createdFrom()).append(',').append(q.createdTo())
        .append('\u0000').append(q.updatedFrom()).append(',').append(q.updatedTo())
        .append('\u0000').append(q.sort()).append(q.descending() ? " desc" : " asc");
    long h = 0xcbf29ce484222325L;
    for (byte x : s.toString().getBytes(StandardCharsets.UTF_8)) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
