/* The join page: a seat's short code (shown on the host page beside its QR code) traded for
   the seat's token, for a device that cannot scan; then My view opens exactly as the QR
   link opens it (the token in the fragment, which My view moves out of the address bar). */

import { errorText } from "./words.js";
import { api, phone } from "./seat.js";
import { onLang, ready } from "./language.js";
import { setConn } from "./live.js";
(() => {
  const $ = (id) => document.getElementById(id);
  ready.then(() => setConn("conn.no_seat", false));
  let lastError = null;
  onLang(() => { if (lastError) $("join-error").textContent = errorText(lastError); });
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("join-btn");
    button.disabled = true;
    try {
      const r = await api("POST", "/api/join", { code: $("join-code").value },
        { "X-Seat-Phone": phone() });
      location.replace("/me#t=" + encodeURIComponent(r.token));
    } catch (e) {
      lastError = e;
      $("join-error").textContent = errorText(e);
      button.disabled = false;
      $("join-code").select();
    }
  });
})();
