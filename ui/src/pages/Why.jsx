import { useState } from "preact/hooks";
import { api, seg } from "../api.js";
import { ErrorBox, int, num } from "../common.jsx";
import { href } from "../route.js";

const bool = (b) => (b ? "yes" : "no");

/** "Why this retrieval": what a retrieval for a task would recall, how each candidate scored, and what it would show. */
export function Why({ ns }) {
  const [intent, setIntent] = useState("");
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function explain(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setResult(await api(`/namespaces/${seg(ns)}/explain`, { method: "POST", body: { intent } }));
    } catch (err) {
      setError(err);
      setResult(null);
    } finally {
      setBusy(false);
    }
  }
  const byId = new Map((result?.candidates ?? []).map((c) => [c.memory.id, c.memory]));
  return (
    <section>
      <h1>Why this retrieval</h1>
      <p>Type or paste a task. The server runs the same recall and selection as a retrieval, read-only: nothing is
        saved, learned or drawn at random.</p>
      <form onSubmit={explain} class="why">
        <label class="field">
          <span>Task (the intent an agent would send)</span>
          <textarea id="why-intent" rows={3} value={intent} onInput={(e) => setIntent(e.currentTarget.value)} required />
        </label>
        <div class="buttons"><button type="submit" id="explain" disabled={busy || !intent.trim()}>Explain</button></div>
      </form>
      <ErrorBox error={error} what="Explain" />
      {result ? (
        <div id="explanation">
          <h2>What the agent would be shown</h2>
          {result.shown.length === 0 ? <p id="shown-none">Nothing: no candidate is shown.</p> : (
            <ol id="shown">
              {result.shown.map((id) => {
                const m = byId.get(id);
                return <li key={id}><a href={href.memory(ns, id)}>{m ? m.intent || id : id}</a>{m ? <p class="text clip">{m.experience}</p> : null}</li>;
              })}
            </ol>
          )}
          <h2>How it was decided</h2>
          <ol id="steps">{result.steps.map((s) => <li><strong>{s.step}</strong>: {s.detail}</li>)}</ol>
          <p class="muted">Recalled {int(result.recalled?.intents)} intent groups, {int(result.recalled?.memories)} memories.
            {" "}Configuration: {Object.entries(result.config ?? {}).map(([k, v]) => `${k}=${v}`).join(", ")}.</p>
          <h2>Candidates</h2>
          <div class="scroll">
            <table class="grid compact" id="candidates">
              <thead>
                <tr><th scope="col" class="n">Rank</th><th scope="col">Memory</th><th scope="col" class="n">Similarity</th><th scope="col" class="n">Q</th>
                  <th scope="col" class="n">Score</th><th scope="col">Eligible</th><th scope="col">Tier</th><th scope="col">Greedy pick</th>
                  <th scope="col" class="n">Probability</th><th scope="col">Shown</th></tr>
              </thead>
              <tbody>
                {result.candidates.map((c) => (
                  <tr key={c.memory.id} class={c.shown ? "shown" : undefined}>
                    <td class="n">{c.rank}</td>
                    <td class="text"><a href={href.memory(ns, c.memory.id)}>{c.memory.intent || c.memory.id}</a>
                      {c.memory.outcome ? <span class="muted"> · {c.memory.outcome}</span> : null}</td>
                    <td class="n">{num(c.similarity)}</td>
                    <td class="n">{num(c.q)}</td>
                    <td class="n">{num(c.score)}</td>
                    <td>{c.eligible ? "yes" : `no (${c.dropped ?? "dropped"})`}</td>
                    <td>{c.tier ?? "—"}</td>
                    <td>{bool(c.greedy)}</td>
                    <td class="n">{num(c.probability, 2)}</td>
                    <td>{bool(c.shown)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
