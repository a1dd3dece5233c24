"""examples/agent_loop.py's choice of command, without a server: a merged failure note's every attempt is avoided."""

import importlib.util
import random
import unittest
from datetime import datetime, timezone
from pathlib import Path

import memloop

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "agent_loop.py"
SEP = "\n--- earlier attempt ---\n"


def load_example():
    spec = importlib.util.spec_from_file_location("agent_loop", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def note(intent, outcome, parts, id="m_1"):
    now = datetime(2025, 1, 1, tzinfo=timezone.utc)
    return memloop.Memory(id, "team-a", "i_1", intent, SEP.join(parts), list(parts), outcome, 0.0, 0, now, now)


class Choose(unittest.TestCase):
    def setUp(self):
        self.example = load_example()
        self.task = "rotate the database password"
        self.right = self.example.TASKS[self.task]

    def retrieval(self, *memories):
        return memloop.Retrieval("r_1", "team-a", [], list(memories))

    def test_aMergedFailureNote_everyAttemptItListsIsAvoided(self):
        wrong = [c for c in self.example.COMMANDS if c != self.right]
        merged = note(self.task, "failure", wrong)  # four failed attempts in one note (the regression: one string never matched)
        for seed in range(50):
            command, used, failed = self.example.choose(self.task, self.retrieval(merged), random.Random(seed))
            self.assertEqual(self.right, command)
            self.assertIsNone(used)
            self.assertEqual(set(wrong), failed)

    def test_aRecordedSuccessOfTheSameTask_isReused(self):
        success = note(self.task, "success", [self.right], id="m_ok")
        command, used, _ = self.example.choose(self.task, self.retrieval(note(self.task, "failure", ["x"]), success), random.Random(1))
        self.assertEqual((self.right, "m_ok"), (command, used.id))

    def test_anotherTasksMemories_areIgnored(self):
        other = note("free disk space on the build machine", "success", [self.right])
        counts = {c: 0 for c in self.example.COMMANDS}
        for seed in range(200):
            command, used, failed = self.example.choose(self.task, self.retrieval(other), random.Random(seed))
            counts[command] += 1
            self.assertIsNone(used)
            self.assertEqual(set(), failed)
        self.assertTrue(all(n > 0 for n in counts.values()), counts)


if __name__ == "__main__":
    unittest.main()
