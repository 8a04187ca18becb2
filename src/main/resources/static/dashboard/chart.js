// One key's window values over event time, drawn on a canvas: a marker per window at its end,
// shaped and coloured by the timing of its latest pane, filled once final and hollow (dashed)
// while provisional; the watermark as a vertical line; dropped events as crosses.

const COLOURS = { EARLY: '#e08a00', ON_TIME: '#1f8a4c', LATE: '#c0392b' };
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

export function drawWindows(canvas, windows, watermark, drops) {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 260;
  if (canvas.width !== width * ratio) { canvas.width = width * ratio; canvas.height = height * ratio; }
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const numeric = windows.filter(w => typeof w.value === 'number');
  if (numeric.length === 0) {
    const note = windows.length ? 'values are not numbers: see the table' : 'no panes yet';
    g.fillStyle = '#6b7580';
    g.fillText(note, PAD.left, height / 2);
    canvas.setAttribute('aria-label', note);
    return;
  }
  let x0 = Math.min(...numeric.map(w => w.start));
  let x1 = Math.max(...numeric.map(w => w.end));
  if (Number.isFinite(watermark)) { x0 = Math.min(x0, watermark); x1 = Math.max(x1, watermark); }
  if (x1 === x0) x1 = x0 + 1;
  let y0 = Math.min(0, ...numeric.map(w => w.value));
  let y1 = Math.max(...numeric.map(w => w.value));
  if (y1 === y0) y1 = y0 + 1;
  const x = t => PAD.left + ((t - x0) / (x1 - x0)) * (width - PAD.left - PAD.right);
  const y = v => height - PAD.bottom - ((v - y0) / (y1 - y0)) * (height - PAD.top - PAD.bottom);

  g.strokeStyle = '#d9dee3';
  g.fillStyle = '#6b7580';
  g.font = '11px system-ui';
  for (let i = 0; i <= 4; i++) {
    const v = y0 + ((y1 - y0) * i) / 4;
    g.beginPath(); g.moveTo(PAD.left, y(v)); g.lineTo(width - PAD.right, y(v)); g.stroke();
    g.fillText(Number(v.toPrecision(4)).toString(), 4, y(v) + 4);
  }
  for (let i = 0; i <= 3; i++) {
    const t = x0 + ((x1 - x0) * i) / 3;
    g.fillText(new Date(t).toISOString().slice(11, 19), x(t) - 20, height - 8);
  }

  const sorted = [...numeric].sort((a, b) => a.end - b.end);
  g.strokeStyle = '#9aa5b1';
  g.beginPath();
  sorted.forEach((w, i) => (i ? g.lineTo(x(w.end), y(w.value)) : g.moveTo(x(w.end), y(w.value))));
  g.stroke();
  for (const w of sorted) marker(g, x(w.end), y(w.value), w.timing, w.final);
  // What the canvas shows, for screen readers (and the browser test).
  canvas.setAttribute('aria-label', 'window values by window end: ' +
    sorted.map(w => w.value + (w.final ? ' final' : ' provisional')).join(', '));

  for (const d of drops) {
    if (d.time < x0 || d.time > x1) continue;
    g.strokeStyle = COLOURS.LATE;
    const cx = x(d.time), cy = height - PAD.bottom - 6;
    g.beginPath(); g.moveTo(cx - 4, cy - 4); g.lineTo(cx + 4, cy + 4);
    g.moveTo(cx + 4, cy - 4); g.lineTo(cx - 4, cy + 4); g.stroke();
  }
  if (Number.isFinite(watermark)) {
    g.strokeStyle = '#3b6fd8';
    g.setLineDash([]);
    g.lineWidth = 2;
    g.beginPath(); g.moveTo(x(watermark), PAD.top); g.lineTo(x(watermark), height - PAD.bottom); g.stroke();
    g.lineWidth = 1;
    g.fillStyle = '#3b6fd8';
    g.fillText('watermark', x(watermark) + 4, PAD.top + 10);
  }
}

function marker(g, cx, cy, timing, final) {
  const colour = COLOURS[timing] || '#1d232a';
  g.strokeStyle = colour;
  g.fillStyle = colour;
  g.lineWidth = 2;
  g.setLineDash(final ? [] : [2, 2]);
  g.beginPath();
  if (timing === 'ON_TIME') g.rect(cx - 5, cy - 5, 10, 10);
  else if (timing === 'LATE') { g.moveTo(cx, cy - 6); g.lineTo(cx + 6, cy + 5); g.lineTo(cx - 6, cy + 5); g.closePath(); }
  else g.arc(cx, cy, 5, 0, 2 * Math.PI);
  if (final) g.fill(); else g.stroke();
  g.setLineDash([]);
  g.lineWidth = 1;
}
