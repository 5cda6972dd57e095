// A tournament's page: its players, standings, crosstable (round robins)
// or bracket (knockouts) and games, drawn from GET /api/tournaments/{id}
// and drawn again on every event of its stream; join, leave, start and
// withdraw.

import { api, el, $, me, nextGame } from './api.js';

const id = $('#tournament').dataset.id;
const score = (x) => (x === Math.floor(x) ? String(x) : `${Math.floor(x) || ''}½`);

function cells(headers, rows) {
  return el('div', { class: 'scroll' }, el('table', { class: 'games' },
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows)));
}

function actions(t) {
  const mine = me();
  const p = t.players.find((q) => q.name === mine);
  const out = [];
  const button = (name, label) => el('button', { type: 'button', 'data-action': name, text: label });
  if (mine && !document.body.hasAttribute('data-guest')) {
    if (t.state === 'open') out.push(p ? button('leave', 'Leave') : button('join', 'Join'));
    if (t.state === 'open' && t.organiser === mine) out.push(' ', button('start', 'Start'));
    if (t.state === 'running' && p && !p.withdrawn) out.push(button('withdraw', 'Withdraw'));
  }
  return out;
}

function draw(t) {
  document.title = `${t.name} · alak`;
  $('#t-name').textContent = t.name;
  $('#t-about').textContent = `${t.format} · ${t.rules} · ${t.clock}${t.rated ? ' · rated' : ''} · organised by ${t.organiser}`;
  $('#t-state').textContent = t.state === 'open' ? `Open: ${t.players.length} of ${t.max_players} players so far.`
    : t.state === 'running' ? `Running: round ${t.round}.` : `Finished. Winner: ${t.winner}.`;
  $('#t-actions').replaceChildren(...actions(t));
  $('#t-players').replaceChildren(cells(['Player', 'Rating'], t.players.map((p) => el('tr', { 'data-player': p.name },
    el('td', {}, el('a', { href: '/p/' + encodeURIComponent(p.name), text: p.name }), p.withdrawn ? ' (withdrawn)' : ''),
    el('td', { class: 'num', text: String(Math.round(p.rating)) })))));
  $('#t-standings').replaceChildren(t.standings.length ? cells(['#', 'Player', 'Score', 'Tie-breaks', 'Played'], t.standings.map((s) => el('tr', { 'data-standing': s.name },
    el('td', { class: 'num', text: String(s.rank) }), el('td', { text: s.name }), el('td', { class: 'num score', text: score(s.score) }),
    el('td', { text: s.tiebreaks.map(score).join(' · ') }), el('td', { class: 'num', text: String(s.played) }))))
    : el('p', { class: 'muted', text: 'The standings begin with the first round.' }));
  if (t.crosstable) {
    const ct = t.crosstable;
    $('#t-table').replaceChildren(el('h2', { text: 'Crosstable' }), cells(['', ...ct.names.map((_, i) => String(i + 1)), 'Score'],
      ct.names.map((n, i) => el('tr', {}, el('th', { scope: 'row', text: `${i + 1} ${n}` }),
        ...ct.cells[i].map((c, j) => el('td', { class: 'num', text: i === j ? '×' : c })), el('td', { class: 'num', text: score(ct.scores[i]) })))));
  } else if (t.bracket) {
    $('#t-table').replaceChildren(el('h2', { text: 'Bracket' }), ...t.bracket.map((r) => el('div', { class: 'bracket-round' },
      el('h3', { text: `Round ${r.round}` }), el('ul', {}, ...r.matches.map((m) => el('li', {},
        `${m.players[0] || '?'} – ${m.players[1] || (m.bye ? 'bye' : '?')} ${m.bye ? '' : `${score(m.points[0])}–${score(m.points[1])}`}${m.winner ? ` · ${m.winner} goes on` : ''}`))))));
  } else {
    $('#t-table').replaceChildren();
  }
  // My own game under way is to play (the page goes to it as it starts:
  // api.js); the others' to watch.
  const mine = (g) => me() !== '' && (g.x === me() || g.o === me());
  const games = [...t.games].sort((a, b) => b.round - a.round || a.slot - b.slot);
  const result = (g) => (g.result === 'pending' ? (g.state === 'active' ? 'being played' : g.state) : g.result === 'x' ? '1–0' : g.result === 'o' ? '0–1' : g.result === 'draw' ? '½–½' : '0–0') + (g.forfeit ? ' (forfeit)' : '');
  $('#t-games').replaceChildren(games.length ? cells(['Round', 'Black', 'White', 'Result', ''], games.map((g) => el('tr', { 'data-game': g.id || '', class: g.state === 'active' ? 'live' : '' },
    el('td', { class: 'num', text: String(g.round) }), el('td', { text: g.x }), el('td', { text: g.o || 'bye' }),
    el('td', { text: g.o ? result(g) : 'bye' }),
    el('td', {}, !g.id ? '' : g.state === 'active' && mine(g) ? el('a', { href: '/g/' + g.id, class: 'button small', text: 'play' })
      : el('a', { href: '/g/' + g.id, text: g.state === 'active' ? 'watch' : 'replay' })))))
    : el('p', { class: 'muted', text: 'No game yet.' }));
}

$('#t-actions').addEventListener('click', async (e) => {
  const b = e.target.closest('button[data-action]');
  if (!b) return;
  b.disabled = true;
  $('#t-error').textContent = '';
  try {
    const { data } = await api('POST', `/api/tournaments/${id}/${b.dataset.action}`);
    draw(data);
  } catch (x) {
    $('#t-error').textContent = x.message;
  } finally {
    b.disabled = false;
  }
});

async function load() {
  try {
    const { data } = await api('GET', '/api/tournaments/' + id);
    draw(data);
  } catch (x) {
    $('#t-error').textContent = x.message;
  }
}

load();
const events = new EventSource(`/api/tournaments/${id}/events`);
events.addEventListener('tournament', (e) => draw(JSON.parse(e.data)));
nextGame();
