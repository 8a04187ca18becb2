// The /simulate playground: a definition and steps to edit, the panes on a timeline of steps.
import { postJson } from './api.js';
import { el, keyText } from './dom.js';

const EXAMPLE = {
  pipeline: {
    window: { type: 'fixed', size: '1m' },
    trigger: { type: 'afterWatermark', early: { type: 'afterCount', count: 2 } },
    aggregate: { type: 'sum' },
  },
  processingTimeStart: '2024-05-01T12:00:41Z',
  steps: [
    { events: [{ key: 'home', timestamp: '2024-05-01T12:00:05Z', value: 1 },
      { key: 'home', timestamp: '2024-05-01T12:00:40Z', value: 2 }] },
    { events: [{ key: 'home', timestamp: '2024-05-01T12:00:50Z', value: 4 }] },
    { watermark: '2024-05-01T12:01:00Z' },
    { events: [{ key: 'home', timestamp: '2024-05-01T12:00:59Z', value: 8 }] },
  ],
};

const COLOURS = { EARLY: '#e08a00', ON_TIME: '#1f8a4c', LATE: '#c0392b' };

export function simulateView(root) {
  const editor = el('textarea', { id: 'simulation', spellcheck: 'false' });
  editor.value = JSON.stringify(EXAMPLE, null, 2);
  const timeline = el('canvas', { id: 'timeline', style: 'height: 220px' });
  const output = el('div');
  const run = async () => {
    output.replaceChildren(el('p', { class: 'muted' }, 'running…'));
    try {
      const result = await postJson('/simulate', JSON.parse(editor.value));
      draw(timeline, result, JSON.parse(editor.value).steps.length);
      output.replaceChildren(table(result));
    } catch (e) {
      output.replaceChildren(el('p', { class: 'error' }, e.message));
    }
  };
  root.append(
    el('h2', {}, 'Simulate'),
    el('p', { class: 'muted' }, 'POST /simulate: a pipeline definition and steps (events, watermark moves, processing-time moves). Nothing is stored.'),
    el('div', { class: 'grid' },
      el('div', {}, editor, el('p', {}, el('button', { id: 'run', onclick: run }, 'Run'))),
      el('div', {}, timeline, output)));
  return { close: () => {} };
}

function table(result) {
  const rows = result.outputs.map(p => el('tr', { class: 'sim-pane' },
    el('td', { class: 'num' }, p.step), el('td', {}, keyText(p.key)),
    el('td', {}, p.window.global ? 'global' : p.window.start.slice(11, 19) + '–' + p.window.end.slice(11, 19)),
    el('td', { class: 'num value ' + (p.final ? 'final' : 'provisional') }, JSON.stringify(p.value)),
    el('td', {}, el('span', { class: 'badge ' + p.pane.timing }, p.pane.timing), ' ',
      el('span', { class: 'badge ' + (p.final ? 'final' : 'provisional') }, p.final ? 'final' : 'provisional'),
      p.retraction ? ' retracts pane ' + p.retracts : '',
      p.restates ? el('span', { class: 'restated' }, ' ' + ('value' in p.restates
        ? 'restated from ' + JSON.stringify(p.restates.value) + ' to ' + JSON.stringify(p.value)
        : 'restates pane ' + p.restates.index)) : '')));
  const dropped = (result.dropped || []).map(d => el('li', {}, 'step ' + d.step + ': ' + d.reason + ' ' + JSON.stringify(d.event)));
  return el('div', {},
    el('table', {}, el('thead', {}, el('tr', {}, ['Step', 'Key', 'Window', 'Value', 'Pane'].map(h => el('th', {}, h)))), el('tbody', {}, rows)),
    dropped.length ? el('div', {}, el('h3', {}, 'Dropped'), el('ul', {}, dropped)) : '');
}

/** Steps across, one row per key and window; a marker per pane, filled when final. */
function draw(canvas, result, steps) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 220;
  canvas.width = width * ratio; canvas.height = height * ratio;
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const rows = [...new Set(result.outputs.map(p => keyText(p.key) + ' ' + (p.window.start || 'global').slice(11, 19)))];
  const rowHeight = Math.min(28, (height - 30) / Math.max(1, rows.length));
  const x = s => 120 + (s + 0.5) * ((width - 130) / Math.max(1, steps));
  g.font = '11px system-ui';
  g.fillStyle = '#6b7580';
  for (let s = 0; s < steps; s++) g.fillText('step ' + s, x(s) - 14, height - 8);
  rows.forEach((r, i) => g.fillText(r, 4, 20 + i * rowHeight + 4));
  for (const p of result.outputs) {
    const row = rows.indexOf(keyText(p.key) + ' ' + (p.window.start || 'global').slice(11, 19));
    const cx = x(p.step), cy = 20 + row * rowHeight;
    g.strokeStyle = g.fillStyle = COLOURS[p.pane.timing] || '#1d232a';
    g.setLineDash(p.final ? [] : [2, 2]);
    g.beginPath(); g.arc(cx, cy, 6, 0, 2 * Math.PI);
    if (p.final) g.fill(); else g.stroke();
    g.setLineDash([]);
    g.fillStyle = '#1d232a';
    g.fillText(JSON.stringify(p.value), cx + 9, cy + 4);
  }
}
