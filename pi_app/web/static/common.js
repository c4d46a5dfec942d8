/* What every page starts with, from the head (base.html, an async module: it runs as soon
   as it arrives, while the page is still parsed): the words in the page's language
   (language.js), and on a table page its seat check and live stream (live.js `prestart`).
   The pages import what they use from the modules themselves (words, saying, dom, seat,
   live, language); there is no global. */

import "./language.js";
import { prestart } from "./live.js";

prestart();
/* My view holds its layout back until its first render has drawn it (table.js, style.css);
   should no render come (its module failed to load), the page shows what it has. */
if (document.documentElement.dataset.stream === "private") {
  setTimeout(() => { document.documentElement.dataset.drawn = "1"; }, 5000);
}
