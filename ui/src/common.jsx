// Small pieces every page uses: loading an API answer, showing an error, numbers and instants, a uPlot chart.
import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import { api } from "./api.js";

/** Loads `path` (re-loads when it or `version` changes): {data, error, loading, reload}. */
export function useApi(path, version = 0) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path == null) return undefined;
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    api(path, { signal: ctl.signal }).then(
      (data) => setState({ data, error: null, loading: false }),
      (error) => {
        if (error.name !== "AbortError") setState({ data: null, error, loading: false });
      });
    return () => ctl.abort();
  }, [path, version, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

export function ErrorBox({ error, what }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <strong>{what ? `${what}: ` : ""}</strong>
      {error.message}
      {error.code && error.status ? <span class="muted"> ({error.status} {error.code})</span> : null}
    </div>
  );
}

export function Loading({ what }) {
  return <p class="muted" aria-live="polite">Loading {what}…</p>;
}

export const num = (x, digits = 3) => (x == null || Number.isNaN(x) ? "—" : Number(x).toFixed(digits));
export const pct = (x) => (x == null || Number.isNaN(x) ? "—" : `${(100 * x).toFixed(1)} %`);
export const int = (x) => (x == null ? "—" : Number(x).toLocaleString("en"));

/** An ISO-8601 instant as local time, with the instant itself in the title. */
export function When({ at }) {
  if (!at) return <span>—</span>;
  const d = new Date(at);
  const text = Number.isNaN(d.getTime()) ? at : d.toLocaleString("sv-SE").replace("T", " ");
  return <time dateTime={at} title={at}>{text}</time>;
}

/**
 * A time scale's range from the data itself, ±`pad` seconds around a single point (uPlot widens a single time point
 * by 86,400,000 s, years on a chart of minutes).
 */
export const timeRange = (pad) => (u, min, max) => {
  const xs = u.data[0];
  if (!xs || xs.length === 0) return [min, max];
  const lo = xs[0];
  const hi = xs[xs.length - 1];
  return lo === hi ? [lo - pad, hi + pad] : [lo, hi];
};

/** A uPlot chart sized to its container; `opts` without width/height, `data` as uPlot wants it. */
export function Chart({ opts, data, label, height = 240 }) {
  const box = useRef(null);
  const plot = useRef(null);
  useEffect(() => {
    const el = box.current;
    const width = Math.max(280, el.clientWidth);
    plot.current = new uPlot({ ...opts, width, height }, data, el);
    const ro = new ResizeObserver(() => {
      const w = Math.max(280, el.clientWidth);
      if (plot.current && Math.abs(plot.current.width - w) > 2) plot.current.setSize({ width: w, height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.current.destroy();
      plot.current = null;
    };
  }, [opts]);
  useEffect(() => {
    if (plot.current) plot.current.setData(data);
  }, [data]);
  return <figure class="chart" aria-label={label}><div ref={box} /></figure>;
}

export function Field({ label, children, hint }) {
  return (
    <label class="field">
      <span>{label}</span>
      {children}
      {hint ? <small class="muted">{hint}</small> : null}
    </label>
  );
}
