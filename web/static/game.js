// The game page: the board, the players and their clocks, the moves, the
// buttons of a player, live updates from the event stream, and for a
// finished game the replay, the SGF and the analysis.

import { api, el, $, me, colorName, other, playerName, botTag, duration, nextGame, copyInput, following } from './api.js';
import { Geometry, parseDiagram, draw } from './board.js';
import { alertMove } from './notify.js';
import { cardRating, endWords } from './ratings.js';
import { initAround, updateAround, keepListening } from './around.js';

const root = $('#game');
const id = root.dataset.game;
const geo = new Geometry(root.dataset.shape, +root.dataset.w, +root.dataset.h);
const slides = geo.shape === 'slide';
const boardHost = $('#board');
const params = new URLSearchParams(location.search);

let g = null; // the game as the server last sent it
let name = me(); // who I am, by name ('' when not signed in)
let seat = ''; // my colour in this game: 'x', 'o', or '' (watching)
let positions = null; // a finished game's diagrams, for the replay
let shown = -1; // the replay's ply
let picked = -1; // a slide's piece, picked up
let pending = ''; // confirm moves: the move picked, waiting for a second click
let cursor = -1;
let typed = '';
let busy = false;
let declaring = false; // the safe-eye rule: the next click declares a point safe (*N)
let skew = 0; // server time minus local time, when they differ
let stream = null;
let down = -1; // the point a pointer went down on
let cond = null; // conditional.js, once loaded
const title = document.title;

const terminal = (s) => s === 'finished' || s === 'aborted' || s === 'expired';
const active = () => g && g.state === 'active' && !g.over;
const myTurn = () => active() && seat !== '' && g.to_move === seat;
const confirmMoves = () => 'confirm' in document.body.dataset && g.clock.spec.startsWith('days:');
// A game of mine that starts elsewhere does not take me away from one I
// am playing now (api.js): its link shows in the header.
following.stay = () => active() && seat !== '' && !g.clock.spec.startsWith('days:');

function seatOf(v) {
  for (const c of ['x', 'o']) {
    const p = v.players[c];
    if (name && p && !p.computer && p.name === name) return c;
  }
  return '';
}

// apply takes a new state of the game, from an answer or the stream;
// an older one is ignored.
function apply(v) {
  if (g && v.version <= g.version) return;
  const moved = !g || v.ply !== g.ply || v.state !== g.state;
  const prev = g;
  g = v;
  seat = seatOf(v);
  alertMove(prev, v, seat);
  if (moved) {
    picked = -1;
    pending = '';
    notice('');
  }
  if (terminal(g.state) && !keepListening(g, seat)) {
    if (stream) stream.close();
    stream = null;
  }
  if (terminal(g.state)) {
    if (g.state === 'finished' && !positions) loadReplay();
  }
  render();
  updateAround(g, seat);
  // The conditional moves' editor, loaded for a player of a game that may have them.
  if (seat && !cond && (g.clock.spec.startsWith('days:') || g.clock.spec === 'none')) {
    cond = import('./conditional.js').then((m) => (m.initConditional(id, geo), m));
  }
  if (cond) cond.then((m) => m.updateConditional(g, seat));
}

// A correspondence game paused while a player is on vacation:
// the clock of the player away says until when, the other's the time it
// keeps when it is to move.
const utcDay = (iso) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
function pausedClock(c, s) {
  if (c.vacation && c.vacation[s]) return `on vacation until ${utcDay(c.vacation[s])}`;
  return s === g.to_move ? `${duration(c[s + '_ms'])} left · paused` : '';
}
function pausedWords() {
  const c = g.clock;
  if (!c.paused) return '';
  const away = ['x', 'o'].filter((s) => c.vacation && c.vacation[s]).map((s) => `${playerName(g.players[s])} is on vacation until ${utcDay(c.vacation[s])}`);
  return ` The clock is paused${away.length ? ': ' + away.join(' and ') : ''}.`;
}

