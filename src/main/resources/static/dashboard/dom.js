// A small element builder: el('td', {class: 'num'}, '12').
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

export function number(n, digits = 0) {
  if (n === null || n === undefined || Number.isNaN(n)) return '–';
  return Number(n).toLocaleString(undefined, { maximumFractionDigits: digits });
}

/**
 * A pane's key as text: a plain key as it is, a composite key (an object of its fields) in the
 * service's string form, its values in field order joined by | with \ and | escaped, which is
 * also what ?key= and merge records use.
 */
export function keyText(key) {
  if (typeof key !== 'object' || key === null) return String(key);
  return Object.values(key).map(v => String(v).replace(/[\\|]/g, c => '\\' + c)).join('|');
}

/** Calls render at most once per animation frame, however often it is asked for. */
export function frameScheduler(render) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; render(); });
  };
}
