// The puzzles page (/puzzles, /puzzles/ID): a position to solve, each move
// sent to the server as it is played (POST /api/puzzles/{id}/attempt),
// which judges it with the values the solver proved and answers with the
// opponent's reply; the solution replayed once it is over, the themes and
// the ratings' change. Streak mode: puzzles of rising rating until a miss.

import { api, el, $, me, colorName } from './api.js';
import { Geometry, parseDiagram, draw } from './board.js';

const root = $('#pz');
const host = $('#pz-board');
let pz = null;        // the puzzle (GET /api/puzzles/...)
let geo = null;
let moves = [];       // the player's moves sent so far
let board = null;     // {position, legal}: what the board shows and takes
let selected = -1;    // a picked piece, on a sliding board
let busy = false;
let over = false;
let solution = [];    // the solution's boards, once over
let at = -1;          // the solution's board shown (-1: the attempt's)
let streak = 0;

const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(Math.round(x));
const streakOn = () => $('#pz-streak').checked;

function say(id, text, cls) {
  const e = $(id);
  e.textContent = text;
  if (cls !== undefined) e.className = cls;
}

// show draws a board: its stones, and the targets of a click while the
// player is to move.
function show(position, legal) {
  const d = parseDiagram(position);
  const targets = new Set(), pieces = new Set();
  for (const m of legal || []) {
    const s = geo.slide(m);
    if (s && selected < 0) pieces.add(s[0]);
    else if (s && s[0] === selected) targets.add(s[1]);
    else if (!s) { const i = geo.index(m); if (i >= 0) targets.add(i); }
  }
  draw(host, geo, { cells: d.cells, last: d.last, captured: d.captured, targets, pieces, selected, ghost: legal && legal.length ? pz.to_move : '', cursor: -1 });
  $('#pz-pass').hidden = !(legal || []).includes('pass');
}

function start(p) {
  pz = p;
  moves = [];
  over = false;
  solution = [];
  at = -1;
  selected = -1;
  geo = new Geometry(p.board.shape, p.board.width, p.board.height);
  board = { position: p.position, legal: p.legal };
  show(board.position, board.legal);
  const goal = p.goal === 'win' ? 'win' : 'hold the draw';
  say('#pz-task', `${colorName(p.to_move)} (${p.to_move}) to move and ${goal}: your move.`);
  say('#pz-verdict', '', 'pz-verdict');
  say('#pz-error', '');
  $('#pz-meta').textContent = `${p.rules} · rating ${Math.round(p.rating)} · ${p.plays} ${p.plays === 1 ? 'play' : 'plays'}` +
    (p.game ? ' · from a game' : '') + (p.tried ? ` · you tried it ${p.tried.tries}×` : '');
  $('#pz-themes').hidden = true;
  $('#pz-replay').hidden = true;
  $('#pz-analyse').hidden = true;
  $('#pz-retry').hidden = true;
  $('#pz-type').hidden = false;
  history.replaceState(null, '', `/puzzles/${p.id}${location.search}`);
  host.focus({ preventScroll: true });
}

async function next() {
  if (busy) return;
  busy = true;
  say('#pz-error', '');
  const q = new URLSearchParams();
  if ($('#pz-pool').value) q.set('pool', $('#pz-pool').value);
  if ($('#pz-theme').value) q.set('theme', $('#pz-theme').value);
  if (streakOn()) q.set('rating', String(Math.min(3000, 1000 + 100 * streak)));
  try {
    const r = await api('GET', `/api/puzzles/next?${q}`);
    start(r.data);
  } catch (e) {
    say('#pz-task', '');
    say('#pz-error', e.message);
  } finally {
    busy = false;
  }
}

async function play(m) {
  if (busy || over || !pz) return;
  busy = true;
  selected = -1;
  say('#pz-error', '');
  try {
    const r = await api('POST', `/api/puzzles/${pz.id}/attempt`, { moves: [...moves, m] });
    moves.push(m);
    answered(r.data);
  } catch (e) {
    say('#pz-error', e.message);
    show(board.position, board.legal);
  } finally {
    busy = false;
  }
}

// answered shows the server's verdict on the last move: the reply and
// "go on", or the end with the values, the solution and the ratings.
function answered(a) {
  const last = a.answers[a.answers.length - 1];
  const step = a.steps[a.steps.length - 1];
  board = { position: step.position, legal: a.legal || [] };
  show(board.position, a.done ? [] : board.legal);
  if (!a.done) {
    say('#pz-verdict', `✓ ${last.move}: ${last.why}`, 'pz-verdict good');
    say('#pz-task', `${colorName(step.by)} answered ${last.reply}: your move again.`);
    return;
  }
  over = true;
  $('#pz-type').hidden = true;
  if (a.correct) say('#pz-verdict', `✓ Solved. ${last.why}`, 'pz-verdict good');
  else say('#pz-verdict', `✗ ${last.move} misses: ${last.why}. The answer was ${answerAt(a)}.`, 'pz-verdict bad');
  let rating = '';
  if (a.counted) {
    rating = `Your puzzle rating: ${Math.round(a.rating)} (${signed(a.rating_change)}); the puzzle's: ${Math.round(a.puzzle_rating)} (${signed(a.puzzle_rating_change)}).`;
    $('#pz-rating').textContent = String(Math.round(a.rating));
  } else if (a.unrated) rating = `Unrated: ${a.unrated}.`;
  say('#pz-task', rating);
  $('#pz-themes').textContent = 'Themes: ' + (a.themes || []).join(', ');
  $('#pz-themes').hidden = false;
  solution = a.solution_steps || [];
  at = -1;
  $('#pz-replay').hidden = solution.length === 0;
  const q = new URLSearchParams({ rules: pz.rules });
  if (pz.start) {
    const [pos, toMove] = pz.start.split(' ');
    q.set('position', pos);
    q.set('to_move', toMove);
  }
  q.set('moves', [...pz.moves, ...(a.solution || [])].join(','));
  $('#pz-analyse').href = `/analysis?${q}`;
  $('#pz-analyse').hidden = false;
  $('#pz-retry').hidden = a.correct;
  if (streakOn()) {
    streak = a.correct ? streak + 1 : 0;
    $('#pz-streak-n').textContent = a.correct ? String(streak) : `${streak} — the streak ended: a new one starts with the next puzzle`;
  }
}

