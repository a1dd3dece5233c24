import { useMemo, useRef, useState } from "preact/hooks";
import { api, seg } from "../api.js";
import { Chart, ErrorBox, Loading, When, int, num, timeRange, useApi } from "../common.jsx";
import { href } from "../route.js";

/** One memory: its text, Q over time, the retrievals that showed it, its neighbours; edit and forget. */
export function Memory({ ns, id }) {
  const [version, setVersion] = useState(0);
  const path = `/namespaces/${seg(ns)}/memories/${seg(id)}`;
  const { data, error, loading } = useApi(`${path}/history`, version);
  if (error && !data) {
    return <section><h1>Memory</h1><ErrorBox error={error} what="Memory" /><p><a href={href.memories(ns)}>Back to the memories</a></p></section>;
  }
  if (!data) return <section><h1>Memory</h1><Loading what="the memory" /></section>;
  const m = data.memory;
  return (
    <section>
      <h1>Memory <code class="id">{m.id}</code></h1>
      <p class="actions">
        <a href={href.memories(ns)}>← All memories</a>
        <button type="button" id="refresh" onClick={() => setVersion(version + 1)} disabled={loading}>Refresh</button>
      </p>
      <dl class="stats" id="memory-numbers">
        <div><dt>Outcome</dt><dd><span class={`outcome ${m.outcome}`}>{m.outcome}</span></dd></div>
        <div><dt>Q (learned utility)</dt><dd id="q">{num(m.q)}</dd></div>
        <div><dt>Visits (rewards)</dt><dd id="visits">{int(m.visits)}</dd></div>
        <div><dt>Created</dt><dd><When at={m.createdAt} /></dd></div>
        <div><dt>Updated</dt><dd><When at={m.updatedAt} /></dd></div>
        <div><dt>Intent group</dt><dd><code class="id">{m.intentId}</code></dd></div>
      </dl>
      <h2>Intent</h2>
      <p class="text block" id="intent">{m.intent || <em>(no text: given as an embedding)</em>}</p>
      <h2>Experience</h2>
      <pre class="text block" id="experience">{m.experience}</pre>
      {m.parts && m.parts.length > 1 ? (
        <>
          <h3>Attempts in this failure note (newest first)</h3>
          <ol class="parts" id="parts">{m.parts.map((p) => <li><pre class="text">{p}</pre></li>)}</ol>
        </>
      ) : null}
      <Edit path={path} memory={m} onSaved={() => setVersion(version + 1)} />
      <QChart history={data} />
      <Retrievals history={data} />
      <Neighbours ns={ns} path={path} version={version} />
      <Forget ns={ns} path={path} />
    </section>
  );
}

function QChart({ history }) {
  const points = history.q ?? [];
  const data = useMemo(() => [points.map((p) => Date.parse(p.at) / 1000), points.map((p) => p.q),
    points.map((p) => (p.reward == null ? null : p.reward))], [history]);
  const opts = useMemo(() => ({
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    // Q and rewards live in the reward range (default -1 … 1): show at least that, so a flat line reads as flat
    scales: { x: { time: true, range: timeRange(1800) }, y: { range: (u, min, max) => [Math.min(min ?? -1, -1), Math.max(max ?? 1, 1)] } },
    series: [
      { label: "time (local)" },
      { label: "Q after the reward", stroke: "#1f6feb", width: 2, points: { show: true } },
      { label: "reward", stroke: "#9a6700", width: 0, points: { show: true, size: 7 } },
    ],
    axes: [{ label: "time (local)" }, { label: "Q, reward", size: 60 }],
  }), []);
  return (
    <>
      <h2>Q over time</h2>
      <p class="muted">Since <When at={history.since} /> (server start){history.complete === false ? "; older points were dropped by the server's bounds" : ""}.</p>
      {points.length ? <Chart opts={opts} data={data} label="Q of this memory after each reward" height={220} /> : <p>No point recorded.</p>}
    </>
  );
}

