// The board in SVG: a line of points, a grid, or a row of slots for the
// sliding games. It draws what it is given; the game page decides what is
// legal and what a click does.

import { el } from './api.js';

const U = 40; // one point, in the drawing's units
const COLS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'; // GTP's columns: no I

// Geometry maps points to names, names to points and points to places.
// Points are numbered from 0, row by row from the top (the snapshot's
// board order).
export class Geometry {
  constructor(shape, w, h) {
    this.shape = shape;
    this.w = w;
    this.h = shape === 'grid' ? h : 1;
    this.n = this.w * this.h;
  }

  // name writes point i as the API writes it: 3 on a line, C3 on a grid.
  name(i) {
    if (this.shape !== 'grid') return String(i + 1);
    return COLS[i % this.w] + (this.h - Math.floor(i / this.w));
  }

  // index reads a point of the snapshot (a number on a line, a vertex on
  // a grid); -1 when it is none.
  index(p) {
    if (p == null) return -1;
    if (typeof p === 'number') return p - 1;
    const m = /^([A-HJ-Z])(\d+)$/i.exec(p);
    if (m && this.shape === 'grid') {
      const c = COLS.indexOf(m[1].toUpperCase()), r = this.h - +m[2];
      return c < 0 || r < 0 || r >= this.h ? -1 : r * this.w + c;
    }
    const n = parseInt(p, 10);
    return String(n) === String(p) ? n - 1 : -1;
  }

  // slide reads "1-4" as [0, 3], or null.
  slide(p) {
    const m = /^(\d+)-(\d+)$/.exec(String(p));
    return m ? [+m[1] - 1, +m[2] - 1] : null;
  }

  xy(i) {
    if (this.shape === 'grid') return [U * (i % this.w + 1) + U * 0.3, U * (Math.floor(i / this.w) + 1)];
    return [U * (i + 1), U];
  }

  size() {
    if (this.shape === 'grid') return [U * (this.w + 1) + U * 0.3, U * this.h + U * 1.25];
    return [U * (this.w + 1), U * (this.shape === 'line' && this.w <= 26 ? 2.75 : 2.3)];
  }

  // step moves a point by dx columns and dy rows, staying on the board.
  step(i, dx, dy) {
    const c = Math.min(this.w - 1, Math.max(0, (i % this.w) + dx));
    const r = Math.min(this.h - 1, Math.max(0, Math.floor(i / this.w) + dy));
    return r * this.w + c;
  }
}

// parseDiagram reads a diagram of the seeds' notation (x o X O - _ /, rows
// joined by |) into cells, the last stone and the points just emptied.
export function parseDiagram(d) {
  const cells = [], captured = new Set();
  let last = -1;
  for (const ch of d.replace(/\|/g, '')) {
    const i = cells.length;
    if (ch === 'X' || ch === 'O') last = i;
    if (ch === '/') captured.add(i);
    cells.push(ch === 'x' || ch === 'X' ? 'x' : ch === 'o' || ch === 'O' ? 'o' : ch === '*' ? '*' : '-');
  }
  return { cells, last, captured };
}

function stone(c, x, y, r, cls) {
  return el('svg:circle', { cx: x, cy: y, r, class: `st s${c}${cls ? ' ' + cls : ''}` });
}

