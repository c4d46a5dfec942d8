/* A seat's aims: what the table lets this seat do with the two territories its phone tapped
   (`table.waits.aims`, pi_app/table/aims.py, from the rules' legal commands). The page looks
   the pair up; it never works out itself whether a pair may attack or fortify. */

/* What the table lets this seat do with the tapped pair now (`waits.aims`, computed from the
   rules): {type: "attack", dice, blitz} or {type: "fortify", most}, else null. */
export function aimOf(w, pick) {
  const aims = w && w.aims;
  if (!aims || pick.length !== 2) return null;
  const [source, target] = pick;
  const attack = (aims.attack || {})[source];
  if (attack && attack.to.includes(target)) return { type: "attack", dice: attack.dice, blitz: !!aims.blitz };
  const fortify = (aims.fortify || {})[source];
  if (fortify && fortify.to.includes(target)) return { type: "fortify", most: fortify.most };
  return null;
}
