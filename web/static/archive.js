// The archive: finished games, for everyone or one player (/p/NAME),
// filtered by preset and size, a page of 50 at a time.

import { api, el, $, rulesWords, resultWords, playerName, botTag, dateWords, nextGame } from './api.js';

const root = $('#archive');
const player = root.dataset.player || '';
const form = $('#filter');
const rows = $('#archive-rows');
let before = '';

function query() {
  const q = new URLSearchParams({ state: 'finished', limit: '50' });
  const p = player || (form.elements.player ? form.elements.player.value.trim() : '');
  if (p) q.set('player', p);
  for (const k of ['preset', 'size']) {
    const v = form.elements[k].value.trim().toLowerCase();
    if (v) q.set(k, v);
  }
  if (before) q.set('before', before);
  return q;
}

async function load(more) {
  if (!more) before = '';
  $('#archive-error').textContent = '';
  try {
    const { data } = await api('GET', '/api/games?' + query());
    const trs = data.games.map((g) => {
      const name = (c) => {
        const p = g.players[c];
        return p && p.name && !p.computer && !p.guest ? el('a', { href: '/p/' + encodeURIComponent(p.name), text: p.name }) : playerName(p);
      };
      return el('tr', {},
        el('td', { text: dateWords(g.updated) }),
        el('td', {}, name('x'), botTag(g.players.x)), el('td', {}, name('o'), botTag(g.players.o)),
        el('td', { text: rulesWords(g) }),
        el('td', { text: resultWords(g) }),
        el('td', { class: 'num', text: String(g.ply) }),
        el('td', {}, el('a', { href: '/g/' + g.id, text: 'replay' })));
    });
    if (more) rows.append(...trs);
    else rows.replaceChildren(...trs);
    if (!rows.children.length) rows.replaceChildren(el('tr', {}, el('td', { colspan: 7, class: 'muted', text: 'No finished game matches.' })));
    $('#more').hidden = data.games.length < 50;
    if (data.games.length) before = data.games[data.games.length - 1].updated;
  } catch (x) {
    $('#archive-error').textContent = x.message;
  }
}

async function stats() {
  try {
    const { data } = await api('GET', '/api/players/' + encodeURIComponent(player));
    $('#player-stats').textContent = `${data.bot ? 'A bot, playing through the API. ' : ''}Playing since ${dateWords(data.since)}: ${data.finished} finished games, ${data.wins} won, ${data.losses} lost, ${data.draws} drawn.`;
  } catch (x) {
    $('#player-stats').textContent = x.message;
  }
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  load(false);
});
$('#more').addEventListener('click', () => load(true));
if (player) {
  stats();
  import('./profile.js');
}
load(false);
nextGame();
