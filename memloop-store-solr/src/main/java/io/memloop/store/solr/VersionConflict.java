package io.memloop.store.solr;

/** Thrown by {@link SolrIo#write} when a document's {@code _version_} check failed (HTTP 409). */
final class VersionConflict extends RuntimeException {
  VersionConflict(Throwable cause) {
    super(cause.getMessage(), cause);
  }
}
