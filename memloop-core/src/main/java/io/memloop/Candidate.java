package io.memloop;

/**
 * One member of a retrieval's candidate pool, as the policy saw it.
 *
 * @param memoryId the memory
 * @param similarity cosine between the query and the memory's intent group
 * @param q the memory's utility at retrieval time
 * @param score Phase B score {@code (1-λ)·norm(sim) + λ·norm(Q)}
 * @param selected whether the policy returned it
 * @param probability the probability the policy had of selecting it (1 or 0 when greedy; mixes the
 *     greedy choice and the uniform exploration draw under ε-greedy). Logged so a new policy can be
 *     evaluated off-policy from these records.
 */
public record Candidate(
    String memoryId, double similarity, double q, double score, boolean selected, double probability) {}
