// Every request of the page goes through here, so the headers a change needs are added in one place:
// X-Evidenz-Client on every POST, PUT, PATCH and DELETE (web/guard.py), and on a signed-in shared server the
// session's X-CSRF-Token (web/auth.py). The token is kept in this module's memory only, never in storage;
// a reload asks /api/me for it again. A 401 says the session ended: "signed-out" tells account.js to ask again.
import { t } from "./i18n.js";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
let csrfToken = null;

// Remember the signed-in session's CSRF token (null when there is none: a personal server, or signed out).
export function setCsrfToken(token) {
  csrfToken = token || null;
}

// The headers of a request that changes something, added to headers.
export function changeHeaders(headers = {}) {
  const added = { ...headers, "X-Evidenz-Client": "page" };
  if (csrfToken) added["X-CSRF-Token"] = csrfToken;
  return added;
}

// fetch, with the change headers on unsafe methods; a 401 (other than a failed sign-in) fires "signed-out".
export async function request(url, options = {}) {
  const method = (options.method || "GET").toUpperCase();
  const headers = UNSAFE.has(method) ? changeHeaders(options.headers) : options.headers;
  const response = await fetch(url, { ...options, headers });
  if (response.status === 401 && url !== "/api/session") document.dispatchEvent(new Event("signed-out"));
  return response;
}

// A JSON body sent with method; the response.
export function sendJson(url, method, body) {
  return request(url, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// The response's JSON, or {error} saying the status when it is not JSON.
export async function readJson(response) {
  try {
    return await response.json();
  } catch (err) {
    return { error: t("common.server_answered", { status: response.status }) };
  }
}