function Retrievals({ history }) {
  const rs = history.retrievals ?? [];
  return (
    <>
      <h2>Retrievals that recalled it</h2>
      {rs.length === 0 ? <p>None since the server started.</p> : (
        <div class="scroll">
          <table class="grid compact" id="retrievals">
            <thead><tr><th scope="col">When</th><th scope="col">Task</th><th scope="col" class="n">Similarity</th><th scope="col" class="n">Score</th>
              <th scope="col">Shown</th><th scope="col" class="n">Probability</th><th scope="col" class="n">Reward</th><th scope="col">Success</th></tr></thead>
            <tbody>
              {rs.map((r) => (
                <tr key={r.retrievalId}>
                  <td><When at={r.at} /></td>
                  <td class="text">{r.intent}</td>
                  <td class="n">{num(r.similarity)}</td>
                  <td class="n">{num(r.score)}</td>
                  <td>{r.selected ? "yes" : "no"}</td>
                  <td class="n">{num(r.probability, 2)}</td>
                  <td class="n">{r.reward == null ? "not yet" : num(r.reward, 2)}</td>
                  <td>{r.success == null ? "—" : r.success ? "yes" : "no"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function Neighbours({ ns, path, version }) {
  const state = useApi(`${path}/neighbours?limit=10`, version);
  const list = state.data?.neighbours ?? [];
  return (
    <>
      <h2>Neighbours (nearest other intents)</h2>
      <ErrorBox error={state.error} what="Neighbours" />
      {state.data && list.length === 0 ? <p>No other memory is near.</p> : null}
      {list.length ? (
        <div class="scroll">
          <table class="grid compact" id="neighbours">
            <thead><tr><th scope="col" class="n">Similarity</th><th scope="col">Intent</th><th scope="col">Outcome</th><th scope="col" class="n">Q</th></tr></thead>
            <tbody>
              {list.map((n) => (
                <tr key={n.memory.id}>
                  <td class="n">{num(n.similarity)}</td>
                  <td class="text"><a href={href.memory(ns, n.memory.id)}>{n.memory.intent || n.memory.id}</a></td>
                  <td><span class={`outcome ${n.memory.outcome}`}>{n.memory.outcome}</span></td>
                  <td class="n">{num(n.memory.q)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function Edit({ path, memory, onSaved }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(memory.experience);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function save(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api(path, { method: "PATCH", body: { experience: text } });
      setOpen(false);
      onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  if (!open) {
    return <p><button type="button" id="edit" onClick={() => { setText(memory.experience); setOpen(true); }}>Edit the experience</button></p>;
  }
  return (
    <form class="edit" onSubmit={save}>
      <label class="field">
        <span>Experience (keeps its id, intent, outcome, Q and visits)</span>
        <textarea id="edit-text" rows={8} value={text} onInput={(e) => setText(e.currentTarget.value)} autofocus />
      </label>
      <ErrorBox error={error} what="Not saved" />
      <div class="buttons">
        <button type="submit" id="save" disabled={busy}>Save</button>
        <button type="button" onClick={() => setOpen(false)}>Cancel</button>
      </div>
    </form>
  );
}

function Forget({ ns, path }) {
  const dialog = useRef(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function forget() {
    setBusy(true);
    setError(null);
    try {
      await api(path, { method: "DELETE" });
      dialog.current.close();
      location.hash = href.memories(ns);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <h2>Forget</h2>
      <p><button type="button" class="danger" id="forget" onClick={() => dialog.current.showModal()}>Forget this memory…</button></p>
      <dialog ref={dialog} aria-labelledby="forget-title" id="forget-dialog">
        <h2 id="forget-title">Forget this memory?</h2>
        <p>It is deleted from the store and no retrieval will show it again. This cannot be undone.</p>
        <ErrorBox error={error} what="Not forgotten" />
        <div class="buttons">
          <button type="button" class="danger" id="forget-confirm" onClick={forget} disabled={busy}>Forget it</button>
          <button type="button" id="forget-cancel" onClick={() => dialog.current.close()} autofocus>Cancel</button>
        </div>
      </dialog>
    </>
  );
}
