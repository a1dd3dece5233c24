/**
 * MemLoop: runtime reinforcement learning over an episodic experience memory.
 *
 * <p>The exported API is {@link io.memloop.MemLoop} (the engine), {@link io.memloop.MemLoopConfig}
 * (every retrieval and learning knob, validated once) and the value records it returns. Learning lives
 * here; storage ({@link io.memloop.store}) and embedding ({@link io.memloop.embed}) are SPIs, and
 * nothing in this module imports HTTP, JSON or a database driver.
 */
@NullMarked
package io.memloop;

import org.jspecify.annotations.NullMarked;
