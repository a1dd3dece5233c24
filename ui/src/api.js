// Every call the page makes: the documented /v1 API with the key the user typed, kept in sessionStorage only (gone
// when the tab closes; never in a URL). A 401 forgets the key and shows the login again.
const KEY = "memloop.apiKey";
const listeners = new Set();

export function apiKey() {
  return sessionStorage.getItem(KEY);
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
  listeners.forEach((f) => f(key));
}

export function onKeyChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** An error answer of the API: its JSON body's code, field and message (or what went wrong on the way). */
export class ApiError extends Error {
  constructor(status, code, field, message) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * Calls `/v1${path}` with the stored key (or `key`, to check one before it is stored); resolves to the parsed JSON
 * (null for 204), rejects with ApiError.
 */
export async function api(path, { method = "GET", body, signal, key: given } = {}) {
  const key = given ?? apiKey();
  if (!key) throw new ApiError(401, "unauthorized", "authorization", "no API key: sign in first");
  const headers = { Authorization: `Bearer ${key}`, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(`/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: "omit",
      cache: "no-store",
      referrerPolicy: "no-referrer",
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(0, "unreachable", "", `the server could not be reached (${e.message})`);
  }
  if (res.status === 204) return null;
  let json = null;
  const text = await res.text();
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = json && json.error;
    const e = new ApiError(res.status, err?.code ?? "http_" + res.status, err?.field ?? "",
      err?.message ?? `HTTP ${res.status} ${res.statusText}`);
    if (res.status === 401 && given === undefined) setApiKey(null);
    throw e;
  }
  return json;
}

/** `ns` and ids in a path: both are already URL-safe tokens, escaped anyway. */
export const seg = (s) => encodeURIComponent(s);
