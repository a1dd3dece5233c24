import { useEffect, useState } from "preact/hooks";
import { api, seg } from "../api.js";
import { ErrorBox, Field, Loading, When, int, num } from "../common.jsx";
import { href } from "../route.js";

const PAGE = 50;
const FILTERS = ["text", "outcome", "minQ", "maxQ", "minVisits", "maxVisits", "createdFrom", "createdTo", "updatedFrom", "updatedTo"];
/** The columns the API sorts by; the text columns have no order of their own. */
const COLUMNS = [
  { key: "intent", label: "Intent" },
  { key: "experience", label: "Experience" },
  { key: "outcome", label: "Outcome" },
  { key: "q", label: "Q", sort: "q", numeric: true },
  { key: "visits", label: "Visits", sort: "visits", numeric: true },
  { key: "created", label: "Created", sort: "created" },
  { key: "updated", label: "Updated", sort: "updated" },
];

/** The query of the hash route (filters, sort, order) as the API's query string, without a cursor. */
function apiQuery(query) {
  const q = new URLSearchParams();
  for (const f of FILTERS) if (query.get(f)) q.set(f, query.get(f));
  q.set("sort", query.get("sort") || "created");
  q.set("order", query.get("order") || "desc");
  q.set("limit", String(PAGE));
  return q;
}

// datetime-local input value (local time) <-> ISO-8601 instant in the hash
const toLocal = (iso) => {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return "";
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
};
const fromLocal = (v) => (v ? new Date(v).toISOString() : "");

