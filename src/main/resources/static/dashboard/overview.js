// The overview: every pipeline's status from the status stream, with a sparkline of events/s.
import { StatusStream } from './api.js';
import { el, number } from './dom.js';

const HISTORY = 120;

export function overview(root) {
  const rates = new Map();
  const body = el('tbody');
  root.append(
    el('h2', {}, 'Pipelines'),
    el('table', { id: 'pipelines' },
      el('thead', {}, el('tr', {},
        ['Pipeline', 'State', 'Input watermark', 'Final through', 'Lag (s)', 'Events/s', '', 'Late', 'Dropped',
          'Panes', 'Open windows', 'Subscribers'].map(h => el('th', {}, h)))),
      body),
    el('p', { class: 'muted' }, 'Live from GET /pipelines/status (server-sent events).'));
  const stream = new StatusStream(status => {
    body.replaceChildren(...status.pipelines.map(p => {
      const history = rates.get(p.name) || [];
      history.push(p.eventsPerSecond);
      if (history.length > HISTORY) history.shift();
      rates.set(p.name, history);
      const spark = el('canvas', { width: 120, height: 24, class: 'spark' });
      sparkline(spark, history);
      return el('tr', { 'data-pipeline': p.name, onclick: () => { location.hash = '#/pipelines/' + encodeURIComponent(p.name); } },
        el('td', {}, el('a', { href: '#/pipelines/' + encodeURIComponent(p.name) }, p.name)),
        el('td', {}, p.state),
        el('td', {}, p.inputWatermark),
        el('td', { class: 'final-through', title: 'every window whose finalAt is at or before this is final' }, p.finalThrough),
        el('td', { class: 'num' }, number(p.watermarkLagSeconds, 1)),
        el('td', { class: 'num' }, number(p.eventsPerSecond, 1)),
        el('td', {}, spark),
        el('td', { class: 'num' }, number(p.late)),
        el('td', { class: 'num' }, number(p.dropped)),
        el('td', { class: 'num' }, number(p.panes)),
        el('td', { class: 'num' }, number(p.openWindows)),
        el('td', { class: 'num' }, number(p.subscribers)));
    }));
  });
  return { close: () => stream.close() };
}

function sparkline(canvas, values) {
  const g = canvas.getContext('2d');
  const max = Math.max(1, ...values);
  g.strokeStyle = '#3b6fd8';
  g.beginPath();
  values.forEach((v, i) => {
    const x = (i / (HISTORY - 1)) * canvas.width;
    const y = canvas.height - 2 - (v / max) * (canvas.height - 4);
    if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
}
