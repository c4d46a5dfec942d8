/* Talking to the table: `api(method, path, body, headers)`, and as this phone's seat
   (`seatApi`): the seat token a seat link brings (moved out of the address bar into the
   phone's storage) and this browser's own key (SECURITY.md). */

const TOKEN_KEY = "riskboard.seatToken";
const PHONE_KEY = "riskboard.phone";

/* A seat link carries the token in the fragment (#t=...): move it to localStorage and
   drop it from the address bar so it is never shown, shared, bookmarked or logged. */
export function adoptTokenFromFragment() {
  const m = /(?:^#|&)t=([A-Za-z0-9_-]{20,})/.exec(location.hash);
  if (m) {
    localStorage.setItem(TOKEN_KEY, m[1]);
    history.replaceState(null, "", location.pathname);
  }
}
/* A seat link opened again in a tab already on the page (a QR scanned twice, a new code
   after a seat moved) changes only the fragment: take the new token and start afresh. */
window.addEventListener("hashchange", () => {
  if (/(?:^#|&)t=/.test(location.hash)) { adoptTokenFromFragment(); location.reload(); }
});
export function token() { return localStorage.getItem(TOKEN_KEY); }
export function forgetToken() { localStorage.removeItem(TOKEN_KEY); }

/* The answer's JSON; a refusal throws an Error with the table's `code`, `params`, `fields`
   and `problems`. */
export async function api(method, path, body, extraHeaders) {
  const headers = Object.assign({}, extraHeaders || {});
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && data.error) || { code: "http_" + res.status, message: res.statusText };
    const e = new Error(err.message); e.code = err.code; e.status = res.status; e.fields = err.fields;
    e.params = err.params; e.problems = err.problems;
    throw e;
  }
  return data;
}
/* This browser's own random key, sent with the seat token: the first phone that uses a
   seat's code holds the seat, and another is told it is taken (SECURITY.md). */
export function phone() {
  let key = localStorage.getItem(PHONE_KEY);
  if (!key) {
    key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(PHONE_KEY, key);
  }
  return key;
}
export function seatApi(method, path, body) {
  return api(method, path, body, { "X-Seat-Token": token() || "", "X-Seat-Phone": phone() });
}
