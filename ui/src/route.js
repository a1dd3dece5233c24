// Hash routes: #/ (namespaces), #/ns/NS, #/ns/NS/memories?query, #/ns/NS/m/ID, #/ns/NS/why.
import { useEffect, useState } from "preact/hooks";

export function parse(hash) {
  const h = (hash || "").replace(/^#/, "") || "/";
  const q = h.indexOf("?");
  const path = q < 0 ? h : h.slice(0, q);
  const query = new URLSearchParams(q < 0 ? "" : h.slice(q + 1));
  const parts = path.split("/").filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (parts.length === 0) return { page: "namespaces", query };
  if (parts[0] !== "ns" || parts.length < 2) return { page: "unknown", query };
  const ns = parts[1];
  if (parts.length === 2) return { page: "namespace", ns, query };
  if (parts.length === 3 && parts[2] === "memories") return { page: "memories", ns, query };
  if (parts.length === 3 && parts[2] === "why") return { page: "why", ns, query };
  if (parts.length === 4 && parts[2] === "m") return { page: "memory", ns, id: parts[3], query };
  return { page: "unknown", query };
}

export function useRoute() {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const f = () => setRoute(parse(location.hash));
    addEventListener("hashchange", f);
    return () => removeEventListener("hashchange", f);
  }, []);
  return route;
}

const e = encodeURIComponent;
export const href = {
  home: () => "#/",
  ns: (ns) => `#/ns/${e(ns)}`,
  memories: (ns, query) => `#/ns/${e(ns)}/memories${query && query.toString() ? "?" + query.toString() : ""}`,
  memory: (ns, id) => `#/ns/${e(ns)}/m/${e(id)}`,
  why: (ns) => `#/ns/${e(ns)}/why`,
};
