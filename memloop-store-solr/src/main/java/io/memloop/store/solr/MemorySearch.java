package io.memloop.store.solr;

import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.store.PageCursor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.jspecify.annotations.Nullable;

/** Listing and search over a namespace's memories, on the listing fields of schema 2. Thread-safe. */
final class MemorySearch {
  private final SolrIo io;
  private final Routing routing;

  MemorySearch(SolrIo io, Routing routing) {
    this.io = io;
    this.routing = routing;
  }

  /**
   * A Solr query: each filter an {@code fq} (words as terms, the outcome, ranges on Q, visits, created-at and
   * updated-at), sorted by the key then {@code seq}; the cursor's position is one more {@code fq} (the key after the
   * position's, or equal with a later sequence), excluded from a facet query that counts the total.
   */
  MemoryPage search(String namespace, MemoryQuery query) {
    PageCursor.Position from = PageCursor.decode(namespace, query);
    ModifiableSolrParams p = routing.namespaceQuery(namespace, "m");
    for (String w : query.words()) {
      p.add("fq", "{!term f=words}" + Fields.term(w));
    }
    if (!query.outcomes().isEmpty()) {
      p.add("fq", "{!terms f=oc}" + String.join(",", query.outcomes().stream().map(Enum::name).sorted().toList()));
    }
    if (query.minQ() != Double.NEGATIVE_INFINITY || query.maxQ() != Double.POSITIVE_INFINITY) {
      p.add("fq", "q:[" + bound(query.minQ()) + " TO " + bound(query.maxQ()) + "]");
    }
    if (query.minVisits() != 0 || query.maxVisits() != Long.MAX_VALUE) {
      p.add("fq", "visits:[" + query.minVisits() + " TO " + query.maxVisits() + "]");
    }
    instantRange(p, "created_at", query.createdFrom(), query.createdTo());
    instantRange(p, "updated", query.updatedFrom(), query.updatedTo());
    String dir = query.descending() ? " desc" : " asc";
    String key = switch (query.sort()) {
      case CREATED -> null;
      case UPDATED -> "updated";
      case Q -> "q";
      case VISITS -> "visits";
    };
    p.set("sort", (key == null ? "" : key + dir + ",") + "seq" + dir);
    if (from != null) {
      String seqAfter = query.descending() ? "seq:[* TO " + from.seq() + "}" : "seq:{" + from.seq() + " TO *]";
      String value = key == null ? null : switch (query.sort()) {
        case UPDATED -> Long.toString(Fields.nanos(PageCursor.instantOf(from)));
        case Q -> Double.toString(PageCursor.qOf(from.key()));
        default -> Long.toString(from.key());
      };
      p.add("fq", "{!tag=after}" + (value == null ? seqAfter
          : "(" + key + (query.descending() ? ":[* TO " + value + "}" : ":{" + value + " TO *]") + ") OR (" + key + ":["
              + value + " TO " + value + "] AND " + seqAfter + ")"));
      p.set("facet", true);
      p.set("facet.query", "{!ex=after key=total}*:*");
    }
    p.set("fl", Fields.MEMORY_FIELDS);
    p.set("rows", query.limit() + 1);
    QueryResponse r = io.query(p);
    List<Memory> out = new ArrayList<>();
    for (SolrDocument d : r.getResults()) {
      out.add(Fields.memory(namespace, d));
    }
    long total = from == null ? r.getResults().getNumFound() : r.getFacetQuery().get("total");
    return PageCursor.page(namespace, query, out, total);
  }

  private static String bound(double v) {
    return Double.isInfinite(v) ? "*" : Double.toString(v);
  }

  /** An fq keeping {@code field} (nanoseconds) in [from, to). */
  private static void instantRange(ModifiableSolrParams p, String field, @Nullable Instant from, @Nullable Instant to) {
    if (from != null || to != null) {
      p.add("fq", field + ":[" + (from == null ? "*" : Long.toString(Fields.nanos(from))) + " TO "
          + (to == null ? "*" : Long.toString(Fields.nanos(to))) + "}");
    }
  }
}
