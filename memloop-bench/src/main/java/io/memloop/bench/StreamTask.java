package io.memloop.bench;

/**
 * One instance of a stream ({@link StreamSource}).
 *
 * @param task what strategies see: a never-seen id and intent
 * @param kind the recurring kind it is an instance of (environment-defined, e.g. a SQL template kind, an ops
 *     family, a house and goal type, a question); never shown to strategies
 * @param driftingKind whether its kind is one that changes at the drift (before the drift too, so that the
 *     benchmark can compare the kind's success before and after)
 */
public record StreamTask(Task task, String kind, boolean driftingKind) {
  public StreamTask {
    if (kind.isBlank()) {
      throw new IllegalArgumentException("kind of " + task.id() + " must not be blank");
    }
  }
}