function render() {
  renderPlayers();
  renderBoard();
  renderStatus();
  renderControls();
  renderMoves();
  tick();
  $('#rules-name').textContent = g.rules;
  $('#clock-words').textContent = g.clock.words;
  $('#kind').textContent = { computer: '· against the computer', link: '· by invitation', open: '· open challenge', named: '· challenge' }[g.kind] || '';
  $('#rules-text').textContent = g.rules_text;
  $('#sgf').hidden = !terminal(g.state) || g.state === 'expired';
  // The analysis board opens a finished game only (never a game in
  // progress).
  $('#analyse').hidden = g.state !== 'finished';
  $('#replay-analyse').hidden = g.state !== 'finished';
}

function renderPlayers() {
  const counted = g.score && root.dataset.score !== 'stones' && root.dataset.score !== 'none';
  const prisoners = /prisoners|territory/.test(root.dataset.score);
  for (const c of ['x', 'o']) {
    const box = $(`.player[data-color="${c}"]`);
    const p = g.players[c] || {};
    const n = $('.name', box);
    if (p.name && !p.computer && !p.guest) n.replaceChildren(el('a', { href: '/p/' + encodeURIComponent(p.name), text: p.name }), ...[botTag(p)].filter(Boolean));
    else n.textContent = p.name || (g.invitee ? `${g.invitee} (invited)` : 'waiting for a player');
    $('.role', box).textContent = `${colorName(c)} (${c})${c === seat ? ' · you' : ''}`;
    cardRating($('.rating', box), g, c);
    const parts = [`${g.stones[c]} stone${g.stones[c] === 1 ? '' : 's'}`];
    if (prisoners) parts.push(`${g.prisoners[c]} taken`);
    if (counted) parts.push(`score ${g.score[c]}`);
    $('.count', box).textContent = parts.join(' · ');
    box.classList.toggle('turn', active() && g.to_move === c);
  }
}

// legalMoves reads the snapshot's legal moves: the points a stone may go
// to, and for slides each piece's targets.
function legalMoves() {
  const points = new Set(), from = new Map(), safe = new Set();
  for (const m of g.legal) {
    const s = slides && geo.slide(m);
    if (String(m).startsWith('*')) {
      safe.add(geo.index(m.slice(1))); // a declaration (docs/rules.md, option safe)
    } else if (s) {
      if (!from.has(s[0])) from.set(s[0], new Set());
      from.get(s[0]).add(s[1]);
    } else if (m !== 'pass') {
      points.add(geo.index(m));
    }
  }
  return { points, from, safe };
}

function forbiddenWhy() {
  const who = `${colorName(g.to_move)} (${g.to_move})`;
  switch (root.dataset.ko) {
    case 'captured': return `just captured: ${who} may not take it back at once`;
    case 'simple': return `ko: ${who} may not retake at once, it would bring back the board before the last move`;
    default: return `superko: a stone of ${who} here would bring back an earlier board`;
  }
}

function boardView() {
  if (shown >= 0 && positions && shown < positions.positions.length) {
    const d = parseDiagram(positions.positions[shown]);
    const s = shown > 0 && slides ? geo.slide(g.moves[shown - 1]) : null;
    return { ...d, from: s ? s[0] : -1, cursor: -1 };
  }
  const v = { cells: g.board.replace(/\|/g, '').split(''), last: -1, from: -1, captured: new Set(), forbidden: new Map(), cursor };
  const s = slides && geo.slide(g.last_move);
  if (s) [v.from, v.last] = s;
  else v.last = geo.index(g.last_move);
  for (const p of g.captured) v.captured.add(geo.index(p));
  for (const p of g.forbidden) v.forbidden.set(geo.index(p), forbiddenWhy());
  if (myTurn()) {
    const { points, from, safe } = legalMoves();
    v.ghost = seat;
    if (declaring) {
      v.targets = safe;
      v.ghost = '';
    } else if (slides) {
      v.pieces = new Set(from.keys());
      v.selected = picked;
      v.targets = picked >= 0 ? from.get(picked) || new Set() : new Set();
      v.ghost = picked >= 0 ? seat : '';
    } else {
      v.targets = points;
    }
    if (pending) v.pending = slides ? geo.slide(pending)[1] : geo.index(pending);
  }
  return v;
}

