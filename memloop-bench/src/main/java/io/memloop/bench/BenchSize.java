package io.memloop.bench;

/** How big each environment of a benchmark run is: {@code QUICK} finishes in minutes on 2 cores. */
public enum BenchSize {
  QUICK,
  FULL
}
