package io.memloop.store.solr;

/**
 * Thrown by {@link SolrIo#send} when the connection failed while a write was under way (the JDK's HTTP/1.1 client now
 * and then fails a request with "connection closed locally" on a pooled connection that was just closed): Solr may
 * have applied the write or not. The caller finds out from the documents it wrote, then sends again or not.
 */
final class WriteInDoubt extends RuntimeException {
  WriteInDoubt(Throwable cause) {
    super(cause.getMessage(), cause);
  }
}