function renderBoard() {
  draw(boardHost, geo, boardView());
  boardHost.classList.toggle('mine', myTurn());
}

function renderStatus() {
  const st = $('#status');
  const seatWords = seat ? ` You are ${colorName(seat)} (${seat}).` : '';
  let s;
  switch (g.state) {
    case 'waiting': s = waitingWords(); break;
    case 'expired': s = /^declined\b/.test(g.reason || '') ? 'The challenge was declined or withdrawn' + (g.reason.startsWith('declined: ') ? ': ' + g.reason.slice(10) : '') + '.' : 'The challenge expired: nobody joined in time.'; break;
    case 'aborted': s = 'The game was aborted: no result.'; break;
    default:
      if (g.over) s = (g.result_words || g.result) + '.' + endWords(g);
      else if (myTurn()) {
        s = 'Your move.' + seatWords;
        if (picked >= 0) s = `The piece on ${picked + 1} is picked: click where it goes, or the piece again to put it back.`;
        if (pending) s = `${pending} picked: click it again or press Enter to play it, Escape to choose again.`;
        if (pending && loses(pending)) s = `${pending} would lose at once: the stone would leave the board unchanged. Click it again or press Enter to play it all the same, Escape to choose again.`;
      } else {
        const p = g.players[g.to_move] || {};
        s = p.computer ? `The computer (${colorName(g.to_move)}) is thinking…` : `${colorName(g.to_move)} to move: ${playerName(p)}.`;
        if (seat) s += seatWords;
        else s += ' You are watching.';
      }
  }
  if (active() && g.last_move === 'pass') s = `${colorName(other(g.to_move))} passed. ${s}`;
  if (active()) s += pausedWords();
  st.textContent = s;
  st.classList.toggle('yours', myTurn());
  document.title = (myTurn() ? 'Your move · ' : '') + title;
  st.classList.toggle('over', terminal(g.state));
}

// waitingWords says what a waiting game waits for: to its creator, the
// player named or anyone; to whoever may join, who invites them to which
// colour ("guest-1 invites you to play White").
function waitingWords() {
  const c = g.players.x && g.players.x.name ? 'x' : 'o';
  const creator = g.players[c].name, free = colorName(other(c));
  if (seat) return g.invitee ? `Waiting for ${g.invitee} to accept the challenge.` : 'Waiting for an opponent to join.';
  if (g.kind === 'named') return g.invitee === name ? `${creator} invites you to play ${free}.` : `${creator} challenges ${g.invitee}: waiting for ${g.invitee} to accept.`;
  if (g.kind === 'link' && !params.has('invite')) return `${creator} waits for the friend they invited.`;
  return `${creator} invites ${g.kind === 'open' ? 'anyone' : 'you'} to play ${free}.`;
}

// loses says whether a move would lose on the spot (Alter Igo: it leaves
// the board unchanged); the page asks to confirm such a move first.
const loses = (m) => (g.losing || []).some((p) => String(p).toUpperCase() === String(m).toUpperCase());

