package io.memloop.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.embeddings.OpenAiHttp.MalformedBodyException;
import java.util.List;

/**
 * Parses the body of an OpenAI-style {@code /v1/embeddings} response:
 * {@code {"data": [{"index": 0, "embedding": [0.1, ...]}, ...]}}. Only {@code data[].index} and
 * {@code data[].embedding} are read; usage, model and object fields vary between servers and are
 * ignored.
 */
final class EmbeddingsResponse {

  private EmbeddingsResponse() {}

  /**
   * The embeddings in input order, that is ordered by {@code data[].index}; servers may answer out
   * of order. An entry without {@code index} takes its position in {@code data}.
   *
   * @throws MalformedBodyException if the body is not JSON, the count differs from {@code expected},
   *     an index is out of range or repeated, or a vector is not {@code dimension} finite numbers
   */
  static List<float[]> parse(ObjectMapper json, byte[] body, int expected, int dimension)
      throws MalformedBodyException {
    JsonNode root = OpenAiHttp.readJson(json, body);
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) {
      throw new MalformedBodyException("no \"data\" array");
    }
    if (data.size() != expected) {
      throw new MalformedBodyException(
          "\"data\" has " + data.size() + " embeddings, expected " + expected + " (one per input)");
    }
    float[][] out = new float[expected][];
    for (int pos = 0; pos < expected; pos++) {
      JsonNode item = data.get(pos);
      JsonNode indexNode = item.get("index");
      int index;
      if (indexNode == null) {
        index = pos;
      } else if (indexNode.canConvertToExactIntegral() && indexNode.canConvertToInt()) {
        index = indexNode.intValue();
      } else {
        throw new MalformedBodyException("data[" + pos + "].index is " + indexNode + ", expected an integer");
      }
      if (index < 0 || index >= expected) {
        throw new MalformedBodyException(
            "data[" + pos + "].index is " + index + ", expected 0.." + (expected - 1));
      }
      if (out[index] != null) {
        throw new MalformedBodyException("data[" + pos + "].index " + index + " appears twice");
      }
      out[index] = vector(item.get("embedding"), pos, dimension);
    }
    return List.of(out);
  }

  private static float[] vector(JsonNode embedding, int pos, int dimension) throws MalformedBodyException {
    if (embedding == null || !embedding.isArray()) {
      // A string here is base64 (encoding_format=base64), which we never ask for.
      throw new MalformedBodyException(
          "data[" + pos + "].embedding is " + (embedding == null ? "missing" : embedding.getNodeType())
              + ", expected an array of numbers");
    }
    if (embedding.size() != dimension) {
      throw new MalformedBodyException(
          "data[" + pos + "].embedding has " + embedding.size() + " components, expected dimension="
              + dimension + " (wrong model, or the dimension is misconfigured)");
    }
    float[] v = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      JsonNode x = embedding.get(i);
      float f = x.isNumber() ? x.floatValue() : Float.NaN;
      if (!Float.isFinite(f)) {
        throw new MalformedBodyException(
            "data[" + pos + "].embedding[" + i + "] is " + x + ", expected a finite number");
      }
      v[i] = f;
    }
    return v;
  }
}
