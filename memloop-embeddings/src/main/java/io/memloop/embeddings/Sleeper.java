package io.memloop.embeddings;

import java.time.Duration;

/** How the retry loop waits between attempts; tests substitute one that records instead of sleeping. */
@FunctionalInterface
interface Sleeper {
  Sleeper SYSTEM = Thread::sleep;

  void sleep(Duration duration) throws InterruptedException;
}