function renderControls() {
  const playing = active() && seat !== '';
  $('#controls').hidden = !playing;
  $('#board-help').hidden = !playing;
  $('#replay-help').hidden = !positions && g.state !== 'finished';
  if (playing) {
    const mine = myTurn();
    $('#pass').hidden = !('pass' in root.dataset);
    $('#pass').disabled = !mine || busy || !g.legal.includes('pass');
    const canDeclare = mine && !busy && g.legal.some((m) => String(m).startsWith('*'));
    if (!canDeclare) declaring = false;
    $('#declare').hidden = !canDeclare;
    $('#declare').setAttribute('aria-pressed', String(declaring));
    $('#declare').textContent = declaring ? 'Click the point to declare safe (or here to cancel)' : 'Declare a safe point';
    $('#draw').disabled = busy || g.draw_offer === seat;
    $('#draw').textContent = g.draw_offer === seat ? 'Draw offered' : 'Offer a draw';
    $('#takeback').disabled = busy || g.takeback_request === seat || g.ply === 0;
    $('#takeback').textContent = g.takeback_request === seat ? 'Takeback asked' : 'Ask to take back';
    $('#abort').hidden = g.ply >= 2;
  }
  if (!playing) resignConfirm(false);
  // An offer from the opponent, waiting for my answer.
  const offer = $('#offer');
  const opp = seat && other(seat);
  const draw = playing && g.draw_offer === opp, back = playing && g.takeback_request === opp;
  offer.hidden = !draw && !back;
  offer.dataset.kind = draw ? 'draw' : 'takeback';
  if (draw || back) $('span', offer).textContent = `${colorName(opp)} ${draw ? 'offers a draw' : 'asks to take back their last move'}.`;
  // Waiting: the creator may cancel (and send the link); others may join.
  const waiting = g.state === 'waiting';
  $('#waiting').hidden = !waiting || !seat;
  const invite = waiting && seat ? localStorage.getItem('invite:' + id) : null;
  $('#invite-box').hidden = !invite;
  if (invite) $('#invite-link').value = invite;
  const canJoin = waiting && !seat && (g.kind !== 'link' || params.has('invite'));
  $('#join').hidden = !canJoin;
  $('#join-button').textContent = g.kind === 'named' ? 'Accept the challenge' : 'Join the game';
}