// answerAt is the line's move where the player missed: the player's moves
// are every other one of the solution.
const answerAt = (a) => (a.solution || [])[2 * (a.answers.length - 1)] || '?';

// step shows the solution's board n (from -1, the puzzle's own).
function step(n) {
  at = Math.max(-1, Math.min(solution.length - 1, n));
  const s = at < 0 ? { position: pz.position, move: '' } : solution[at];
  show(s.position, []);
  $('#pz-at').textContent = at < 0 ? 'the puzzle' : `${at + 1}/${solution.length}: ${colorName(s.by)} ${s.move}`;
}

host.addEventListener('click', (e) => {
  const g = e.target.closest('[data-i]');
  if (!g || over || !board) return;
  const i = +g.dataset.i;
  if (geo.shape === 'slide') {
    if (selected < 0 || i === selected) {
      selected = selected === i ? -1 : i;
      show(board.position, board.legal);
      return;
    }
    const m = `${selected + 1}-${i + 1}`;
    if (board.legal.includes(m)) play(m);
    else { selected = -1; show(board.position, board.legal); }
    return;
  }
  const name = geo.name(i);
  if (board.legal.includes(name)) play(name);
});

$('#pz-type').addEventListener('submit', (e) => {
  e.preventDefault();
  const m = $('#pz-move').value.trim();
  if (m) play(m);
  $('#pz-move').value = '';
});
$('#pz-pass').addEventListener('click', () => play('pass'));
$('#pz-next').addEventListener('click', next);
$('#pz-retry').addEventListener('click', () => start(pz));
$('#pz-streak').addEventListener('change', () => {
  streak = 0;
  $('#pz-streak-box').hidden = !streakOn();
  $('#pz-streak-n').textContent = '0';
  next();
});
for (const b of document.querySelectorAll('#pz-replay [data-step]')) {
  b.addEventListener('click', () => {
    const k = b.dataset.step;
    step(k === 'first' ? -1 : k === 'prev' ? at - 1 : k === 'next' ? at + 1 : solution.length - 1);
  });
}

// The signed-in player's rating and own mistakes.
async function mine() {
  if (!me()) return;
  try {
    const r = await api('GET', '/api/me/puzzles');
    const v = r.data;
    $('#pz-rating').textContent = `${Math.round(v.rating.rating)}${v.rating.provisional ? '?' : ''} · ${v.rating.attempts} rated`;
    const list = $('#pz-mine-list');
    for (const m of v.mistakes.slice(0, 10)) {
      const done = m.tried && m.tried.last_correct;
      list.append(el('li', {}, el('a', { href: `/puzzles/${m.puzzle}`, text: `${m.rules}, game ${m.game} move ${m.ply + 1}` }), done ? ' ✓' : ''));
    }
    $('#pz-mine').hidden = v.mistakes.length === 0;
  } catch { /* the rating stays as drawn */ }
}

// open shows the puzzle id.
const open = (id) => api('GET', `/api/puzzles/${id}`).then((r) => start(r.data), (e) => say('#pz-error', e.message));

// ?game=ID (the finished game's page links here): the signed-in player's
// own mistakes in that game, the first not yet solved.
async function fromGame(id) {
  try {
    const r = await api('GET', `/api/me/puzzles?game=${encodeURIComponent(id)}`);
    const ms = r.data.mistakes;
    const m = ms.find((x) => !(x.tried && x.tried.last_correct)) || ms[0];
    if (m) return open(m.puzzle);
    say('#pz-task', 'No puzzle of your own from this game: none of your moves changed the outcome, or the game is still being analysed (come back in a minute). "Next puzzle" gives another.');
  } catch (e) {
    say('#pz-task', '');
    say('#pz-error', e.message);
  }
}

mine();
const gameID = new URLSearchParams(location.search).get('game');
if (root.dataset.id) open(root.dataset.id);
else if (gameID) fromGame(gameID);
else if (new URLSearchParams(location.search).has('daily')) {
  api('GET', '/api/puzzles/daily').then((r) => {
    start(r.data);
    $('#pz-meta').textContent = `The puzzle of ${r.data.day} · ` + $('#pz-meta').textContent;
  }, (e) => { say('#pz-task', ''); say('#pz-error', e.message); });
} else next();
