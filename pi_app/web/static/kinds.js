/* The game's kind, asked here and nowhere else in the pages (issue 32.7): the table names it
   (`table.kind`, pi_app/table/kinds.py: "board" for every variant of the board game, or
   "strike"), never a variant's name, and each kind is a module with the same face:
     describe(ev, opts)          a log line of its events (null: none of its own)
     lastDice(state)             the dice on the table now, else null (the log's last roll)
     continentBadge(layout, id, bonus)   a continent's number on the map
     paint(map, layout, state)   the map's colours and counts
     render(view)                the table view's and My view's render (table.js `view`)
     inPlay(state)               whether a game of it is being played
     keysHelp, namesDecider, refusalCode(code)   /virtual's help, state line and refusals
   RISK Strike's module is fetched only when the table plays it: a classic game's first render
   neither loads nor compiles it. */

import * as board from "./board-kind.js";

let strike = null;
let loading = null;

/* The kind module for `state`: null while Strike's is still loading (see `loadKind`). A
   table with no game yet is the board's (its pages say there is none). */
export function kindOf(state) {
  const isStrike = !!(state && state.table && state.table.kind === "strike" && state.players);
  return isStrike ? strike : board;
}

let last = board;  // the page comes drawn for the board game (pi_app/web/pages.py)
const changes = [];
/* `f(kind)` when the game's kind changes (the first kind too), before the message that
   brings it is handled. */
export function onKindChange(f) { changes.push(f); }
function settle(kind) {
  if (kind !== last) { last = kind; for (const f of changes) f(kind); }
  return kind;
}

/* `handle(msg, kind)` for each stream message, in order, each once its kind's module is here
   (at once while no message waits for Strike's). Returns the function to give the messages. */
export function inOrder(handle) {
  let queue = null;
  return function deliver(msg) {
    const now = kindOf(msg.state);
    if (now && !queue) { handle(msg, settle(now)); return; }
    const load = () => {
      if (kindOf(msg.state)) return settle(kindOf(msg.state));
      loading = loading || import("./strike-kind.js").then((module) => { strike = module; });
      return loading.then(() => settle(kindOf(msg.state)));
    };
    const mine = queue = (queue || Promise.resolve()).then(load).then((kind) => handle(msg, kind))
      .catch((e) => { console.error(e); })
      .finally(() => { if (queue === mine) queue = null; });
  };
}