function renderMoves() {
  const ol = $('#moves');
  const first = g.ply % 2 === 0 ? g.to_move : other(g.to_move);
  const items = [];
  const replay = positions && shown >= 0;
  let li = null;
  g.moves.forEach((m, k) => {
    const c = k % 2 === 0 ? first : other(first);
    if (!li || c === first) {
      li = el('li', {}, el('span', { class: 'n', text: `${items.length + 1}.` }));
      if (c !== first) li.append(el('span', { class: 'mv' }));
      items.push(li);
    }
    const label = `${colorName(c)}: ${m}`;
    const cls = `mv m${c}${(replay ? k + 1 === shown : k + 1 === g.ply) ? ' cur' : ''}`;
    li.append(replay ? el('button', { type: 'button', class: cls, 'data-ply': k + 1, 'aria-label': label, text: m }) : el('span', { class: cls, title: label, text: m }));
  });
  ol.replaceChildren(...items);
  if (!items.length) ol.replaceChildren(el('li', { class: 'muted', text: 'No moves yet.' }));
  const cur = $('.cur', ol);
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

// The clocks: live clocks count down from the snapshot's times; a
// correspondence clock shows the time left for the move. Before a live
// player's first move their clock stands and the time left for that
// move counts down beside it (the game is aborted when it runs out).
function tick() {
  if (!g) return;
  const c = g.clock;
  for (const s of ['x', 'o']) {
    const box = $(`.player[data-color="${s}"] .clock`);
    let text = '';
    let ms = Infinity;
    const runs = c.running === s && active();
    // A boolean: classList.toggle(name, undefined) flips the class.
    const first = Boolean(c.first_move_deadline) && g.to_move === s && active();
    if (first) {
      ms = c.first_move_deadline - Date.now() - skew;
      text = `${duration(c[s + '_ms'])} · first move: ${duration(ms)}`;
    } else if (c.spec.startsWith('live:')) {
      ms = c[s + '_ms'] - (runs ? Date.now() + skew - c.turn_start : 0);
      text = duration(ms);
    } else if (c.paused && active()) {
      text = pausedClock(c, s);
    } else if (c.spec.startsWith('days:') && runs) {
      ms = c.deadline - Date.now() - skew;
      text = duration(ms) + ' left';
    }
    if (box.textContent !== text) box.textContent = text;
    box.classList.toggle('run', runs || first);
    box.classList.toggle('days', c.spec.startsWith('days:'));
    box.classList.toggle('low', (runs || first) && ms < 20000);
  }
}
setInterval(tick, 200);

// notice shows a sentence under the board; offline marks the one saying
// the server cannot be reached, which goes once the server answers again.
let offlineNotice = false;
function notice(text, offline = false) {
  $('#notice').textContent = text;
  offlineNotice = offline;
}
function reachable() {
  if (offlineNotice) notice('');
}

async function act(path, body) {
  if (busy) return null;
  busy = true;
  notice('');
  try {
    const { data } = await api('POST', `/api/games/${id}/${path}`, body);
    apply(data);
    return data;
  } catch (e) {
    notice(e.message, e.code === 'offline');
    if (e.status === 409) refresh();
    return null;
  } finally {
    busy = false;
    if (g) renderControls();
  }
}

async function play(move) {
  pending = '';
  const v = await act('moves', { move, ply: g.ply });
  if (v) nextGame(id);
}

// choose is a click, a tap or Enter on point i.
function choose(i) {
  if (!g || shown >= 0) return;
  const v = boardView();
  if (v.forbidden.has(i)) {
    notice(`${geo.name(i)} is forbidden: ${v.forbidden.get(i)}.`);
    return;
  }
  if (!myTurn()) return;
  let move = '';
  if (slides) {
    if (v.pieces.has(i) && !(picked >= 0 && v.targets.has(i))) {
      picked = picked === i ? -1 : i;
      pending = '';
      renderBoard();
      renderStatus();
      return;
    }
    if (picked >= 0 && v.targets.has(i)) move = `${picked + 1}-${i + 1}`;
  } else if (declaring) {
    if (!v.targets.has(i)) {
      notice(`${geo.name(i)} cannot be declared safe now.`);
      return;
    }
    declaring = false;
    play('*' + geo.name(i));
    return;
  } else if (v.targets.has(i)) {
    move = geo.name(i);
  }
  if (!move && slides) {
    notice(picked >= 0 ? `The piece on ${picked + 1} cannot go to ${i + 1}.` : 'Pick one of your pieces first.');
    return;
  }
  if (!move) {
    // Not a legal point: the server answers with the rules' reason
    // ("illegal move 4: the point is occupied") and plays nothing.
    play(geo.name(i));
    return;
  }
  if ((confirmMoves() || loses(move)) && pending !== move) {
    pending = move;
    render();
    return;
  }
  play(move);
}

boardHost.addEventListener('pointerdown', (e) => {
  const p = e.target.closest('[data-i]');
  down = p ? +p.dataset.i : -1;
});
boardHost.addEventListener('pointerup', (e) => {
  const p = e.target.closest('[data-i]');
  if (p && +p.dataset.i === down) choose(down);
  down = -1;
});
boardHost.addEventListener('focus', () => {
  if (cursor < 0 && g && shown < 0 && boardHost.matches(':focus-visible')) {
    const t = boardView().targets;
    cursor = t && t.size ? [...t][0] : Math.floor(geo.n / 2);
    renderBoard();
  }
});

function showTyped() {
  $('#typed').textContent = typed ? `Typed: ${typed} — Enter plays it, Escape clears it.` : '';
}

document.addEventListener('keydown', (e) => {
  if (!g || e.ctrlKey || e.metaKey || e.altKey || e.target.closest('input, select, textarea')) return;
  if (shown >= 0) {
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: positions.positions.length - 1 }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      showPly(to);
    }
    return;
  }
  if (!myTurn()) return;
  const k = e.key;
  if (k.length === 1 && /[0-9a-zA-Z\-* ]/.test(k) && !(k === ' ' && !typed)) {
    typed = (typed + k).slice(0, 20);
    e.preventDefault();
  } else if (k === 'Backspace' && typed) {
    typed = typed.slice(0, -1);
    e.preventDefault();
  } else if (k === 'Escape') {
    typed = '';
    pending = '';
    picked = -1;
    render();
  } else if (k === 'Enter' && typed) {
    e.preventDefault();
    const m = typed.trim().replace(/\s+/, '-');
    typed = '';
    if ((confirmMoves() || loses(m)) && pending !== m) {
      pending = m;
      render();
    } else play(m);
  } else if (k === 'Enter' && pending) {
    e.preventDefault();
    play(pending);
  } else if ((k === 'Enter' || k === ' ') && e.target === boardHost && cursor >= 0) {
    e.preventDefault();
    choose(cursor);
  } else if (k.startsWith('Arrow') && (e.target === boardHost || e.target === document.body)) {
    e.preventDefault();
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[k];
    cursor = cursor < 0 ? Math.floor(geo.n / 2) : geo.step(cursor, d[0], d[1]);
    if (e.target !== boardHost) boardHost.focus();
    renderBoard();
  }
  showTyped();
});

