// Around a game, called by the game page: the end screen's
// Rematch and New game, the rematch offered and followed on the old game's
// stream, and the messages between the players (shown as text, never as
// HTML) with the mute.

import { api, el, $, colorName, other, playerName } from './api.js';

let id = '';
let g = null;
let seat = '';
let seen = null; // the rematch's state when this page first saw the game
let offered = ''; // the rematch this page offered, against the computer: go at once

export function initAround(gameId) {
  id = gameId;
  $('#rematch').addEventListener('click', rematch);
  $('#new-game').addEventListener('click', newGame);
  $('#chat-form').addEventListener('submit', send);
  $('#mute').addEventListener('change', mute);
}

// keepListening: a player's page keeps the stream of a game that is over,
// for the rematch and the messages.
export const keepListening = (v, s) => s !== '' && (v.state === 'finished' || v.state === 'aborted');

// updateAround takes each new state of the game.
export function updateAround(v, mySeat) {
  g = v;
  seat = mySeat;
  const r = g.rematch;
  if (seen === null) seen = r ? r.state : '';
  // Both pages follow the rematch once it starts while they are open.
  if (seat && r && r.state === 'active' && (seen !== 'active' || offered === r.id)) {
    location.href = '/g/' + r.id;
    return;
  }
  renderEnd();
  renderChat();
}

function renderEnd() {
  const over = g.state === 'finished' || g.state === 'aborted';
  $('#end-actions').hidden = !over && g.state !== 'expired';
  $('#rematch').hidden = !over || !seat;
  $('#new-game').hidden = !seat;
  const note = $('#rematch-note');
  const r = g.rematch;
  let text = '';
  $('#rematch').textContent = 'Rematch';
  if (seat && over && r) {
    const opp = playerName(g.players[other(seat)]);
    if (r.state === 'waiting' && r.by === seat) text = `Rematch offered: waiting for ${opp}.`;
    else if (r.state === 'waiting') {
      text = `Rematch offered by ${opp}: you would play ${colorName(other(seat))}.`;
      $('#rematch').textContent = 'Accept the rematch';
    } else if (r.state === 'expired') text = 'The rematch was declined or not taken in time.';
    else text = '';
    if (r.state !== 'waiting' && r.state !== 'expired') note.replaceChildren(el('a', { href: '/g/' + r.id, text: 'The rematch' }));
  }
  if (text || !r || r.state === 'waiting' || r.state === 'expired') note.textContent = text;
}

async function rematch() {
  const b = $('#rematch');
  b.disabled = true;
  $('#rematch-note').textContent = '';
  try {
    const { status, data } = await api('POST', `/api/games/${id}/rematch`, {});
    offered = data.id;
    // Accepted, or against the computer: the game has started.
    if (status === 200 || g.kind === 'computer') location.href = '/g/' + data.id;
  } catch (e) {
    $('#rematch-note').textContent = e.message;
  } finally {
    b.disabled = false;
  }
}

// newGame goes to the home page; a rematch the opponent offered is
// declined first, so that their page says so.
async function newGame() {
  const r = g && g.rematch;
  if (seat && r && r.state === 'waiting' && r.by !== seat) {
    try { await api('POST', `/api/games/${id}/rematch`, { decline: true }); } catch { /* going anyway */ }
  }
  location.href = '/';
}

function renderChat() {
  const box = $('#chat');
  box.hidden = !seat || g.kind === 'computer';
  if (box.hidden || !g.messages) return;
  const list = $('#chat-list');
  list.replaceChildren(...g.messages.map((m) => el('li', { class: m.color === seat ? 'mine' : '' },
    el('b', { text: m.color === seat ? 'You' : m.from || colorName(m.color) }), ': ', el('span', { class: 'text', text: m.text }))));
  list.scrollTop = list.scrollHeight;
  $('#mute').checked = !!g.muted;
}

async function send(e) {
  e.preventDefault();
  const input = $('#chat-text');
  const text = input.value.trim();
  if (!text) return;
  $('#chat-error').textContent = '';
  try {
    await api('POST', `/api/games/${id}/messages`, { text });
    input.value = '';
  } catch (x) {
    $('#chat-error').textContent = x.message;
  }
}

async function mute(e) {
  try {
    await api('POST', `/api/games/${id}/mute`, { muted: e.target.checked });
  } catch (x) {
    $('#chat-error').textContent = x.message;
  }
}
