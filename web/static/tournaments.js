// The tournaments (GET /api/tournaments): open, running and finished,
// and the form that organises one.

import { api, el, $, nextGame } from './api.js';

function table(list, empty) {
  if (!list.length) return el('p', { class: 'muted', text: empty });
  return el('div', { class: 'scroll' }, el('table', { class: 'games' },
    el('thead', {}, el('tr', {}, ...['Name', 'Format', 'Rules', 'Clock', 'Players', 'Round', 'Winner'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...list.map((t) => el('tr', { 'data-tournament': t.id },
      el('td', {}, el('a', { href: '/t/' + t.id, text: t.name })),
      el('td', { text: t.format }), el('td', { text: t.rules }), el('td', { text: t.clock }),
      el('td', { class: 'num', text: String(t.players) }), el('td', { class: 'num', text: String(t.round) }),
      el('td', { text: t.winner || '' }))))));
}

async function load() {
  $('#tournaments-error').textContent = '';
  try {
    for (const state of ['open', 'running', 'finished']) {
      const { data } = await api('GET', '/api/tournaments?state=' + state);
      $('#list-' + state).replaceChildren(table(data.tournaments, `No ${state} tournament.`));
    }
  } catch (x) {
    $('#tournaments-error').textContent = x.message;
  }
}

const form = $('#tournament-form');
if (form) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const body = { name: f.get('name'), rules: f.get('rules'), clock: f.get('clock'), format: f.get('format'),
      max_players: Number(f.get('max_players')) };
    if (body.format === 'swiss') body.rounds = Number(f.get('rounds'));
    $('#create-error').textContent = '';
    try {
      const { data } = await api('POST', '/api/tournaments', body);
      location.href = '/t/' + data.id;
    } catch (x) {
      $('#create-error').textContent = x.message;
    }
  });
}

load();
nextGame();
