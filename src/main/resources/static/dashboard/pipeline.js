// One pipeline: its keys' window values as they change, the watermark, dropped events, the Beam
// expressions of its definition, and why a window has not fired yet.
import { getJson, PaneStream } from './api.js';
import { drawWindows } from './chart.js';
import { latenessPanel } from './lateness.js';
import { el, number, frameScheduler, keyText } from './dom.js';

const TOP = 20;
const WINDOWS_PER_KEY = 60;
const MERGES_PER_KEY = 10;
const RANK_MILLIS = 250;
// Named aggregates whose value is one number, and so can be charted.
const CHARTABLE = new Set(['count', 'sum', 'min', 'max', 'mean', 'distinctCount']);

/** Per key, its windows by start; bounded, so that 10 000 keys stay a few MB. */
class KeyWindows {
  constructor() {
    this.keys = new Map(); this.version = 0; this.finalThrough = -Infinity;
    // The figure a window is ranked and charted by: its value, or one named aggregate of it.
    this.figure = v => v;
  }

  reset() { this.keys.clear(); this.version++; }

  /**
   * The pipeline's progress: a window whose finalAt it has reached is final, though the default
   * closing behaviour sends no pane when a window with allowed lateness closes.
   */
  progress(p) {
    const through = time(p.finalThrough);
    if (!(through > this.finalThrough)) return;
    this.finalThrough = through;
    for (const key of this.keys.values()) {
      for (const w of key.windows.values()) {
        if (!w.final && Date.parse(w.finalAt) <= through) { w.final = true; this.version++; }
      }
    }
  }

  pane(p) {
    if (p.retraction || p.window.global) return;
    const name = keyText(p.key);
    let key = this.keys.get(name);
    if (!key) { key = { windows: new Map(), latest: null, panes: 0, merges: [] }; this.keys.set(name, key); }
    const start = Date.parse(p.window.start);
    const w = {
      start, end: Date.parse(p.window.end), value: p.value, timing: p.pane.timing,
      final: p.final || Date.parse(p.finalAt) <= this.finalThrough, index: p.pane.index,
      finalAt: p.finalAt, restates: p.restates || null,
    };
    const before = key.windows.get(start);
    if (before && before.index > w.index) return;
    key.windows.set(start, w);
    key.panes++;
    if (!key.latest || w.start >= key.latest.start) key.latest = w;
    if (key.windows.size > WINDOWS_PER_KEY) key.windows.delete(Math.min(...key.windows.keys()));
    this.version++;
  }

  /** A session merged into another: its window goes, and the key keeps a line saying so. */
  merge(m) {
    const key = this.keys.get(keyText(m.key));
    if (!key) return;
    key.merges.unshift({ window: m.window, into: m.into });
    if (key.merges.length > MERGES_PER_KEY) key.merges.pop();
    const start = Date.parse(m.window.start);
    const gone = key.windows.get(start);
    if (gone && gone.end === Date.parse(m.window.end)) {
      key.windows.delete(start);
      if (key.latest === gone) key.latest = [...key.windows.values()].sort((a, b) => b.start - a.start)[0] || null;
    }
    this.version++;
  }

  /**
   * The n keys to list: matching the search, largest latest value first (else most panes). One
   * pass keeping the n best so far, so that 10 000 keys cost no sort.
   */
  top(search, n) {
    const figure = k => (k.latest ? this.figure(k.latest.value) : undefined);
    const rank = k => (typeof figure(k) === 'number' ? figure(k) : k.panes);
    const before = (a, b) => rank(a[1]) > rank(b[1]) || (rank(a[1]) === rank(b[1]) && a[0] < b[0]);
    const best = [];
    for (const entry of this.keys) {
      if (search && !entry[0].includes(search)) continue;
      if (best.length === n && !before(entry, best[n - 1])) continue;
      let i = best.length === n ? n - 1 : best.length;
      while (i > 0 && before(entry, best[i - 1])) { best[i] = best[i - 1]; i--; }
      best[i] = entry;
    }
    return best;
  }
}

function display(value) {
  if (typeof value === 'number') return number(value, 3);
  // Named aggregates: "n 2 · bytes 42".
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).map(([k, v]) => k + ' ' + (typeof v === 'number' ? number(v, 3) : JSON.stringify(v))).join(' · ');
  }
  return JSON.stringify(value);
}

