import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, seg } from "../api.js";
import { Chart, ErrorBox, Loading, When, int, num, pct, timeRange, useApi } from "../common.jsx";
import { href } from "../route.js";

const POLL_MS = 3000;
const KEEP_EVENTS = 200;
const SHOW_EVENTS = 25;

/** One namespace: its numbers, what it learned, its activity over time, live events and the decision report. */
export function Namespace({ ns }) {
  const { data, error, loading, reload } = useApi(`/namespaces/${seg(ns)}/overview`);
  if (error && !data) return <section><h1>{ns}</h1><ErrorBox error={error} what="Namespace" /></section>;
  if (loading && !data) return <section><h1>{ns}</h1><Loading what="the namespace" /></section>;
  const s = data.stats;
  return (
    <section>
      <h1>Namespace {ns}</h1>
      <p class="actions">
        <a class="button" href={href.memories(ns)}>Browse memories</a>
        <a class="button" href={href.why(ns)}>Why this retrieval</a>
        <button type="button" onClick={reload}>Refresh</button>
      </p>
      <h2>Numbers</h2>
      <dl class="stats" id="stats">
        <div><dt>Memories</dt><dd>{int(s.memories)}</dd></div>
        <div><dt>Intent groups</dt><dd>{int(s.intents)}</dd></div>
        <div><dt>Success memories</dt><dd>{int(s.successes)}</dd></div>
        <div><dt>Failure memories</dt><dd>{int(s.failures)}</dd></div>
        <div><dt>Mean Q</dt><dd>{num(s.meanQ)}</dd></div>
        <div><dt>Q range</dt><dd>{num(s.minQ)} … {num(s.maxQ)}</dd></div>
        <div><dt>Rewards given</dt><dd>{int(s.totalVisits)}</dd></div>
        <div><dt>Retrievals awaiting a reward</dt><dd>{int(s.pendingRetrievals)}</dd></div>
        <div><dt>Embedding model</dt><dd>{s.model ? `${s.model.id} (${s.model.dimension} dims)` : "—"}</dd></div>
      </dl>
      <Activity activity={data.activity} />
      <Learned learned={data.learned} model={s.model} />
      <Events ns={ns} />
      <Report ns={ns} />
      <h2>Configuration</h2>
      <details>
        <summary>{data.config.recorded ? "Every knob" : "Every knob (not recorded yet: the ones it will get)"}</summary>
        <div class="scroll">
          <table class="grid compact" id="config">
            <thead><tr><th scope="col">Knob</th><th scope="col">Value</th></tr></thead>
            <tbody>
              {Object.entries(data.config.knobs).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => (
                <tr key={k}><th scope="row"><code>{k}</code></th><td class="text">{v}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

/** Episodes (rewards) and retrievals per minute, and the success rate, since the server started. */
function Activity({ activity }) {
  const buckets = activity?.buckets ?? [];
  const data = useMemo(() => [
    buckets.map((b) => Date.parse(b.start) / 1000),
    buckets.map((b) => b.retrievals),
    buckets.map((b) => b.rewards),
    buckets.map((b) => (b.rewards ? (100 * b.successes) / b.rewards : null)),
  ], [activity]);
  const opts = useMemo(() => ({
    title: "",
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true, range: timeRange(300) }, y: { range: (u, min, max) => [0, Math.max(max ?? 1, 1)] }, pct: { range: [0, 100] } },
    series: [
      { label: "minute (local time)" },
      { label: "retrievals / min", stroke: "#1f6feb", width: 2, points: { show: true } },
      { label: "rewarded episodes / min", stroke: "#8250df", width: 2, points: { show: true } },
      { label: "success rate (%)", stroke: "#1a7f37", width: 2, dash: [6, 4], scale: "pct", points: { show: true },
        spanGaps: true, value: (u, v) => (v == null ? "—" : `${v.toFixed(1)} %`) },
    ],
    axes: [
      { label: "time (local)" },
      { label: "per minute", size: 60 },
      { label: "success rate (%)", scale: "pct", side: 1, size: 60, grid: { show: false } },
    ],
  }), []);
  const total = buckets.reduce((a, b) => ({ r: a.r + b.retrievals, w: a.w + b.rewards, s: a.s + b.successes }), { r: 0, w: 0, s: 0 });
  return (
    <>
      <h2>Activity</h2>
      <p class="muted">Since the server started (<When at={activity?.since} />), per minute ({activity?.bucketSeconds ?? 60} s buckets, the last 24 h):
        {" "}{int(total.r)} retrievals, {int(total.w)} rewarded episodes, success rate {total.w ? pct(total.s / total.w) : "—"}.</p>
      {buckets.length ? <Chart opts={opts} data={data} label="Retrievals, rewarded episodes and success rate per minute" />
        : <p>No activity recorded since the server started.</p>}
    </>
  );
}

function Learned({ learned, model }) {
  if (!learned) return null;
  const x = learned.exploration ?? {};
  const d = learned.noteDepth ?? {};
  const weights = learned.similarityBlocks?.weights ?? [];
  const directions = learned.similarityDirections;
  const scales = directions?.scales ?? [];
  const text = learned.textSimilarity;
  const doubt = learned.doubt ?? {};
  const use = learned.directionsUse ?? {};
  const alone = learned.textAlone ?? {};
  const models = model?.id?.split("+") ?? [];
  return (
    <>
      <h2>What it learned</h2>
      {!learned.taskLearning ? <p>Per-task learning is off for this namespace (knob <code>taskLearning</code>): it learns only each memory's Q.</p> : (
        <div class="scroll">
          <table class="grid compact" id="learned">
            <thead><tr><th scope="col">Choice</th><th scope="col">Option</th><th scope="col" class="n">Episodes</th><th scope="col" class="n">Success rate</th></tr></thead>
            <tbody>
              <tr><th scope="row" rowSpan={2}>Explore a new memory{x.probability != null ? ` (now taken with probability ${num(x.probability, 2)})` : ""}</th>
                <td>explored</td><td class="n">{int(x.explored)}</td><td class="n">{pct(x.exploredSuccessRate)}</td></tr>
              <tr><td>did not explore</td><td class="n">{int(x.notExplored)}</td><td class="n">{pct(x.notExploredSuccessRate)}</td></tr>
              <tr><th scope="row" rowSpan={2}>Failure note depth</th>
                <td>whole note</td><td class="n">{int(d.whole)}</td><td class="n">{pct(d.wholeSuccessRate)}</td></tr>
              <tr><td>shortened to the newest attempt</td><td class="n">{int(d.shortened)}</td><td class="n">{pct(d.shortenedSuccessRate)}</td></tr>
              <tr id="doubt"><th scope="row" rowSpan={2}>A new task's successes whose latest use failed{doubt.probability != null ? ` (shown last with probability ${num(doubt.probability, 2)})` : ""}</th>
                <td>shown last</td><td class="n">{int(doubt.demoted)}</td><td class="n">{pct(doubt.demotedSuccessRate)}</td></tr>
              <tr><td>kept in their place</td><td class="n">{int(doubt.kept)}</td><td class="n">{pct(doubt.keptSuccessRate)}</td></tr>
              <tr id="directions-use"><th scope="row" rowSpan={2}>A new task ranked by the learned similarity{use.probability != null ? ` (with probability ${num(use.probability, 2)})` : ""}</th>
                <td>learned similarity</td><td class="n">{int(use.learned)}</td><td class="n">{pct(use.learnedSuccessRate)}</td></tr>
              <tr><td>plain cosine</td><td class="n">{int(use.cosine)}</td><td class="n">{pct(use.cosineSuccessRate)}</td></tr>
              <tr id="text-alone"><th scope="row" rowSpan={2}>A new task ranked by its text's words alone{alone.probability != null ? ` (with probability ${num(alone.probability, 2)})` : ""}</th>
                <td>words alone (latest draws)</td><td class="n">{int(alone.alone)}</td><td class="n">{pct(alone.aloneSuccessRate)}</td></tr>
              <tr><td>vectors and words, as learned</td><td class="n">{int(alone.mixed)}</td><td class="n">{pct(alone.mixedSuccessRate)}</td></tr>
            </tbody>
          </table>
        </div>
      )}
      {learned.taskLearning && (
        <ul id="learned-namespace">
          <li>Tasks that come back: {learned.recurrence == null ? "no reward yet" : <>{pct(learned.recurrence)} of rewarded
            retrievals (where few do, a task never seen is shown newer memories first once a success has gone stale)</>}</li>
          {weights.length > 1 && (
            <li id="block-weights">Whose similarity it trusts, learned from {int(learned.similarityBlocks.updates)} rewards:{" "}
              {weights.map((w, i) => `${models.length === weights.length ? models[i] : `block ${i + 1}`} ${pct(w)}`).join(", ")}</li>
          )}
          {directions && directions.pairs > 0 && (
            <li id="similarity-directions">A similarity learned from {int(directions.pairs)} successful episodes (what their
              query and the memory they used differ in is wording that does not tell tasks apart):{" "}
              {scales.length === 0 ? "not fitted yet (every 32 successes)" : <>it discounts {scales.length} directions
                holding {pct(directions.varianceShare)} of that wording's variation, each scaled to{" "}
                {scales.map((x) => num(x, 2)).join(", ")} (fitted at {int(directions.fittedAt)})</>}</li>
          )}
          {text && text.weights?.length === 2 && text.updates > 0 && (
            <li id="text-weights">For a task never seen, the words its text shares with each memory's intent beside the
              vectors' similarity, learned from {int(text.updates)} rewards: vectors {pct(text.weights[0])}, texts{" "}
              {pct(text.weights[1])}</li>
          )}
        </ul>
      )}
    </>
  );
}

/** The namespace's recent events, newest first, polled every 3 s. */
function Events({ ns }) {
  const [events, setEvents] = useState([]);
  const [error, setError] = useState(null);
  const [live, setLive] = useState(true);
  const [all, setAll] = useState(false);
  const after = useRef(null);
  useEffect(() => {
    if (!live) return undefined;
    let stopped = false;
    let timer = null;
    const ctl = new AbortController();
    async function poll() {
      try {
        const q = after.current == null ? "limit=100" : `after=${encodeURIComponent(after.current)}&limit=${KEEP_EVENTS}`;
        const r = await api(`/namespaces/${seg(ns)}/events?${q}`, { signal: ctl.signal });
        // a full answer: more happened since the last poll than the page keeps (a busy namespace, ~2 events an
        // episode): the next poll asks for the newest instead of catching up on ones that would be dropped unseen
        if (r.next != null) after.current = after.current != null && r.events.length === KEEP_EVENTS ? null : r.next;
        if (r.events.length) setEvents((old) => [...r.events.slice().reverse(), ...old].slice(0, KEEP_EVENTS));
        setError(null);
      } catch (e) {
        if (e.name === "AbortError") return;
        setError(e);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    }
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
      ctl.abort();
    };
  }, [ns, live]);
  return (
    <>
      <h2>Recent events</h2>
      <p class="muted">Since the server started, newest first; {live ? "updated every 3 s" : "paused"}.
        {" "}<button type="button" onClick={() => setLive(!live)} aria-pressed={!live}>{live ? "Pause" : "Resume"}</button></p>
      <ErrorBox error={error} what="Events" />
      {events.length === 0 ? <p>No events yet.</p> : (
        <div class="scroll">
          <table class="grid compact" id="events" aria-live="off">
            <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Detail</th></tr></thead>
            <tbody>
              {(all ? events : events.slice(0, SHOW_EVENTS)).map((e) => (
                <tr key={e.seq}>
                  <td><When at={e.at} /></td>
                  <td>{e.type}</td>
                  <td class="text"><EventDetail ns={ns} e={e} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {events.length > SHOW_EVENTS ? (
            <button type="button" onClick={() => setAll(!all)} aria-expanded={all}>
              {all ? `Show the newest ${SHOW_EVENTS}` : `Show all ${events.length} kept`}
            </button>
          ) : null}
        </div>
      )}
    </>
  );
}

function EventDetail({ ns, e }) {
  const parts = [];
  if (e.intent) parts.push(<span>“{e.intent}”</span>);
  if (e.reward != null) parts.push(<span>reward {num(e.reward, 2)}{e.success != null ? (e.success ? " (success)" : " (failure)") : ""}</span>);
  const ids = e.memoryIds ?? (e.memoryId ? [e.memoryId] : []);
  if (ids.length) {
    parts.push(<span>{ids.length === 1 ? "memory " : "memories "}{ids.map((id, i) => (
      <>{i ? ", " : ""}{e.type === "forgotten" ? <code>{id}</code> : <a href={href.memory(ns, id)}><code>{id}</code></a>}</>
    ))}</span>);
  }
  return <>{parts.map((p, i) => <>{i ? " · " : ""}{p}</>)}</>;
}

/** The decision report: how other configurations would have done on this namespace's logged decisions. */
function Report({ ns }) {
  const [version, setVersion] = useState(0);
  const { data, error, loading } = useApi(`/namespaces/${seg(ns)}/report`, version);
  return (
    <>
      <h2>Decision report</h2>
      <p class="muted">Off-policy evaluation of other configurations on this namespace's logged retrievals (from the server's event log).
        {" "}<button type="button" onClick={() => setVersion(version + 1)}>Recompute</button></p>
      <ErrorBox error={error} what="Decision report" />
      {loading && !data ? <Loading what="the decision report" /> : null}
      {data && !data.available ? <p id="report-unavailable">Not available: {data.reason}</p> : null}
      {data && data.available ? <ReportBody r={data} /> : null}
    </>
  );
}

const est = (e) => (e && typeof e === "object" ? `${num(e.value)} [${num(e.low)}, ${num(e.high)}]` : num(e));

function ReportBody({ r }) {
  const reports = Array.isArray(r.candidates) ? r.candidates : []; // memloop evaluate --json's shape
  return (
    <div id="report">
      <p>{int(r.decisions)} logged decisions{r.firstAt ? <> from <When at={r.firstAt} /> to <When at={r.lastAt} /></> : null};
        {" "}logged success rate {est(r.loggedSuccess)}, mean reward {num(r.loggedReward)}.</p>
      {Array.isArray(r.warnings) && r.warnings.length ? <ul class="warnings">{r.warnings.map((w) => <li>{String(w)}</li>)}</ul> : null}
      {reports.length ? (
        <div class="scroll">
          <table class="grid compact">
            <thead><tr><th scope="col">Configuration</th><th scope="col" class="n">Decisions</th><th scope="col" class="n">Agreeing</th>
              <th scope="col" class="n">Success (DR, 95 % interval)</th><th scope="col" class="n">Gain over logged</th>
              <th scope="col" class="n">Effective sample size</th><th scope="col">Warnings</th></tr></thead>
            <tbody>
              {reports.map((c) => (
                <tr key={c.candidate}>
                  <th scope="row"><code>{c.candidate}</code></th>
                  <td class="n">{int(c.decisions)}</td>
                  <td class="n">{int(c.agreeing)}</td>
                  <td class="n">{est(c.drSuccess)}</td>
                  <td class="n">{est(c.drSuccessGain)}</td>
                  <td class="n">{num(c.effectiveSampleSize, 1)}</td>
                  <td class="text warnings">{Array.isArray(c.warnings) && c.warnings.length ? <ul>{c.warnings.map((w) => <li>{String(w)}</li>)}</ul> : "none"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
