package io.memloop.store.solr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.RetrievalRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored texts of retrievals, settings and ledger entries; numbers round-trip exactly. A retrieval's
 * {@link Annotations} are {@code "ann"}, the base64 of their bytes (absent when there are none); payloads written
 * before annotations hold per-task learning's fields as {@code "task"} instead, read into the {@code "task"}
 * annotation.
 */
final class Payloads {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Payloads() {}

  static String retrieval(RetrievalRecord r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("created", r.createdAt().toString());
    o.put("expires", r.expiresAt().toString());
    ArrayNode cs = o.putArray("candidates");
    for (Candidate c : r.candidates()) {
      cs.addArray().add(c.memoryId()).add(c.similarity()).add(c.q()).add(c.score()).add(c.selected()).add(c.probability());
    }
    if (!r.annotations().isEmpty()) {
      o.put("ann", annotations(r.annotations()));
    }
    return write(o);
  }

  static RetrievalRecord retrieval(String id, String namespace, String payload) {
    JsonNode o = read(payload);
    List<Candidate> candidates = new ArrayList<>();
    for (JsonNode c : o.get("candidates")) {
      candidates.add(new Candidate(c.get(0).asText(), number(c.get(1)), number(c.get(2)), number(c.get(3)),
          c.get(4).asBoolean(), number(c.get(5))));
    }
    Annotations annotations = Annotations.EMPTY;
    JsonNode ann = o.get("ann");
    JsonNode t = o.get("task");
    if (ann != null) {
      annotations = annotations(ann.asText());
    } else if (t != null) { // written before annotations (the depth is absent in those from before the draw)
      annotations = new TaskNote(t.get(0).asText(), t.get(1).asText(), t.get(2).asBoolean(), t.get(3).asText(),
          t.size() > 4 ? t.get(4).asInt() : TaskNote.NO_DRAW).into(Annotations.EMPTY);
    }
    return new RetrievalRecord(id, namespace, Instant.parse(o.get("created").asText()),
        Instant.parse(o.get("expires").asText()), candidates, annotations);
  }

  /** How annotations are stored as text: the base64 of {@link Annotations#toBytes()}. */
  static String annotations(Annotations a) {
    return Base64.getEncoder().encodeToString(a.toBytes());
  }

  /** Annotations stored by {@link #annotations(Annotations)}; STORE_CORRUPT if they are not. */
  static Annotations annotations(String stored) {
    try {
      return Annotations.fromBytes(Base64.getDecoder().decode(stored));
    } catch (IllegalArgumentException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "store",
          "store: unreadable stored annotations: " + e.getMessage(), e);
    }
  }

  static String settings(Map<String, String> settings) {
    ObjectNode o = JSON.createObjectNode();
    settings.forEach(o::put);
    return write(o);
  }

  static Map<String, String> settings(String payload) {
    Map<String, String> out = new LinkedHashMap<>();
    read(payload).properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  static String numbers(double[] values) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(values[i]);
    }
    return b.toString();
  }

  static double[] numbers(String payload) {
    if (payload.isEmpty()) {
      return new double[0];
    }
    String[] parts = payload.split(",");
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Double.parseDouble(parts[i]);
    }
    return out;
  }

  /** A number written by {@link #retrieval(RetrievalRecord)}: JSON has no NaN or infinity, so those are text. */
  private static double number(JsonNode n) {
    return n.isNumber() ? n.doubleValue() : Double.parseDouble(n.asText());
  }

  private static String write(JsonNode o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode read(String payload) {
    try {
      return JSON.readTree(payload);
    } catch (JsonProcessingException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "store", "store: unreadable stored record: " + e.getOriginalMessage(), e);
    }
  }
}