// draw replaces host's drawing with the board v:
//   cells     'x', 'o' or '-' for every point
//   last      the point just played (-1: none); from: where a slide left
//   captured  Set of points just emptied; forbidden: Map point → why
//   targets   Set of points a click plays (highlighted); pieces: Set of
//             pieces a click picks up (slides); selected: the one picked
//   ghost     the colour a hovered target shows; pending: a move to confirm
//   cursor    the keyboard's point (-1: none)
export function draw(host, geo, v) {
  const [W, H] = geo.size();
  const svg = el('svg:svg', { viewBox: `0 0 ${W} ${H}`, width: Math.round(W * Math.min(2, Math.max(1.3, 600 / W))), class: `b-${geo.shape}`, role: 'img', 'aria-label': describe(geo, v) });
  const defs = el('svg:defs', {},
    grad('gx', '#6b6b6b', '#1a1a1a'),
    grad('go', '#ffffff', '#d4d2cc'));
  svg.append(defs, el('svg:rect', { x: 0, y: 0, width: W, height: H, rx: 8, class: 'wood' }));
  const lines = el('svg:g', { class: 'lines' });
  const labels = el('svg:g', { class: 'labels' });
  if (geo.shape === 'grid') {
    const [x0, y0] = geo.xy(0), [x1, y1] = geo.xy(geo.n - 1);
    for (let c = 0; c < geo.w; c++) {
      const x = x0 + c * U;
      if (geo.h > 1) lines.append(el('svg:line', { x1: x, y1: y0, x2: x, y2: y1 }));
      labels.append(el('svg:text', { x, y: y1 + U * 0.95, text: COLS[c] }));
    }
    for (let r = 0; r < geo.h; r++) {
      const y = y0 + r * U;
      lines.append(el('svg:line', { x1: x0, y1: y, x2: x1, y2: y }));
      labels.append(el('svg:text', { x: U * 0.55, y: y + U * 0.13, text: String(geo.h - r) }));
    }
  } else {
    const y = U, xa = U, xb = U * geo.w;
    if (geo.shape === 'line') {
      lines.append(el('svg:line', { x1: xa, y1: y, x2: xb, y2: y }));
      for (const x of [xa - U * 0.5, xb + U * 0.5]) lines.append(el('svg:line', { x1: x, y1: y - U * 0.3, x2: x, y2: y + U * 0.3, class: 'end' }));
    }
    for (let i = 0; i < geo.n; i++) {
      const x = U * (i + 1);
      if (geo.shape === 'line') lines.append(el('svg:line', { x1: x, y1: y - U * 0.16, x2: x, y2: y + U * 0.16, class: 'tick' }));
      else lines.append(el('svg:rect', { x: x - U * 0.46, y: y - U * 0.46, width: U * 0.92, height: U * 0.92, rx: U * 0.12, class: 'slot' }));
      labels.append(el('svg:text', { x, y: U * 1.95, text: String(i + 1) }));
      if (geo.shape === 'line' && geo.w <= 26) labels.append(el('svg:text', { x, y: U * 2.45, class: 'letter', text: String.fromCharCode(97 + i) }));
    }
  }
  svg.append(lines, labels);
  const r = geo.shape === 'slide' ? U * 0.38 : U * 0.45;
  for (let i = 0; i < geo.n; i++) {
    const [x, y] = geo.xy(i);
    const c = v.cells[i];
    const cls = ['pt'];
    const g = el('svg:g', { 'data-i': i, 'data-name': geo.name(i) });
    // A point of a line or a slide board takes a touch anywhere in its
    // column, the board's whole height: a target as tall as a finger
    // even where the line's many points are narrower than one.
    if (geo.shape === 'grid') g.append(el('svg:rect', { x: x - U / 2, y: y - U / 2, width: U, height: U, class: 'hit' }));
    else g.append(el('svg:rect', { x: x - U / 2, y: 0, width: U, height: H, class: 'hit' }));
    if (v.targets && v.targets.has(i)) {
      cls.push('target');
      g.append(el('svg:circle', { cx: x, cy: y, r: U * 0.09, class: 'dot' }));
      if (v.ghost) g.append(stone(v.ghost, x, y, r, v.pending === i ? 'ghost pending' : 'ghost'));
    }
    if (v.captured && v.captured.has(i) && c === '-') g.append(el('svg:circle', { cx: x, cy: y, r: r * 0.8, class: 'cap' }));
    if (i === v.from) g.append(el('svg:circle', { cx: x, cy: y, r: r * 0.5, class: 'from' }));
    if (c === 'x' || c === 'o') {
      g.append(stone(c, x, y, r));
      cls.push('s' + c);
      if (i === v.last) g.append(el('svg:circle', { cx: x, cy: y, r: r * 0.3, class: `last m${c}` }));
    }
    if (c === '*') {
      // A point declared safe (docs/rules.md, option safe): nobody places here.
      cls.push('safe');
      const d = U * 0.2;
      g.append(el('svg:rect', { x: x - d, y: y - d, width: 2 * d, height: 2 * d, transform: `rotate(45 ${x} ${y})`, class: 'safe' }));
      g.append(el('svg:title', { text: `${geo.name(i)}: safe, nobody can place a stone here` }));
    }
    if (v.pieces && v.pieces.has(i)) {
      cls.push('piece');
      g.append(el('svg:circle', { cx: x, cy: y, r: r + U * 0.04, class: i === v.selected ? 'ring sel' : 'ring' }));
    }
    if (v.forbidden && v.forbidden.has(i)) {
      cls.push('forbidden');
      const d = U * 0.22;
      g.append(el('svg:line', { x1: x - d, y1: y + d, x2: x + d, y2: y - d, class: 'slash' }));
      g.append(el('svg:title', { text: `${geo.name(i)}: ${v.forbidden.get(i)}` }));
    }
    if (i === v.cursor) g.append(el('svg:rect', { x: x - U * 0.48, y: y - U * 0.48, width: U * 0.96, height: U * 0.96, rx: 4, class: 'cursor' }));
    g.setAttribute('class', cls.join(' '));
    svg.append(g);
  }
  // Points of at least 24 CSS pixels (WCAG 2.5.8's minimum, for the
  // lines of many points that cannot have 44 on a phone), 44 or more
  // where the page has room; a board wider than the page scrolls.
  svg.style.minWidth = geo.shape !== 'grid' && geo.n > 19 ? `${(geo.n + 1) * 26}px` : `${Math.ceil((W * 24) / U)}px`;
  host.replaceChildren(svg);
}

function grad(id, a, b) {
  return el('svg:radialGradient', { id, cx: '0.35', cy: '0.3', r: '0.75' },
    el('svg:stop', { offset: '0', 'stop-color': a }),
    el('svg:stop', { offset: '1', 'stop-color': b }));
}

// describe says the board in words for a screen reader.
function describe(geo, v) {
  const at = (c) => v.cells.map((s, i) => (s === c ? geo.name(i) : null)).filter(Boolean).join(' ') || 'none';
  const safe = v.cells.includes('*') ? ` Safe: ${at('*')}.` : '';
  return `${geo.shape === 'grid' ? geo.w + '×' + geo.h + ' grid' : geo.n + '-point line'}. Black: ${at('x')}. White: ${at('o')}.${safe}`;
}
