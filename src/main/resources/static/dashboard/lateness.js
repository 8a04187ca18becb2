// How late the pipeline's events came (GET /pipelines/{name}/lateness): the quantiles of need as
// bars on a canvas with the current allowedLateness as a line across them, what that setting keeps,
// and the smallest lateness that would have kept 90 %, 99 % and 99.9 % of the events.
import { getJson } from './api.js';
import { el, number } from './dom.js';

const PAD = { left: 64, right: 12, top: 14, bottom: 24 };
const BARS = ['0.5', '0.9', '0.99', '0.999', 'max'];

/** A panel for pipeline name; refresh() reads the route again. */
export function latenessPanel(name) {
  const chart = el('canvas', { id: 'lateness-chart', style: 'height: 160px' });
  const summary = el('p', { id: 'lateness-summary' }, 'no events yet');
  const suggestions = el('ul', { id: 'lateness-suggestions' });
  const element = el('div', { id: 'lateness' },
    el('h3', {}, 'How late is late enough?'),
    el('p', { class: 'muted' }, 'Each event’s need: how far the watermark was past the end of its window when it ',
      'arrived (0 on time, dropped events included), from GET /pipelines/' + name + '/lateness.'),
    summary, chart, suggestions);

  async function refresh() {
    try {
      const l = await getJson('/pipelines/' + encodeURIComponent(name) + '/lateness');
      const allowed = millis(l.allowedLateness);
      if (!l.needMillis) {
        summary.textContent = 'no events yet';
        suggestions.replaceChildren();
        draw(chart, null, allowed);
        return;
      }
      summary.replaceChildren(
        el('span', { id: 'lateness-events' }, number(l.events) + ' events'), ', ',
        number(l.onTime) + ' on time; allowedLateness ', el('code', {}, l.allowedLateness), ' keeps ',
        el('span', { id: 'lateness-kept' }, number(100 * l.kept, 2) + ' %'),
        l.rankError > 0 ? ' (±' + number(100 * l.rankError, 2) + ' %)' : '');
      suggestions.replaceChildren(...l.suggestions.map(s => el('li', {},
        'to keep ' + number(100 * s.completeness, 1) + ' %: allowedLateness ', el('code', {}, s.allowedLateness))));
      draw(chart, l.needMillis, allowed);
    } catch (e) {
      summary.replaceChildren(el('span', { class: 'error' }, e.message));
    }
  }

  return { element, refresh };
}

function draw(canvas, need, allowed) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 160;
  if (canvas.width !== width * ratio) { canvas.width = width * ratio; canvas.height = height * ratio; }
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  g.font = '11px system-ui';
  g.fillStyle = '#6b7580';
  if (!need) {
    canvas.setAttribute('aria-label', 'no events yet');
    g.fillText('no events yet', PAD.left, height / 2);
    return;
  }
  canvas.setAttribute('aria-label', 'need of lateness by quantile: '
    + BARS.map(b => b + ' ' + seconds(need[b])).join(', ') + '; allowedLateness ' + seconds(allowed));
  const top = Math.max(allowed, ...BARS.map(b => need[b])) || 1;
  const y = v => height - PAD.bottom - (v / top) * (height - PAD.top - PAD.bottom);
  const slot = (width - PAD.left - PAD.right) / BARS.length;
  g.fillText(seconds(top), 4, PAD.top + 4);
  g.fillText('0 s', 4, height - PAD.bottom);
  BARS.forEach((b, i) => {
    const v = need[b];
    const x = PAD.left + i * slot + slot * 0.2;
    g.fillStyle = v > allowed ? '#c0392b' : '#1f8a4c';
    g.fillRect(x, y(v), slot * 0.6, height - PAD.bottom - y(v));
    g.fillStyle = '#6b7580';
    g.fillText(b === 'max' ? 'max' : 'p' + (Number(b) * 100), x, height - 8);
    g.fillText(seconds(v), x, Math.max(PAD.top, y(v) - 3));
  });
  g.strokeStyle = '#3b6fd8';
  g.lineWidth = 2;
  g.beginPath(); g.moveTo(PAD.left, y(allowed)); g.lineTo(width - PAD.right, y(allowed)); g.stroke();
  g.lineWidth = 1;
  g.fillStyle = '#3b6fd8';
  g.fillText('allowedLateness', width - PAD.right - 90, y(allowed) - 4);
}

function seconds(ms) {
  return number(ms / 1000, 3) + ' s';
}

/** An ISO-8601 duration as definitions write it (PT1M30S, PT0.5S, P2D), in milliseconds. */
function millis(iso) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(iso);
  if (!m) return 0;
  const [, d, h, min, s] = m.map(v => Number(v || 0));
  return ((d * 24 + h) * 60 + min) * 60000 + s * 1000;
}
