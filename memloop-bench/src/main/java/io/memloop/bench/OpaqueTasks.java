package io.memloop.bench;

import io.memloop.Memory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * What strategies see of a task: its intent and an opaque id. Environments name tasks by what they
 * are ({@code hr.dept-payroll/v2/Support,2022}: template, variant, literals), which a strategy could
 * read the answer's structure from; the loop hands strategies a hash of that id instead, and keeps
 * the readable id for the environment and the reports.
 */
final class OpaqueTasks {
  private OpaqueTasks() {}

  /** The task as strategies see it. */
  static Task of(Task task) {
    return new Task("task-" + hash(task.id()), task.intent());
  }

  /**
   * The oracle's view of ground truth: it gets opaque tasks like every strategy, so its truth maps
   * them back to the environment's tasks (training and held out).
   */
  static GroundTruth truthFor(Environment env, GroundTruth truth) {
    Map<String, Task> byOpaqueId = new HashMap<>();
    env.tasks().forEach(t -> byOpaqueId.put(of(t).id(), t));
    env.heldOut().forEach(t -> byOpaqueId.put(of(t).id(), t));
    return (Task task, Memory memory) -> truth.helps(byOpaqueId.getOrDefault(task.id(), task), memory);
  }

  private static String hash(String id) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
