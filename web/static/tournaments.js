// The tournaments (GET /api/tournaments): open, running and finished,
// and the form that organises one, with the rules and the clock chosen
// as for a game (ruleform.js) and the organiser playing unless unticked.

import { api, el, $, nextGame } from './api.js';
import { ruleForm } from './ruleform.js';

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
  // A tournament needs a clock: correspondence unless live is chosen.
  form.querySelector('input[name=clock][value=days]').checked = true;
  const { rulesText, clockText } = ruleForm(form);
  const rounds = () => { $('#rounds').hidden = form.elements.format.value !== 'swiss'; };
  form.elements.format.addEventListener('change', rounds);
  rounds();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const body = { name: f.get('name'), rules: rulesText(), clock: clockText(), format: f.get('format'),
      max_players: Number(f.get('max_players')), play: form.elements.play.checked };
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
