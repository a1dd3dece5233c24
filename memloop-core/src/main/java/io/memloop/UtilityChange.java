package io.memloop;

/** What a reward did to one memory's utility. */
public record UtilityChange(String memoryId, double qBefore, double qAfter, long visits) {}