// The buttons.
$('#pass').addEventListener('click', () => play('pass'));
$('#declare').addEventListener('click', () => {
  declaring = !declaring;
  pending = '';
  render();
});
$('#draw').addEventListener('click', () => act('draw', {}));
$('#takeback').addEventListener('click', () => act('takeback', {}));
$('#abort').addEventListener('click', () => act('abort', {}));
function resignConfirm(on) {
  $('#resign').hidden = on;
  $('#resign-confirm').hidden = !on;
  if (on) $('#resign-no').focus();
}
$('#resign').addEventListener('click', () => resignConfirm(true));
$('#resign-no').addEventListener('click', () => resignConfirm(false));
$('#resign-yes').addEventListener('click', async () => {
  resignConfirm(false);
  await act('resign', { ply: g.ply });
});
$('#offer').addEventListener('click', (e) => {
  const b = e.target.closest('button');
  if (b) act($('#offer').dataset.kind, { accept: b.dataset.act === 'accept' });
});
$('#join-button').addEventListener('click', async () => {
  const body = params.has('invite') ? { invite: params.get('invite') } : {};
  const v = await act('join', body);
  if (!v) return;
  history.replaceState(null, '', location.pathname);
  params.delete('invite');
  try {
    const { data } = await api('GET', '/api/me');
    name = data.name;
    document.body.dataset.me = name;
  } catch { /* stays a spectator */ }
  g = null;
  apply(v);
});
$('#cancel-game').addEventListener('click', () => act('decline'));
$('#copy-link').addEventListener('click', () => copyInput($('#invite-link'), $('#copy-link')));

// The replay of a finished game: every position, stepped through.
async function loadReplay() {
  try {
    const { data } = await api('GET', `/api/games/${id}/positions`);
    positions = data;
    shown = data.positions.length - 1;
    $('#replay').hidden = false;
    $('#replay-help').hidden = false;
    showPly(shown);
    loadAnalysis(0);
  } catch (e) {
    notice(e.message);
  }
}

function showPly(k) {
  if (!positions) return;
  shown = Math.max(0, Math.min(positions.positions.length - 1, k));
  const n = positions.positions.length - 1;
  $('#replay-at').textContent = shown === 0 ? `Start (${n} moves)` : `Move ${shown} of ${n}: ${g.moves[shown - 1]}`;
  for (const b of document.querySelectorAll('#replay button')) {
    const s = b.dataset.step;
    b.disabled = s === 'first' || s === 'prev' ? shown === 0 : shown === n;
  }
  $('#replay-analyse').href = `/analysis?game=${id}&at=${shown}`;
  renderBoard();
  renderMoves();
  for (const tr of document.querySelectorAll('#analysis tr[data-ply]')) tr.classList.toggle('cur', +tr.dataset.ply === shown);
}

