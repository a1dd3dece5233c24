package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.server.Json;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "list", aliases = "search",
    description = "List or search a namespace's memories: filters, sort and pages (the next page with --after).")
final class ListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @Mixin RemoteOptions remote;

  @Option(names = "--text", paramLabel = "WORDS", description = "Only memories whose intent or experience holds every one of these words (any case).")
  @Nullable String text;

  @Option(names = "--outcome", paramLabel = "OUTCOME", split = ",", description = "Only these outcomes: success, failure, unknown (comma-separated).")
  String @Nullable [] outcomes;

  @Option(names = "--min-q", paramLabel = "Q", description = "Lowest utility (inclusive).")
  @Nullable Double minQ;

  @Option(names = "--max-q", paramLabel = "Q", description = "Highest utility (inclusive).")
  @Nullable Double maxQ;

  @Option(names = "--min-visits", paramLabel = "N", description = "Fewest rewards (inclusive).")
  @Nullable Long minVisits;

  @Option(names = "--max-visits", paramLabel = "N", description = "Most rewards (inclusive).")
  @Nullable Long maxVisits;

  @Option(names = "--created-from", paramLabel = "INSTANT", description = "Created at or after (ISO-8601, e.g. 2026-11-25T00:00:00Z).")
  @Nullable String createdFrom;

  @Option(names = "--created-to", paramLabel = "INSTANT", description = "Created before.")
  @Nullable String createdTo;

  @Option(names = "--sort", paramLabel = "KEY", defaultValue = "created",
      description = "created, updated, q or visits (default: ${DEFAULT-VALUE}); ties by creation order.")
  String sort;

  @Option(names = "--desc", description = "Highest first.")
  boolean descending;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "Page size, 1-1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--after", paramLabel = "CURSOR", description = "The 'next' cursor the previous page printed.")
  @Nullable String after;

  @Override
  public Integer call() {
    MemoryQuery query = query();
    JsonNode page;
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, null)) {
      page = data.list(query, after);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (engine.json) {
      out.println(Json.write(page));
      return 0;
    }
    out.printf(Locale.ROOT, "%d of %d matching memories in namespace %s%n", page.path("memories").size(),
        page.path("total").asLong(), engine.namespace);
    for (JsonNode m : page.path("memories")) {
      MemoryLines.print(out, m);
      out.printf(Locale.ROOT, "%s(%d visits, updated %s) intent: %s%n", MemoryLines.INDENT, m.path("visits").asLong(),
          m.path("updatedAt").asText(), Text.printable(m.path("intent").asText()));
    }
    if (!page.path("next").isNull() && !page.path("next").isMissingNode()) {
      out.println("next page: --after " + page.path("next").asText());
    }
    return 0;
  }

  MemoryQuery query() {
    MemoryQuery.Builder q = MemoryQuery.builder().limit(limit).text(text).descending(descending)
        .sort(MemoryQuery.Sort.parse(sort.toLowerCase(Locale.ROOT), "--sort"));
    if (outcomes != null) {
      EnumSet<Outcome> set = EnumSet.noneOf(Outcome.class);
      for (String o : outcomes) {
        set.add(RememberCommand.parseOutcome(o.strip()));
      }
      q.outcomes(set);
    }
    if (minQ != null) {
      q.minQ(minQ);
    }
    if (maxQ != null) {
      q.maxQ(maxQ);
    }
    if (minVisits != null) {
      q.minVisits(minVisits);
    }
    if (maxVisits != null) {
      q.maxVisits(maxVisits);
    }
    q.createdFrom(instant(createdFrom, "--created-from")).createdTo(instant(createdTo, "--created-to"));
    try {
      return q.build();
    } catch (MemLoopException e) {
      String message = e.getMessage().startsWith(e.field() + ": ") ? e.getMessage().substring(e.field().length() + 2) : e.getMessage();
      throw MemLoopException.invalid(flag(e.field()), message.replace("minQ", "--min-q").replace("minVisits", "--min-visits")
          .replace("createdFrom", "--created-from"));
    }
  }

  private static String flag(String field) {
    return switch (field) {
      case "minQ" -> "--min-q";
      case "maxQ" -> "--max-q";
      case "minVisits" -> "--min-visits";
      case "maxVisits" -> "--max-visits";
      case "limit" -> "--limit";
      case "text" -> "--text";
      case "createdFrom" -> "--created-from";
      case "createdTo" -> "--created-to";
      default -> field;
    };
  }

  private static @Nullable Instant instant(@Nullable String value, String flag) {
    if (value == null) {
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      throw MemLoopException.invalid(flag, "must be an ISO-8601 instant such as 2026-11-25T21:30:00Z, got '" + Text.printable(value) + "'");
    }
  }
}