function span(w) {
  return w.global ? 'global' : w.start.slice(11, 19) + '–' + w.end.slice(11, 19);
}

function badge(w) {
  return [el('span', { class: 'badge ' + w.timing }, w.timing), ' ',
    el('span', { class: 'badge ' + (w.final ? 'final' : 'provisional') }, w.final ? 'final' : 'provisional'),
    w.restates ? ' ' : null, restatement(w)];
}

/**
 * A pane that supersedes an on-time or late one: "restated from 41 to 45", the figure published
 * before and the one now; in discarding mode, where a pane is a delta, the pane it follows.
 */
function restatement(w) {
  const r = w.restates;
  if (!r) return null;
  const text = 'value' in r
    ? 'restated from ' + display(r.value) + ' to ' + display(w.value)
    : 'restates pane ' + r.index;
  return el('span', { class: 'restated', title: 'pane ' + w.index + ' supersedes pane ' + r.index }, text);
}

export function pipelineView(root, name) {
  const state = new KeyWindows();
  let selected = null;
  let search = '';
  let watermark = NaN;
  let drops = [];
  // What a test or a curious operator can read in the console: render costs, the panes received
  // (key@window#index, for checking a resumed stream for gaps), how many snapshots were taken.
  const stats = (window.eventideStats = { renders: 0, renderMillis: [], keys: 0, seen: [], snapshots: 0 });

  const chart = el('canvas', { id: 'chart', style: 'height: 280px' });
  const charted = el('select', { id: 'chart-aggregate', hidden: true, onchange: () => chartBy(charted.value) });
  const mergesList = el('ul', { id: 'merges', class: 'muted' });
  const keysBody = el('tbody');
  const windowsBody = el('tbody');
  const wmText = el('span', { id: 'watermark' }, '–');
  const finalText = el('span', { id: 'final-through' }, '–');
  const heading = el('h3', {}, 'Windows');
  const expressions = el('div');
  const deadBody = el('tbody');
  const lateness = latenessPanel(name);
  const why = el('div', { class: 'why' });
  const whyKey = el('input', { id: 'why-key', placeholder: 'key' });
  const searchBox = el('input', {
    id: 'search', type: 'search', placeholder: 'search keys',
    oninput: e => { search = e.target.value.trim(); schedule(); },
  });

  root.append(
    el('h2', {}, 'Pipeline ', el('code', {}, name)),
    el('p', {}, 'Input watermark: ', wmText, ' · final through ', finalText, ' · ',
      el('span', { id: 'key-count' }), ' keys'),
    expressions,
    el('div', { class: 'grid' },
      el('div', {},
        el('h3', {}, 'Keys'), searchBox,
        el('table', { id: 'keys' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Key'), el('th', {}, 'Latest window'), el('th', {}, 'Value'), el('th', {}, 'Pane'))),
          keysBody)),
      el('div', {},
        heading,
        el('div', { class: 'legend' },
          el('span', { class: 'early' }, '● EARLY'), el('span', { class: 'on_time' }, '■ ON_TIME'),
          el('span', { class: 'late' }, '▲ LATE'), el('span', {}, 'filled: final · hollow: provisional'),
          el('span', { class: 'wm' }, '| watermark'), el('span', { class: 'late' }, '✕ dropped')),
        charted, chart,
        el('table', { id: 'windows' },
          el('thead', {}, el('tr', {}, el('th', {}, 'Window'), el('th', {}, 'Value'), el('th', {}, 'Pane'), el('th', {}, 'Index'))),
          windowsBody),
        mergesList)),
    el('h3', {}, 'Why hasn’t my window fired?'),
    el('p', {}, whyKey, ' ', el('button', { id: 'why', onclick: () => explain(whyKey.value.trim() || selected) }, 'Explain'),
      el('span', { class: 'muted' }, ' from GET /pipelines/' + name + '/windows')),
    why,
    lateness.element,
    el('h3', {}, 'Dead letters'),
    el('table', { id: 'dead-letters' },
      el('thead', {}, el('tr', {}, el('th', {}, 'At'), el('th', {}, 'Reason'), el('th', {}, 'Detail'), el('th', {}, 'Event'))),
      deadBody));

  // The key list is ranked at most every RANK_MILLIS: with 10 000 keys taking panes, ranking on
  // every frame would cost more than the frame has.
  let ranked = { at: 0, version: -1, search: '', keys: [] };
  let pinned = false;
  let rerank = null;
  const render = () => {
    const started = performance.now();
    if (ranked.search !== search || (ranked.version !== state.version && started - ranked.at > RANK_MILLIS)) {
      ranked = { at: started, version: state.version, search, keys: state.top(search, TOP) };
    } else if (ranked.version !== state.version && !rerank) {
      rerank = setTimeout(() => { rerank = null; schedule(); }, RANK_MILLIS - (started - ranked.at));
    }
    const top = ranked.keys;
    if (!pinned || !state.keys.has(selected)) selected = top[0]?.[0] ?? null;
    keysBody.replaceChildren(...top.map(([key, k]) => el('tr', {
      'data-key': key, class: key === selected ? 'selected' : undefined,
      onclick: () => { selected = key; pinned = true; whyKey.value = key; schedule(); },
    },
    el('td', {}, key),
    el('td', {}, k.latest ? new Date(k.latest.start).toISOString().slice(11, 19) : ''),
    el('td', { class: 'num value ' + (k.latest?.final ? 'final' : 'provisional'), 'data-timing': k.latest?.timing },
      k.latest ? display(k.latest.value) : ''),
    el('td', {}, k.latest ? badge(k.latest) : ''))));
    document.getElementById('key-count').textContent = number(state.keys.size);
    wmText.textContent = Number.isFinite(watermark) ? new Date(watermark).toISOString() : '–';
    const key = selected ? state.keys.get(selected) : null;
    heading.textContent = selected ? 'Windows of ' + selected : 'Windows';
    const windows = key ? [...key.windows.values()].sort((a, b) => b.start - a.start) : [];
    windowsBody.replaceChildren(...windows.slice(0, 12).map(w => el('tr', { 'data-window': new Date(w.start).toISOString() },
      el('td', {}, new Date(w.start).toISOString().slice(11, 19) + '–' + new Date(w.end).toISOString().slice(11, 19)),
      el('td', { class: 'num value ' + (w.final ? 'final' : 'provisional') }, display(w.value)),
      el('td', {}, badge(w)),
      el('td', { class: 'num' }, w.index))));
    drawWindows(chart, windows.map(w => ({ ...w, value: state.figure(w.value) })), watermark,
      drops.filter(d => d.key === selected));
    mergesList.replaceChildren(...(key ? key.merges : []).map(m => el('li', {},
      'session ' + span(m.window) + ' merged into ' + span(m.into))));
    stats.renders++;
    stats.keys = state.keys.size;
    stats.renderMillis.push(performance.now() - started);
    if (stats.renderMillis.length > 600) stats.renderMillis.shift();
  };
  const schedule = frameScheduler(render);

  const stream = new PaneStream(name, {}, {
    reset: () => { state.reset(); stats.snapshots++; stats.seen = []; schedule(); },
    pane: (p, fromSnapshot) => {
      if (stats.seen.length < 200000) stats.seen.push(keyText(p.key) + '@' + (p.window.start || 'global') + '#' + p.pane.index + (fromSnapshot ? ' snapshot' : ''));
      state.pane(p);
      schedule();
    },
    merge: m => { state.merge(m); schedule(); },
    progress: p => {
      state.progress(p);
      finalText.textContent = p.finalThrough;
      schedule();
    },
  });

  // Whether the watermark follows the wall clock once sources go quiet; until the definition is
  // read, assume the default (it does not).
  let idleAdvance = false;
  const chartBy = aggregate => {
    state.figure = v => (v && typeof v === 'object' ? v[aggregate] : v);
    ranked.version = -1;
    schedule();
  };
  getJson('/pipelines/' + encodeURIComponent(name)).then(d => {
    idleAdvance = d.watermark.idleAdvance;
    const names = Object.entries(d.aggregates || {}).filter(([, a]) => CHARTABLE.has(a.type)).map(([n]) => n);
    if (names.length > 0) {
      charted.replaceChildren(...names.map(n => el('option', { value: n }, 'chart ' + n)));
      charted.hidden = false;
      chartBy(names[0]);
    }
    expressions.replaceChildren(
      el('pre', { class: 'expr', id: 'window-expression' }, d.windowExpression),
      el('pre', { class: 'expr', id: 'trigger-expression' }, d.triggerExpression),
      d.warnings.length === 0 ? '' : el('ul', { class: 'warnings', id: 'warnings' },
        d.warnings.map(w => el('li', {}, '⚠ ', w))));
  }).catch(e => expressions.replaceChildren(el('p', { class: 'error' }, e.message)));

  const poll = async () => {
    try {
      const w = await getJson('/pipelines/' + encodeURIComponent(name) + '/watermark');
      watermark = w.input === '-inf' ? NaN : w.input === '+inf' ? Infinity : Date.parse(w.input);
      const letters = await getJson('/pipelines/' + encodeURIComponent(name) + '/dead-letters?limit=50');
      drops = letters.deadLetters.map(d => ({
        key: d.event && d.event.key, time: d.event && Date.parse(d.event.timestamp), reason: d.reason,
      }));
      deadBody.replaceChildren(...letters.deadLetters.slice(0, 20).map(d => el('tr', {},
        el('td', {}, d.at), el('td', {}, d.reason), el('td', {}, d.detail),
        el('td', {}, el('code', {}, typeof d.event === 'string' ? d.event : JSON.stringify(d.event))))));
      schedule();
    } catch (e) {
      wmText.textContent = e.message;
    }
    lateness.refresh();
  };
  poll();
  const timer = setInterval(poll, 1000);

  async function explain(key) {
    const query = key ? '?key=' + encodeURIComponent(key) : '';
    try {
      const answer = await getJson('/pipelines/' + encodeURIComponent(name) + '/windows' + query);
      if (answer.windows.length === 0) {
        why.replaceChildren(el('p', {}, 'No open window' + (key ? ' for ' + key : '') +
          ': every window has fired its final pane and been collected, or no event arrived (see the dead letters).'));
        return;
      }
      why.replaceChildren(el('ul', {}, answer.windows.slice(0, 50).map(w => el('li', {},
        el('code', {}, keyText(w.key) + ' ' + (w.window.global ? 'global' : w.window.start + '–' + w.window.end)), ': ', reason(w, idleAdvance)))));
    } catch (e) {
      why.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  }

  return { close: () => { stream.close(); clearInterval(timer); clearTimeout(rerank); } };
}

/**
 * A plain-words reading of a window's state as /windows reports it; idleAdvance is the
 * definition's watermark.idleAdvance.
 */
function reason(w, idleAdvance) {
  const parts = [];
  if (w.closed) parts.push('closed: its trigger finished and its last pane is final, only garbage collection at ' + w.gcTime + ' is left');
  else if (time(w.watermark) <= time(w.endOfWindow)) {
    parts.push('waiting for the watermark (' + w.watermark + ') to pass the end of the window (' + w.endOfWindow + ')' +
      (idleAdvance ? '' : ', which it does only when later events or a watermark post arrive (watermark.idleAdvance is off)'));
  } else parts.push('the watermark has passed its end; later panes depend on the trigger and lateness (gc at ' + w.gcTime + ')');
  // pendingElements says whether any element arrived since the last pane, not how many.
  const since = w.nextPaneIndex === 0 ? 'no pane yet' : w.pendingElements
    ? 'new elements since its last pane' : 'no element since its last pane';
  parts.push(since + ', ' + w.elements + ' element' + (w.elements === 1 ? '' : 's') + ' in all, next pane index ' + w.nextPaneIndex);
  parts.push('trigger: ' + w.trigger);
  // A window leaves /windows when it is collected; its figure in the results is final from then.
  if (!w.final) parts.push('final when the watermark reaches ' + w.finalAt);
  return parts.join('; ');
}

/** A time as the API writes it, as a number: an ISO timestamp, "-inf" or "+inf". */
function time(t) {
  return t === '-inf' ? -Infinity : t === '+inf' ? Infinity : Date.parse(t);
}
