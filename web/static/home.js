// The home page: the create form, my games, the lobby, the account.

import { api, el, $, me, colorName, rulesWords, clockWords, resultWords, timeLeft, nextGame, copyInput, playerName } from './api.js';
import { ruleForm } from './ruleform.js';
import { showInvitation } from './start.js';
import { lobbyRating, lobbyFilter, lobbyEmpty, onLobbyFilter, ratedChoice } from './ratings.js';

const signedIn = me() !== '' && !('guest' in document.body.dataset);
// The vacation's form is an account's only: its script is loaded for it.
if ($('#vacation')) import('./vacation.js');
const form = $('#new-game');
if (!signedIn) {
  for (const r of form.querySelectorAll('[data-account]')) {
    r.disabled = true;
    r.parentElement.classList.add('off');
  }
  $('#account-note').hidden = false;
}
const { radio, rulesText, clockText } = ruleForm(form);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const err = $('#new-error');
  err.textContent = '';
  let opponent = radio('opponent');
  if (opponent === 'computer') opponent = 'computer:level:' + form.elements.level.value;
  if (opponent === 'named') opponent = form.elements.name.value.trim();
  if (!opponent) {
    err.textContent = 'Write the name of the player you challenge.';
    return;
  }
  const clock = clockText();
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const allowBots = opponent === 'open' && form.elements.allow_bots.checked;
    const { data } = await api('POST', '/api/games', { rules: rulesText(), color: radio('color'), clock, opponent, ...ratedChoice(form), ...(allowBots ? { allow_bots: true } : {}) });
    if (!data.invite) {
      location.href = '/g/' + data.id;
      return;
    }
    showInvitation(data);
  } catch (x) {
    err.textContent = x.message;
  } finally {
    button.disabled = false;
  }
});
$('#copy-link').addEventListener('click', () => copyInput($('#invite-link'), $('#copy-link')));

// Lists of games. A seat nobody has taken yet names the player a named
// challenge was made to.
function seatWords(g, c) {
  if (g.players[c] && g.players[c].name) return playerName(g.players[c]);
  if (g.invitee) return `${g.invitee === me() ? 'you' : g.invitee} (invited)`;
  return 'open seat';
}

function gameRow(g, extra) {
  const opp = ['x', 'o'].map((c) => `${colorName(c)}: ${seatWords(g, c)}`).join(' · ');
  return el('li', { class: g.my_turn ? 'my-turn' : '' },
    el('a', { href: '/g/' + g.id }, el('strong', { text: rulesWords(g) }), ' ', el('span', { class: 'muted', text: clockWords(g.clock) })),
    el('br'), el('small', { text: opp }), ' ', extra || '', tournamentNote(g));
}

// tournamentNote names a tournament game's tournament and round.
function tournamentNote(g) {
  if (!g.tournament) return '';
  return el('small', { class: 'tourney' }, ' · ', el('a', { href: '/t/' + g.tournament.id, text: `${g.tournament.name}, round ${g.tournament.round}` }));
}

function list(items, empty) {
  return items.length ? el('ul', { class: 'games-list' }, ...items) : el('p', { class: 'muted', text: empty });
}

async function loadMine() {
  const box = $('#my-list');
  if (!box) return;
  try {
    const { data } = await api('GET', '/api/me/games');
    const now = data.games.map((g) => gameRow(g, el('small', {
      class: g.my_turn ? 'tag' : 'muted',
      text: g.state === 'waiting' ? 'waiting for ' + (g.invitee || 'an opponent') : (g.my_turn ? 'your turn' : 'their turn') + (g.deadline ? ' · ' + timeLeft(g.deadline) + ' left' : ''),
    })));
    const ch = data.challenges.map((g) => gameRow(g, el('span', { class: 'actions' },
      el('button', { type: 'button', 'data-join': g.id, text: 'Accept' }), ' ',
      el('button', { type: 'button', 'data-decline': g.id, text: 'Decline' }))));
    const done = data.finished.slice(0, 10).map((g) => gameRow(g, el('small', { class: 'muted', text: resultWords(g) })));
    box.replaceChildren(list(now, 'No game under way.'),
      ...(ch.length ? [el('h3', { text: 'Challenges to you' }), list(ch, '')] : []),
      ...(done.length ? [el('h3', { text: 'Finished' }), list(done, '')] : []));
  } catch (x) {
    box.replaceChildren(el('p', { class: 'error', text: x.message }));
  }
}

async function loadLobby() {
  const box = $('#lobby');
  try {
    const { data } = await api('GET', '/api/lobby');
    const inRange = lobbyFilter();
    const rows = data.games.filter((g) => inRange(g, g.players.x && g.players.x.name ? 'x' : 'o')).map((g) => {
      const seat = g.players.x && g.players.x.name ? 'x' : 'o';
      const who = g.players[seat].name;
      const mine = who === me();
      const b = mine ? el('button', { type: 'button', 'data-decline': g.id, text: 'Withdraw' })
        : el('button', { type: 'button', 'data-join': g.id, disabled: !signedIn, title: signedIn ? `play ${colorName(seat === 'x' ? 'o' : 'x')}` : 'sign in to join', text: 'Join' });
      return el('li', {}, el('strong', { text: rulesWords(g) }), ' ', el('span', { class: 'muted', text: clockWords(g.clock) }),
        el('br'), el('small', { text: `${playerName(g.players[seat])} plays ${colorName(seat)} · ${lobbyRating(g, seat)}${g.allow_bots ? ' · bots welcome' : ''}` }), ' ', b);
    });
    box.replaceChildren(list(rows, lobbyEmpty() || 'No open challenge. Create one: opponent “Anyone”.'));
  } catch (x) {
    box.replaceChildren(el('p', { class: 'error', text: x.message }));
  }
}

document.addEventListener('click', async (e) => {
  const b = e.target.closest('button[data-join], button[data-decline]');
  if (!b) return;
  b.disabled = true;
  const id = b.dataset.join || b.dataset.decline;
  try {
    await api('POST', `/api/games/${id}/${b.dataset.join ? 'join' : 'decline'}`, {});
    if (b.dataset.join) location.href = '/g/' + id;
    else { loadMine(); loadLobby(); }
  } catch (x) {
    b.disabled = false;
    b.after(el('small', { class: 'error', role: 'alert', text: ' ' + x.message }));
  }
});

// Accounts.
function accountForm(sel, path) {
  const f = $(sel);
  if (!f) return;
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const err = $('.error', f);
    err.textContent = '';
    try {
      const body = { name: f.elements.name.value.trim(), password: f.elements.password.value };
      // A guest signing in may take its games over (signing up always does).
      if (f.elements.claim_guest_games && f.elements.claim_guest_games.checked) body.claim_guest_games = true;
      await api('POST', path, body);
      location.href = '/';
    } catch (x) {
      err.textContent = x.message;
    }
  });
}
accountForm('#sign-in', '/api/login');
accountForm('#sign-up', '/api/accounts');

const settings = $('#settings');
if (settings) {
  settings.addEventListener('submit', async (e) => {
    e.preventDefault();
    const err = $('.error', settings), saved = $('.saved', settings);
    err.textContent = saved.textContent = '';
    try {
      await api('PUT', '/api/me', { confirm_moves: settings.elements.confirm_moves.checked, email: settings.elements.email.value.trim() });
      saved.textContent = 'Saved.';
    } catch (x) {
      err.textContent = x.message;
    }
  });
}

loadMine();
loadLobby();
onLobbyFilter(loadLobby);
nextGame();
setInterval(() => {
  if (document.visibilityState === 'visible') {
    loadLobby();
    loadMine();
  }
}, 15000);
