// Conditional moves on the game page: while it is the
// opponent's move in a correspondence game, a player builds answers by
// playing a line on the editor's board (the opponent's move, then theirs,
// and so on; the server plays each position with the kernel), adds the line
// to the tree, and saves it (PUT /api/games/{id}/conditional). The tree
// saved is shown with a button to remove each answer; what the server did
// with the last tree (an answer it could not play) is shown as a note.

import { api, el, $, colorName, other } from './api.js';
import { draw } from './board.js';

let id = '';
let geo = null;
let g = null; // the game as the page last applied it
let seat = '';
let tree = {}; // the tree as the editor holds it: saved, or changed since
let saved = true;
let line = []; // the line being played on the editor's board
let pos = null; // the position after the game and the line
let loadedAt = ''; // the state (ply and version) the editor read the tree at
let busy = false;

// open: the editor is for a player of an active game between two people,
// by correspondence or without a clock, while it is the opponent's move.
const open = () => g && seat && g.state === 'active' && !g.over && g.to_move !== seat &&
  (g.clock.spec.startsWith('days:') || g.clock.spec === 'none') &&
  ['x', 'o'].every((c) => g.players[c] && g.players[c].name && !g.players[c].computer);

export function initConditional(gameID, geometry) {
  id = gameID;
  geo = geometry;
  const sec = $('#cond');
  if (!sec) return;
  $('#cond-board').addEventListener('click', (e) => {
    const p = e.target.closest('[data-i]');
    if (p) extend(geo.name(+p.dataset.i));
  });
  $('#cond-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const m = $('#cond-move').value.trim();
    if (m) extend(m);
    $('#cond-move').value = '';
  });
  $('#cond-pass').addEventListener('click', () => extend('pass'));
  $('#cond-back').addEventListener('click', () => preview(line.slice(0, -1)));
  $('#cond-add').addEventListener('click', addLine);
  $('#cond-save').addEventListener('click', save);
  $('#cond-clear').addEventListener('click', clearAll);
  $('#cond-tree').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-path]');
    if (!b) return;
    remove(b.dataset.path.split(','));
  });
}

// updateConditional follows the game: the editor shows while it may be
// used, and reads the tree again after each change of the game (a move
// may have used or cleared it).
export function updateConditional(v, mySeat) {
  g = v;
  seat = mySeat;
  const sec = $('#cond');
  if (!sec || !seat) return;
  const at = `${g.ply}.${g.version}`;
  if (!open()) {
    sec.hidden = true;
    if (seat && g.state === 'active' && at !== loadedAt) load(at, false);
    return;
  }
  sec.hidden = false;
  if (at !== loadedAt) load(at, true);
}

// load reads the tree (and the note) saved; show: the editor is open.
async function load(at, show) {
  loadedAt = at;
  try {
    const { data } = await api('GET', `/api/games/${id}/conditional`);
    tree = data.tree || {};
    saved = true;
    note(data.note || '');
    if (show) {
      line = [];
      renderTree();
      preview([]);
    }
  } catch (e) {
    if (show) note(e.message);
  }
}

function note(text) {
  $('#cond-note').textContent = text;
}

function say(text) {
  $('#cond-say').textContent = text;
}

// extend plays one more move on the editor's board.
function extend(move) {
  if (line.length >= 60) {
    say('A line looks at most 60 moves ahead.');
    return;
  }
  preview([...line, move]);
}

// preview asks the server for the position after the line.
async function preview(l) {
  if (busy) return;
  busy = true;
  try {
    const q = encodeURIComponent(l.join(','));
    const { data } = await api('GET', `/api/games/${id}/conditional?line=${q}`);
    line = data.line || [];
    pos = data.position;
    say('');
  } catch (e) {
    say(e.message);
  } finally {
    busy = false;
    renderEditor();
  }
}

// whose says who plays the line's next move: the opponent first.
const whose = (k) => (k % 2 === 0 ? other(seat) : seat);

function renderEditor() {
  if (!pos) return;
  const v = { cells: pos.board.replace(/\|/g, '').split(''), last: -1, from: -1, captured: new Set(), forbidden: new Map(), cursor: -1 };
  if (typeof pos.last_move === 'number' || (typeof pos.last_move === 'string' && !pos.last_move.includes('-'))) v.last = geo.index(pos.last_move);
  for (const p of pos.captured || []) v.captured.add(geo.index(p));
  v.targets = new Set((pos.legal || []).filter((m) => m !== 'pass' && !String(m).includes('-')).map((m) => geo.index(m)));
  v.ghost = whose(line.length);
  draw($('#cond-board'), geo, v);
  const who = whose(line.length);
  const words = line.map((m, k) => `${k % 2 === 0 ? 'if' : 'then'} ${colorName(whose(k))} ${m}`).join(', ');
  $('#cond-line').textContent = line.length ? `Line: ${words}.` : 'Play the line on this board: your opponent\'s move first, then your answer.';
  $('#cond-next').textContent = pos.over ? 'The game would be over here.' : `${colorName(who)} (${who}) to move${who === seat ? ': your answer' : ': the move you expect'}.`;
  $('#cond-add').disabled = line.length < 2;
  $('#cond-back').disabled = line.length === 0;
  $('#cond-pass').hidden = !(pos.legal || []).includes('pass');
}

// addLine puts the line's pairs into the tree (an answer already there for
// the same move is replaced, with what follows it).
function addLine() {
  const pairs = line.length - (line.length % 2);
  if (pairs < 2) return;
  let t = tree;
  for (let k = 0; k < pairs; k += 2) {
    const key = line[k], reply = line[k + 1];
    if (!t[key] || t[key].move !== reply) t[key] = { move: reply };
    if (k + 2 < pairs) {
      t[key].then = t[key].then || {};
      t = t[key].then;
    }
  }
  saved = false;
  renderTree();
  preview([]);
}

function remove(path) {
  let t = tree;
  for (let k = 0; k < path.length - 1; k++) t = t[path[k]].then;
  delete t[path[path.length - 1]];
  saved = false;
  renderTree();
}

async function save() {
  try {
    const { data } = await api('PUT', `/api/games/${id}/conditional`, { ply: g.ply, tree });
    tree = data.tree || {};
    saved = true;
    note('');
    say('Saved: your answers will be played as soon as your opponent plays a move they name.');
  } catch (e) {
    say(e.message);
  }
  renderTree();
}

async function clearAll() {
  try {
    await api('DELETE', `/api/games/${id}/conditional`);
    tree = {};
    saved = true;
    note('');
    say('Cleared.');
  } catch (e) {
    say(e.message);
  }
  renderTree();
}

// renderTree lists the answers: "if White plays 4, play 6", nested.
function renderTree() {
  const list = (t, path) => el('ul', {}, ...Object.keys(t).sort().map((k) => {
    const p = [...path, k];
    const n = t[k];
    return el('li', { 'data-key': p.join(',') },
      `If ${colorName(other(seat))} plays ${k}, play ${n.move} `,
      el('button', { type: 'button', class: 'link', 'data-path': p.join(','), 'aria-label': `remove the answer to ${p.join(', ')}`, text: 'remove' }),
      n.then && Object.keys(n.then).length ? list(n.then, p) : null);
  }));
  const empty = Object.keys(tree).length === 0;
  $('#cond-tree').replaceChildren(empty ? el('p', { class: 'muted', text: 'No conditional moves.' }) : list(tree, []));
  $('#cond-save').disabled = saved;
  $('#cond-clear').disabled = empty && saved;
  $('#cond-state').textContent = saved ? '' : 'Not saved yet.';
}

