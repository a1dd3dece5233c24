// The MemLoop memory inspector: a sign-in with an API key, then hash-routed pages over the documented /v1 API.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { api, apiKey, onKeyChange, setApiKey } from "./api.js";
import { href, useRoute } from "./route.js";
import { ErrorBox } from "./common.jsx";
import { Namespaces } from "./pages/Namespaces.jsx";
import { Namespace } from "./pages/Namespace.jsx";
import { Memories } from "./pages/Memories.jsx";
import { Memory } from "./pages/Memory.jsx";
import { Why } from "./pages/Why.jsx";

function Login({ expired }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function submit(ev) {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("/namespaces", { key: key.trim() }); // checks the key before keeping it
      setBusy(false);
      setApiKey(key.trim()); // shows the pages: this form is gone
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  }
  return (
    <main class="login">
      <h1>MemLoop inspector</h1>
      <p>Paste an API key made with <code>memloop keys add</code>. It is kept in this tab only (sessionStorage) and sent
        to this server as <code>Authorization: Bearer</code>.</p>
      {expired && !error ? <p class="notice" role="status">Signed out: the server did not accept the key.</p> : null}
      <form onSubmit={submit}>
        <label class="field">
          <span>API key</span>
          <input id="api-key" type="password" autocomplete="off" spellcheck={false} required value={key}
            onInput={(e) => setKey(e.currentTarget.value)} autofocus />
        </label>
        <button type="submit" disabled={busy || !key.trim()}>Sign in</button>
      </form>
      <ErrorBox error={error} what="Sign-in failed" />
    </main>
  );
}

function Page({ route }) {
  switch (route.page) {
    case "namespaces": return <Namespaces />;
    case "namespace": return <Namespace key={route.ns} ns={route.ns} />;
    case "memories": return <Memories key={route.ns} ns={route.ns} query={route.query} />;
    case "memory": return <Memory key={route.ns + "/" + route.id} ns={route.ns} id={route.id} />;
    case "why": return <Why key={route.ns} ns={route.ns} />;
    default: return <section><h1>Not found</h1><p>There is no such page. <a href={href.home()}>All namespaces</a></p></section>;
  }
}

function App() {
  const [key, setKey] = useState(apiKey());
  const [expired, setExpired] = useState(false);
  const route = useRoute();
  useEffect(() => onKeyChange((k) => {
    setExpired(!k);
    setKey(k);
  }), []);
  useEffect(() => {
    const main = document.getElementById("main");
    if (main) main.focus({ preventScroll: true }); // a route change moves the keyboard focus to the new page
  }, [route.page, route.ns, route.id]);
  if (!key) return <Login expired={expired} />;
  return (
    <>
      <header class="top">
        <a class="brand" href={href.home()}>MemLoop inspector</a>
        {route.ns ? (
          <nav aria-label="Namespace">
            <a href={href.ns(route.ns)} aria-current={route.page === "namespace" ? "page" : undefined}>{route.ns}</a>
            <a href={href.memories(route.ns)} aria-current={route.page === "memories" ? "page" : undefined}>Memories</a>
            <a href={href.why(route.ns)} aria-current={route.page === "why" ? "page" : undefined}>Why this retrieval</a>
          </nav>
        ) : null}
        <button type="button" class="link" onClick={() => { setApiKey(null); setExpired(false); }}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

render(<App />, document.getElementById("app"));
