// The leaderboard (/leaderboard?pool=P): a pool's players, the settled
// ratings best first, then the provisional ones, their ranks marked "3?"
// as their ratings are (GET /api/leaderboard).

import { api, el, $, nextGame, botTag } from './api.js';

const form = $('#board-filter');
const rows = $('#board-rows');

async function load() {
  const pool = form.elements.pool.value;
  $('#board-error').textContent = '';
  try {
    const { data } = await api('GET', '/api/leaderboard?pool=' + encodeURIComponent(pool) + '&limit=100');
    const trs = data.players.map((p) => el('tr', { class: p.provisional ? 'provisional' : '' },
      el('td', { class: 'num', text: p.provisional ? `${p.rank}?` : String(p.rank), title: p.provisional ? 'provisional: the deviation is above 110' : null }),
      el('th', { scope: 'row' }, el('a', { href: '/p/' + encodeURIComponent(p.name), text: p.name }), botTag(p)),
      el('td', { class: 'num rating', text: p.shown }),
      el('td', { class: 'num', text: String(Math.round(p.rd)) }),
      el('td', { class: 'num', text: String(p.games) })));
    rows.replaceChildren(...trs);
    if (!trs.length) rows.replaceChildren(el('tr', {}, el('td', { colspan: 5, class: 'muted', text: `No rated game in ${pool} yet.` })));
    history.replaceState(null, '', '/leaderboard?pool=' + encodeURIComponent(pool));
  } catch (x) {
    $('#board-error').textContent = x.message;
  }
}

const wanted = new URLSearchParams(location.search).get('pool');
if (wanted && [...form.elements.pool.options].some((o) => o.value === wanted)) form.elements.pool.value = wanted;
form.addEventListener('change', load);
form.addEventListener('submit', (e) => { e.preventDefault(); load(); });
load();
nextGame();
