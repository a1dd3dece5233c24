import { useEffect, useState } from "preact/hooks";
import { api, seg } from "../api.js";
import { ErrorBox, Loading, int, num, useApi } from "../common.jsx";
import { href } from "../route.js";

/** The namespaces this key may use, each with its headline numbers. */
export function Namespaces() {
  const { data, error, loading } = useApi("/namespaces");
  const [stats, setStats] = useState({});
  useEffect(() => {
    if (!data) return undefined;
    const ctl = new AbortController();
    for (const ns of data.namespaces.slice(0, 100)) {
      api(`/namespaces/${seg(ns)}/stats`, { signal: ctl.signal })
        .then((s) => setStats((m) => ({ ...m, [ns]: s })), () => {});
    }
    return () => ctl.abort();
  }, [data]);
  return (
    <section>
      <h1>Namespaces</h1>
      <ErrorBox error={error} what="Namespaces" />
      {loading && !data ? <Loading what="namespaces" /> : null}
      {data && data.namespaces.length === 0 ? <p>This key sees no namespace yet: none has memories.</p> : null}
      {data && data.namespaces.length > 0 ? (
        <div class="scroll">
          <table class="grid" id="namespaces">
            <thead>
              <tr><th scope="col">Namespace</th><th scope="col" class="n">Memories</th><th scope="col" class="n">Intent groups</th>
                <th scope="col" class="n">Success / failure memories</th><th scope="col" class="n">Mean Q</th><th scope="col" class="n">Rewards given</th></tr>
            </thead>
            <tbody>
              {data.namespaces.map((ns) => {
                const s = stats[ns];
                return (
                  <tr key={ns}>
                    <th scope="row"><a href={href.ns(ns)}>{ns}</a></th>
                    <td class="n">{s ? int(s.memories) : "…"}</td>
                    <td class="n">{s ? int(s.intents) : "…"}</td>
                    <td class="n">{s ? `${int(s.successes)} / ${int(s.failures)}` : "…"}</td>
                    <td class="n">{s ? num(s.meanQ) : "…"}</td>
                    <td class="n">{s ? int(s.totalVisits) : "…"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