$('#replay').addEventListener('click', (e) => {
  const b = e.target.closest('button');
  if (!b || !positions) return; // the positions not loaded (yet)
  const n = positions.positions.length - 1;
  showPly({ first: 0, prev: shown - 1, next: shown + 1, last: n }[b.dataset.step]);
});
$('#moves').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-ply]');
  if (b) showPly(+b.dataset.ply);
});

// The analysis: asked for once the game is over, and again while the
// server computes it (202).
async function loadAnalysis(tries) {
  const sec = $('#analysis'), body = $('#analysis-body');
  sec.hidden = false;
  let r;
  try {
    r = await api('GET', `/api/games/${id}/analysis`);
  } catch (e) {
    body.replaceChildren(el('p', { class: 'muted', text: e.message }));
    if (e.status === 503 && tries < 10) setTimeout(() => loadAnalysis(tries + 1), 20000);
    return;
  }
  if (r.status === 202) {
    body.replaceChildren(el('p', { class: 'muted', text: 'The analysis is being computed…' }));
    if (tries < 120) setTimeout(() => loadAnalysis(tries + 1), 2000);
    else body.replaceChildren(el('p', { class: 'muted', text: 'The analysis is taking long: reload the page later.' }));
    return;
  }
  const a = r.data;
  const out = [];
  if (a.error) out.push(el('p', { class: 'error', text: a.error.charAt(0).toUpperCase() + a.error.slice(1) + '.' }));
  if (a.moves.length) {
    const sign = (x) => (x > 0 ? '+' + x : x < 0 ? '−' + -x : '0');
    const rows = a.moves.map((m) => el('tr', { 'data-ply': m.ply, class: m.changed_outcome ? 'bad' : '' },
      el('td', {}, el('button', { type: 'button', class: 'link', 'data-ply': m.ply, text: `${m.ply}. ${m.move}` })),
      el('td', { class: 'num', text: `${sign(m.value_before)} → ${sign(m.value_after)}` }),
      el('td', { text: m.changed_outcome ? `changed the outcome; best ${m.best.join(', ')}` : m.best.includes(m.move) ? 'best' : `best ${m.best.join(', ')}` })));
    out.push(el('table', { class: 'analysis' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'move' }), el('th', { scope: 'col', text: 'value' }), el('th', { scope: 'col', text: 'note' }))),
      el('tbody', {}, ...rows)));
  }
  body.replaceChildren(...out);
  showPly(shown);
}
$('#analysis').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-ply]');
  if (b) showPly(+b.dataset.ply);
});

// Fetching and the stream: the first state by GET (its Date header gives
// the server's time), then every change from the event stream, which the
// browser reopens by itself with Last-Event-ID; when the page comes back
// (online again, shown again) it fetches the state once more.
async function refresh() {
  try {
    const { data, date } = await api('GET', `/api/games/${id}`);
    if (date) {
      const d = new Date(date).getTime() - Date.now();
      skew = Math.abs(d) > 2000 ? d : 0;
    }
    reachable();
    apply(data);
  } catch (e) {
    notice(e.message, e.code === 'offline');
  }
  if (g && (!terminal(g.state) || keepListening(g, seat)) && (!stream || stream.readyState === EventSource.CLOSED)) listen();
}

function listen() {
  stream = new EventSource(`/api/games/${id}/events`);
  stream.addEventListener('message', (e) => apply(JSON.parse(e.data)));
  stream.addEventListener('open', () => {
    root.classList.remove('offline');
    reachable();
  });
  stream.addEventListener('error', () => {
    root.classList.add('offline');
    if (stream && stream.readyState === EventSource.CLOSED) {
      stream = null;
      setTimeout(refresh, 3000);
    }
  });
}

window.addEventListener('online', refresh);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') refresh();
});
initAround(id);
refresh();
nextGame(id);
