package io.memloop;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which memories of a namespace {@link MemLoop#list} returns, in which order, and from where: filters (all
 * must hold), a sort, a page size and the previous page's cursor.
 *
 * <p><b>Filters.</b> Q and visits bounds are inclusive; {@code *From} instants inclusive, {@code *To} exclusive;
 * an empty {@code outcomes} means every outcome. {@code text}: a memory matches when every word of it occurs as a
 * word of the memory's intent text or of its experience, a word being a maximal run of letters and digits
 * ({@link Character#isLetterOrDigit(int)}), compared case-folded ({@link String#toLowerCase(Locale)} with
 * {@link Locale#ROOT}); see {@link #words(String)}. Blank or absent text filters nothing.
 *
 * <p><b>Order.</b> By {@link #sort()}, ascending unless {@link #descending()}; ties always broken by creation
 * order (the memory's sequence) in the same direction. {@link Sort#CREATED} is store order, oldest first when
 * ascending.
 *
 * @param text words every match holds, or null
 * @param outcomes outcomes to keep; empty for all
 * @param minQ lowest Q kept (inclusive); {@code -Infinity} for no bound
 * @param maxQ highest Q kept (inclusive); {@code +Infinity} for no bound
 * @param minVisits fewest visits kept (inclusive), at least 0
 * @param maxVisits most visits kept (inclusive)
 * @param createdFrom earliest creation instant kept (inclusive), or null
 * @param createdTo creation instant before which memories are kept (exclusive), or null
 * @param updatedFrom earliest update instant kept (inclusive), or null
 * @param updatedTo update instant before which memories are kept (exclusive), or null
 * @param sort the sort key
 * @param descending whether the order is reversed (the tie-break too)
 * @param limit page size, 1 to {@value #MAX_LIMIT}
 * @param after the previous page's {@link MemoryPage#next()}, or null for the first page
 */
public record MemoryQuery(
    @Nullable String text,
    Set<Outcome> outcomes,
    double minQ,
    double maxQ,
    long minVisits,
    long maxVisits,
    @Nullable Instant createdFrom,
    @Nullable Instant createdTo,
    @Nullable Instant updatedFrom,
    @Nullable Instant updatedTo,
    Sort sort,
    boolean descending,
    int limit,
    @Nullable String after) {

  /** The largest page. */
  public static final int MAX_LIMIT = 1000;
  /** The page size of {@link #builder()} when none is given. */
  public static final int DEFAULT_LIMIT = 100;
  /** The longest {@code text}, in UTF-16 code units. */
  public static final int MAX_TEXT_CHARS = Checks.MAX_INTENT_CHARS;
  /** The longest cursor accepted (cursors this engine writes are far shorter). */
  public static final int MAX_CURSOR_CHARS = 512;

  /** What a page is ordered by; ties by creation order in the same direction. */
  public enum Sort {
    /** Creation order (the store's sequence): oldest first when ascending. */
    CREATED,
    /** Last change (a reward or an edit; creation for a memory never changed since). */
    UPDATED,
    /** Learned utility. */
    Q,
    /** Number of rewards that updated Q. */
    VISITS;

    /** The name clients use ({@code created}, {@code updated}, {@code q}, {@code visits}). */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The sort a client named by its {@link #label()}.
     *
     * @throws MemLoopException INVALID_ARGUMENT naming {@code field} for any other name
     */
    public static Sort parse(String name, String field) {
      for (Sort s : values()) {
        if (s.label().equals(name)) {
          return s;
        }
      }
      throw MemLoopException.invalid(field, "must be created, updated, q or visits, got '"
          + (name.length() <= 120 ? name : name.substring(0, 120) + "...").replaceAll("\\p{Cntrl}", "?") + "'");
    }
  }

  /** Validates every field, naming the field at fault (INVALID_ARGUMENT). */
  public MemoryQuery {
    if (text != null && text.length() > MAX_TEXT_CHARS) {
      throw MemLoopException.invalid("text", "is " + text.length() + " characters, over the limit of " + MAX_TEXT_CHARS);
    }
    if (text != null && text.isBlank()) {
      text = null;
    }
    outcomes = outcomes == null ? Set.of() : Set.copyOf(EnumSet.copyOf(requireNoNull(outcomes)));
    if (Double.isNaN(minQ) || minQ == Double.POSITIVE_INFINITY) {
      throw MemLoopException.invalid("minQ", "must be a finite number (or -Infinity for no bound), got " + minQ);
    }
    if (Double.isNaN(maxQ) || maxQ == Double.NEGATIVE_INFINITY) {
      throw MemLoopException.invalid("maxQ", "must be a finite number (or Infinity for no bound), got " + maxQ);
    }
    if (minQ > maxQ) {
      throw MemLoopException.invalid("maxQ", "must be at least minQ (" + minQ + "), got " + maxQ);
    }
    if (minVisits < 0) {
      throw MemLoopException.invalid("minVisits", "must be at least 0, got " + minVisits);
    }
    if (minVisits > maxVisits) {
      throw MemLoopException.invalid("maxVisits", "must be at least minVisits (" + minVisits + "), got " + maxVisits);
    }
    if (createdFrom != null && createdTo != null && createdFrom.isAfter(createdTo)) {
      throw MemLoopException.invalid("createdTo", "must not be before createdFrom (" + createdFrom + "), got " + createdTo);
    }
    if (updatedFrom != null && updatedTo != null && updatedFrom.isAfter(updatedTo)) {
      throw MemLoopException.invalid("updatedTo", "must not be before updatedFrom (" + updatedFrom + "), got " + updatedTo);
    }
    if (sort == null) {
      throw MemLoopException.invalid("sort", "must be one of created, updated, q, visits");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw MemLoopException.invalid("limit", "must be in [1, " + MAX_LIMIT + "], got " + limit);
    }
    if (after != null && (after.isEmpty() || after.length() > MAX_CURSOR_CHARS)) {
      throw MemLoopException.invalid("after", "is not a cursor this query returned");
    }
  }

  private static Set<Outcome> requireNoNull(Set<Outcome> outcomes) {
    for (Outcome o : outcomes) {
      if (o == null) {
        throw MemLoopException.invalid("outcomes", "must not hold null");
      }
    }
    return outcomes.isEmpty() ? EnumSet.noneOf(Outcome.class) : outcomes;
  }

  /** Every memory, in creation order, {@code limit} per page. */
  public static MemoryQuery all(int limit) {
    return builder().limit(limit).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this query's fields (e.g. to ask for the next page). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.text = text;
    b.outcomes = outcomes;
    b.minQ = minQ;
    b.maxQ = maxQ;
    b.minVisits = minVisits;
    b.maxVisits = maxVisits;
    b.createdFrom = createdFrom;
    b.createdTo = createdTo;
    b.updatedFrom = updatedFrom;
    b.updatedTo = updatedTo;
    b.sort = sort;
    b.descending = descending;
    b.limit = limit;
    b.after = after;
    return b;
  }

  /** The same query from cursor {@code after} (null: from the first page). */
  public MemoryQuery after(@Nullable String cursor) {
    return toBuilder().after(cursor).build();
  }

  /** The distinct words of {@link #text()}, case-folded, in order of first occurrence; empty for no text filter. */
  public List<String> words() {
    return text == null ? List.of() : words(text);
  }

  /**
   * The distinct words of {@code text} in order of first occurrence: maximal runs of letters and digits
   * ({@link Character#isLetterOrDigit(int)}, by code point), each case-folded with {@link Locale#ROOT}. The one
   * definition of a word every store indexes and matches by, so that all stores agree on every text.
   */
  public static List<String> words(String text) {
    Set<String> out = new LinkedHashSet<>();
    int n = text.length();
    int start = -1;
    for (int i = 0; i < n; ) {
      int cp = text.codePointAt(i);
      boolean word = Character.isLetterOrDigit(cp);
      if (word && start < 0) {
        start = i;
      } else if (!word && start >= 0) {
        out.add(text.substring(start, i).toLowerCase(Locale.ROOT));
        start = -1;
      }
      i += Character.charCount(cp);
    }
    if (start >= 0) {
      out.add(text.substring(start).toLowerCase(Locale.ROOT));
    }
    return new ArrayList<>(out);
  }

  /**
   * Whether {@code m} passes every filter of this query (the cursor aside): the reference rule stores implement.
   * {@code words} is {@link #words()}, computed once by the caller.
   */
  public boolean matches(Memory m, List<String> words) {
    if (!outcomes.isEmpty() && !outcomes.contains(m.outcome())) {
      return false;
    }
    if (m.q() < minQ || m.q() > maxQ || m.visits() < minVisits || m.visits() > maxVisits) {
      return false;
    }
    if (createdFrom != null && m.createdAt().isBefore(createdFrom) || createdTo != null && !m.createdAt().isBefore(createdTo)) {
      return false;
    }
    if (updatedFrom != null && m.updatedAt().isBefore(updatedFrom) || updatedTo != null && !m.updatedAt().isBefore(updatedTo)) {
      return false;
    }
    if (!words.isEmpty()) {
      Set<String> held = new java.util.HashSet<>(words(m.intentText()));
      held.addAll(words(m.experience()));
      return held.containsAll(words);
    }
    return true;
  }

  /**
   * The order of this query's pages as a comparator: the sort key, then creation order ({@code sequenceOf} the
   * memory id), both reversed when descending.
   */
  public Comparator<Memory> order(java.util.function.ToLongFunction<String> sequenceOf) {
    Comparator<Memory> key = switch (sort) {
      case CREATED -> (a, b) -> 0;
      case UPDATED -> Comparator.comparing(Memory::updatedAt);
      case Q -> Comparator.comparingDouble(Memory::q);
      case VISITS -> Comparator.comparingLong(Memory::visits);
    };
    Comparator<Memory> c = key.thenComparingLong(m -> sequenceOf.applyAsLong(m.id()));
    return descending ? c.reversed() : c;
  }

  /** Builds a {@link MemoryQuery}; every field is optional (defaults: no filter, CREATED ascending, limit 100). */
  public static final class Builder {
    private @Nullable String text;
    private Set<Outcome> outcomes = Set.of();
    private double minQ = Double.NEGATIVE_INFINITY;
    private double maxQ = Double.POSITIVE_INFINITY;
    private long minVisits;
    private long maxVisits = Long.MAX_VALUE;
    private @Nullable Instant createdFrom;
    private @Nullable Instant createdTo;
    private @Nullable Instant updatedFrom;
    private @Nullable Instant updatedTo;
    private Sort sort = Sort.CREATED;
    private boolean descending;
    private int limit = DEFAULT_LIMIT;
    private @Nullable String after;

    private Builder() {}

    public Builder text(@Nullable String text) {
      this.text = text;
      return this;
    }

    public Builder outcomes(Set<Outcome> outcomes) {
      this.outcomes = Objects.requireNonNull(outcomes, "outcomes");
      return this;
    }

    public Builder outcomes(Outcome... outcomes) {
      return outcomes(Set.of(outcomes));
    }

    public Builder minQ(double minQ) {
      this.minQ = minQ;
      return this;
    }

    public Builder maxQ(double maxQ) {
      this.maxQ = maxQ;
      return this;
    }

    public Builder minVisits(long minVisits) {
      this.minVisits = minVisits;
      return this;
    }

    public Builder maxVisits(long maxVisits) {
      this.maxVisits = maxVisits;
      return this;
    }

    public Builder createdFrom(@Nullable Instant createdFrom) {
      this.createdFrom = createdFrom;
      return this;
    }

    public Builder createdTo(@Nullable Instant createdTo) {
      this.createdTo = createdTo;
      return this;
    }

    public Builder updatedFrom(@Nullable Instant updatedFrom) {
      this.updatedFrom = updatedFrom;
      return this;
    }

    public Builder updatedTo(@Nullable Instant updatedTo) {
      this.updatedTo = updatedTo;
      return this;
    }

    public Builder sort(Sort sort) {
      this.sort = sort;
      return this;
    }

    public Builder descending(boolean descending) {
      this.descending = descending;
      return this;
    }

    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    public Builder after(@Nullable String after) {
      this.after = after;
      return this;
    }

    /** @throws MemLoopException INVALID_ARGUMENT naming the first field at fault */
    public MemoryQuery build() {
      return new MemoryQuery(text, outcomes, minQ, maxQ, minVisits, maxVisits, createdFrom, createdTo, updatedFrom,
          updatedTo, sort, descending, limit, after);
    }
  }
}
