// Games to watch: the live games in progress (GET /api/watch), the latest
// moves first, read again every 10 seconds while the page is shown.

import { api, el, $, rulesWords, playerName, botTag, nextGame } from './api.js';

const rows = $('#watch-rows');

// ratingOf is the seat's rating when the seat was taken, as the game's
// ratings show it ("1662?" while provisional); '' for a seat without one
// (a guest, the computer).
const ratingOf = (g, c) => {
  const r = g.ratings && g.ratings[c];
  return r && r.shown ? ` ${r.shown}` : '';
};

// playerCell names a seat, linked to the player's page, with the rating.
function playerCell(g, c) {
  const p = g.players[c];
  return el('td', {}, p && p.name && !p.computer && !p.guest ? el('a', { href: '/p/' + encodeURIComponent(p.name), text: p.name }) : playerName(p), botTag(p), ratingOf(g, c));
}

async function load() {
  $('#watch-error').textContent = '';
  try {
    const { data } = await api('GET', '/api/watch');
    const trs = data.games.map((g) => el('tr', { 'data-game': g.id },
      playerCell(g, 'x'), playerCell(g, 'o'),
      el('td', { text: rulesWords(g) }),
      el('td', { text: g.clock === 'none' ? 'no clock' : g.clock.replace(/^live:/, '') }),
      el('td', { class: 'num', text: String(g.ply) }),
      el('td', { class: 'num spectators', text: String(g.spectators) }),
      el('td', {}, el('a', { href: '/g/' + g.id, text: 'watch' }))));
    rows.replaceChildren(...trs);
    if (!trs.length) rows.replaceChildren(el('tr', {}, el('td', { colspan: 7, class: 'muted', text: 'No live game is being played now.' })));
  } catch (x) {
    $('#watch-error').textContent = x.message;
  }
}

load();
setInterval(() => { if (document.visibilityState === 'visible') load(); }, 10000);
nextGame();
