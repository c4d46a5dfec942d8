/* The board game's kind (every variant but RISK Strike), in the face kinds.js gives each
   kind: its log lines, dice, map and render. */

import * as V from "./variants.js";
import { boardLine } from "./log-lines.js";

export { render } from "./board-view.js";

export function describe(ev, opts) {
  const own = V.describe(ev);
  return own !== null ? own : boardLine(ev, opts);
}
/* The board game's last roll is the log's. */
export const lastDice = () => null;
export const continentBadge = (layout, id, bonus) => `+${bonus}`;
export function paint(map, layout, state) {
  map.paint(state.owner || {}, state.armies || {}, state.hq_revealed ? state.hq : null);
}
export const keysHelp = "vboard.keys";
/* /virtual's line names the seat deciding, with its swatch. */
export const namesDecider = true;
export const refusalCode = (code) => code;
export const inPlay = (state) => !!(state.players && state.owner);