/** The memories table: search, filters, sort by a column, pages by cursor (next and previous). */
export function Memories({ ns, query }) {
  const base = apiQuery(query);
  const baseKey = base.toString();
  // cursors[i] opens page i + 1 of this query; the last one is the page shown. A new query starts at page 1.
  const [pages, setPages] = useState({ key: baseKey, cursors: [null] });
  const cursors = pages.key === baseKey ? pages.cursors : [null];
  const setCursors = (c) => setPages({ key: baseKey, cursors: c });
  const [state, setState] = useState({ data: null, error: null, loading: true, ms: null });
  const after = cursors[cursors.length - 1];
  useEffect(() => {
    const ctl = new AbortController();
    const q = new URLSearchParams(base);
    if (after) q.set("after", after);
    const t0 = performance.now();
    setState((s) => ({ ...s, loading: true, error: null }));
    api(`/namespaces/${seg(ns)}/memories?${q}`, { signal: ctl.signal }).then(
      (data) => setState({ data, error: null, loading: false, ms: performance.now() - t0, page: cursors.length }),
      (error) => error.name !== "AbortError" && setState({ data: null, error, loading: false, ms: null }));
    return () => ctl.abort();
  }, [ns, baseKey, after]);

  function go(next) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) q.set(k, v);
    location.hash = href.memories(ns, q);
  }
  const current = Object.fromEntries(["sort", "order", ...FILTERS].map((k) => [k, query.get(k) || ""]));
  const sort = current.sort || "created";
  const order = current.order || "desc";

  function sortBy(col) {
    go({ ...current, sort: col, order: sort === col && order === "desc" ? "asc" : "desc" });
  }
  const { data, error, loading } = state;
  const page = cursors.length;
  return (
    <section>
      <h1>Memories of {ns}</h1>
      <Filters current={current} onApply={(f) => go({ ...f, sort: current.sort, order: current.order })} />
      <ErrorBox error={error} what="Memories" />
      <div class="pager" role="group" aria-label="Pages">
        <button type="button" id="prev" disabled={page === 1 || loading} onClick={() => setCursors(cursors.slice(0, -1))}>← Previous</button>
        <span aria-live="polite" id="count">
          {data ? `Page ${state.page} · ${int(data.total)} ${data.total === 1 ? "memory matches" : "memories match"}` : ""}
          {state.ms != null ? ` · ${Math.round(state.ms)} ms` : ""}
        </span>
        <button type="button" id="next" disabled={!data || data.next == null || loading} onClick={() => setCursors([...cursors, data.next])}>Next →</button>
      </div>
      {loading && !data ? <Loading what="memories" /> : null}
      {data ? (
        <div class="scroll">
          <table class="grid" id="memories" aria-busy={loading ? "true" : "false"}>
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th scope="col" class={c.numeric ? "n" : undefined}
                    aria-sort={c.sort && sort === c.sort ? (order === "asc" ? "ascending" : "descending") : undefined}>
                    {c.sort ? (
                      <button type="button" class="sort" onClick={() => sortBy(c.sort)}
                        title={`Sort by ${c.label.toLowerCase()}`}>
                        {c.label}<span aria-hidden="true">{sort === c.sort ? (order === "asc" ? " ▲" : " ▼") : " ↕"}</span>
                      </button>
                    ) : c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.memories.map((m) => (
                <tr key={m.id}>
                  <td class="text"><a href={href.memory(ns, m.id)}>{m.intent || <em>(no text: given as an embedding)</em>}</a></td>
                  <td class="text clip">{m.experience.length > 300 ? m.experience.slice(0, 300) + "…" : m.experience}</td>
                  <td><span class={`outcome ${m.outcome}`}>{m.outcome}</span></td>
                  <td class="n">{num(m.q)}</td>
                  <td class="n">{int(m.visits)}</td>
                  <td><When at={m.createdAt} /></td>
                  <td><When at={m.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.memories.length === 0 ? <p>No memory matches.</p> : null}
        </div>
      ) : null}
    </section>
  );
}

function Filters({ current, onApply }) {
  const [f, setF] = useState(current);
  useEffect(() => setF(current), [JSON.stringify(current)]);
  const set = (k) => (e) => setF({ ...f, [k]: e.currentTarget.value });
  const outcomes = new Set((f.outcome || "").split(",").filter(Boolean));
  const toggle = (o) => () => {
    const s = new Set(outcomes);
    if (s.has(o)) s.delete(o);
    else s.add(o);
    setF({ ...f, outcome: ["success", "failure", "unknown"].filter((x) => s.has(x)).join(",") });
  };
  const instant = (k) => ({ value: toLocal(f[k]), onInput: (e) => setF({ ...f, [k]: fromLocal(e.currentTarget.value) }) });
  return (
    <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); onApply(f); }}>
      <Field label="Search text (all words, in intent or experience)">
        <input type="search" id="search" value={f.text} onInput={set("text")} />
      </Field>
      <fieldset>
        <legend>Outcome</legend>
        {["success", "failure", "unknown"].map((o) => (
          <label class="check"><input type="checkbox" checked={outcomes.has(o)} onChange={toggle(o)} /> {o}</label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Q</legend>
        <Field label="from"><input type="number" step="any" inputMode="decimal" value={f.minQ} onInput={set("minQ")} /></Field>
        <Field label="to"><input type="number" step="any" inputMode="decimal" value={f.maxQ} onInput={set("maxQ")} /></Field>
      </fieldset>
      <fieldset>
        <legend>Visits</legend>
        <Field label="from"><input type="number" min="0" step="1" value={f.minVisits} onInput={set("minVisits")} /></Field>
        <Field label="to"><input type="number" min="0" step="1" value={f.maxVisits} onInput={set("maxVisits")} /></Field>
      </fieldset>
      <fieldset>
        <legend>Created (local time)</legend>
        <Field label="from"><input type="datetime-local" {...instant("createdFrom")} /></Field>
        <Field label="before"><input type="datetime-local" {...instant("createdTo")} /></Field>
      </fieldset>
      <fieldset>
        <legend>Updated (local time)</legend>
        <Field label="from"><input type="datetime-local" {...instant("updatedFrom")} /></Field>
        <Field label="before"><input type="datetime-local" {...instant("updatedTo")} /></Field>
      </fieldset>
      <div class="buttons">
        <button type="submit">Search</button>
        <button type="button" onClick={() => onApply(Object.fromEntries(FILTERS.map((k) => [k, ""])))}>Clear filters</button>
      </div>
    </form>
  );
}

