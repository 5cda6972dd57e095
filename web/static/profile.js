// The profile (/p/NAME, loaded by archive.js): the player's rating in
// each pool and its history as a chart, drawn here in SVG (no library);
// the last games are the archive's table below.

import { api, el, $, dateWords } from './api.js';
import { signed } from './ratings.js';

const root = $('#archive');
const player = root.dataset.player;
const box = $('#ratings');
const chart = $('#rating-chart');
const poolSel = $('#rating-pool');

async function load() {
  try {
    const { data } = await api('GET', '/api/players/' + encodeURIComponent(player));
    const rs = data.ratings || [];
    if (!rs.length) {
      $('#ratings-body').replaceChildren(el('p', { class: 'muted', text: 'No rated game yet.' }));
      $('#rating-history').hidden = true;
      return;
    }
    $('#ratings-rows').replaceChildren(...rs.map((r) => el('tr', {},
      el('th', { scope: 'row' }, el('a', { href: '/leaderboard?pool=' + encodeURIComponent(r.pool), text: r.pool })),
      el('td', { class: 'num rating', text: r.shown, title: r.provisional ? 'provisional: the deviation is above 110' : '' }),
      el('td', { class: 'num', text: String(Math.round(r.rd)) }),
      el('td', { class: 'num', text: String(r.games) }))));
    poolSel.replaceChildren(...rs.map((r) => el('option', { value: r.pool, text: r.pool })));
    // The pool played most comes first in the chart.
    const most = rs.reduce((a, b) => (b.games > a.games ? b : a));
    poolSel.value = most.pool;
    $('#rating-history').hidden = false;
    drawPool();
  } catch (x) {
    $('#ratings-error').textContent = x.message;
  }
}

async function drawPool() {
  try {
    const { data } = await api('GET', `/api/players/${encodeURIComponent(player)}/ratings?pool=${encodeURIComponent(poolSel.value)}`);
    draw(data.history);
  } catch (x) {
    $('#ratings-error').textContent = x.message;
  }
}

// draw makes the chart: the rating after each game (a line with a dot a
// game, the game's change in the dot's title), the band of one deviation
// either side, the start at 1500, and the axes' labels.
function draw(hist) {
  const W = 640, H = 240, L = 48, R = 12, T = 12, B = 28;
  const pts = [{ rating: 1500, rd: 350, at: null }, ...hist];
  const lo = Math.min(...pts.map((p) => p.rating - Math.min(p.rd, 150)));
  const hi = Math.max(...pts.map((p) => p.rating + Math.min(p.rd, 150)));
  const pad = Math.max(20, (hi - lo) * 0.05);
  const y0 = Math.floor((lo - pad) / 50) * 50, y1 = Math.ceil((hi + pad) / 50) * 50;
  const x = (i) => L + (pts.length === 1 ? 0 : (i * (W - L - R)) / (pts.length - 1));
  const y = (v) => T + ((y1 - v) * (H - T - B)) / (y1 - y0);
  const kids = [el('svg:title', { text: `${player}'s ${poolSel.value} rating after each rated game` })];
  const step = Math.max(50, Math.ceil((y1 - y0) / 4 / 50) * 50);
  for (let v = y0; v <= y1; v += step) {
    kids.push(el('svg:line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    kids.push(el('svg:text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis', text: String(v) }));
  }
  const band = pts.map((p, i) => `${x(i)},${y(p.rating + Math.min(p.rd, 150))}`)
    .concat(pts.map((p, i) => `${x(i)},${y(p.rating - Math.min(p.rd, 150))}`).reverse());
  kids.push(el('svg:polygon', { points: band.join(' '), class: 'band' }));
  kids.push(el('svg:polyline', { points: pts.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'line' }));
  pts.forEach((p, i) => {
    if (!p.at) return;
    kids.push(el('svg:circle', { cx: x(i), cy: y(p.rating), r: 4, class: p.change >= 0 ? 'game-dot up' : 'game-dot down' },
      el('svg:title', { text: `${dateWords(p.at)}: ${Math.round(p.rating)} (${signed(p.change)})` })));
  });
  if (hist.length) {
    kids.push(el('svg:text', { x: L, y: H - 8, class: 'axis', text: 'start' }));
    kids.push(el('svg:text', { x: W - R, y: H - 8, 'text-anchor': 'end', class: 'axis', text: dateWords(hist[hist.length - 1].at) }));
  }
  chart.replaceChildren(...kids);
  chart.setAttribute('viewBox', `0 0 ${W} ${H}`);
  chart.dataset.points = String(hist.length);
  const last = hist[hist.length - 1];
  $('#rating-summary').textContent = last
    ? `${hist.length} rated game${hist.length === 1 ? '' : 's'} in ${poolSel.value}; now ${Math.round(last.rating)} (deviation ${Math.round(last.rd)}).`
    : '';
}

if (box) {
  poolSel.addEventListener('change', drawPool);
  load();
}
