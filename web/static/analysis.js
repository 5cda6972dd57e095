// The analysis board (/analysis): any rules and size, a start
// set up by hand or read from a finished game, an SGF or a move list;
// moves played freely and kept as a tree of variations; each position's
// legal moves with their exact values (GET /api/analysis) and the moves
// people played from it (GET /api/explorer). The kernel plays every move
// on the server (GET /api/board); SGF is read and written there too
// (POST /api/board/sgf, POST /api/board/sgf/export).

import { api, el, $, colorName, other, nextGame } from './api.js';
import { Geometry, draw } from './board.js';

const root = $('#anb');

// The board's start and its tree. A node is {move, comment, children,
// parent}; the root has no move. cur is the node shown.
let start = { rules: 'alak size=11', position: '', toMove: '' };
let tree = newRoot();
let cur = tree;
let geo = null;
let shown = null; // GET /api/board's answer for cur
let selected = -1; // a slide's piece picked up
let setup = null; // the cells being set up, or null
const boards = new Map(); // path → GET /api/board's answer
const values = new Map(); // path → GET /api/analysis's answer
const explored = new Map(); // path → GET /api/explorer's answer

function newRoot() { return { move: null, comment: '', children: [], parent: null }; }

const pathOf = (n) => {
  const out = [];
  for (; n && n.parent; n = n.parent) out.push(n.move);
  return out.reverse();
};
const keyOf = (path) => start.rules + '|' + start.position + '|' + start.toMove + '|' + path.join(',');
const key = (n) => keyOf(pathOf(n));

function startQuery() {
  const q = new URLSearchParams({ rules: start.rules });
  if (start.position) {
    q.set('position', start.position);
    q.set('to_move', start.toMove);
  }
  return q;
}

function say(text) { $('#anb-error').textContent = text || ''; }

// boardAt asks the server for the position after node n's line.
async function boardAt(n) {
  const k = key(n);
  if (boards.has(k)) return boards.get(k);
  const q = startQuery();
  q.set('moves', pathOf(n).join(','));
  const { data } = await api('GET', '/api/board?' + q);
  boards.set(k, data);
  return data;
}

// show makes n the node shown: the board, the tree, the values, the link.
async function show(n) {
  cur = n;
  selected = -1;
  let b;
  try {
    b = await boardAt(n);
  } catch (e) {
    say(e.message);
    return;
  }
  if (cur !== n) return;
  shown = b;
  geo = new Geometry(b.shape, b.width, b.height);
  say('');
  render();
  renderTree();
  link();
  analyse(n);
  explore(n);
}

function moveName(m) { return String(m); }

// render draws the board, with each legal move's value on its point.
function render() {
  const host = $('#anb-board');
  if (setup) {
    draw(host, geo, { cells: setup.cells, last: -1, from: -1, captured: new Set(), forbidden: new Map(), cursor: -1, targets: new Set(geo.n ? [...Array(geo.n).keys()] : []) });
    $('#anb-status').textContent = `Setting up: ${colorName(setup.toMove)} to move.`;
    return;
  }
  const p = shown.position;
  const v = { cells: p.board.replace(/\|/g, '').split(''), last: -1, from: -1, captured: new Set(), forbidden: new Map(), cursor: -1 };
  const lm = p.last_move;
  if (lm != null && !String(lm).includes('-') && lm !== 'pass') v.last = geo.index(lm);
  for (const c of p.captured || []) v.captured.add(geo.index(c));
  for (const f of p.forbidden || []) v.forbidden.set(geo.index(f), 'forbidden to the player to move');
  const legal = (p.legal || []).map(moveName);
  if (geo.shape === 'slide') {
    v.pieces = new Set(legal.filter((m) => m.includes('-')).map((m) => geo.slide(m)[0]));
    v.selected = selected;
    if (selected >= 0) v.targets = new Set(legal.map((m) => geo.slide(m)).filter((s) => s && s[0] === selected).map((s) => s[1]));
  } else {
    v.targets = new Set(legal.filter((m) => m !== 'pass').map((m) => geo.index(m)));
  }
  v.ghost = p.to_move;
  draw($('#anb-board'), geo, v);
  mark();
  $('#anb-pass').hidden = !legal.includes('pass');
  const ply = pathOf(cur).length;
  $('#anb-status').textContent = p.over ? `${p.result_words || 'The game is over'}.` : `${colorName(p.to_move)} (${p.to_move}) to move${ply ? ` after ${ply} move${ply === 1 ? '' : 's'}` : ''}.`;
}

// outcomeFor says what a value (Black's margin) is for the player c.
function outcomeFor(value, c) {
  if (value === 0) return 'draw';
  return (value > 0) === (c === 'x') ? 'win' : 'loss';
}

const margin = (v) => (v > 0 ? '+' + v : String(v));

// mark writes the values of the analysis on the board's points: W, D or
// L for the player to move, the best moves ringed.
function mark() {
  const a = values.get(key(cur));
  if (!a || !a.data || !shown || geo.shape === 'slide') return;
  const toMove = shown.position.to_move;
  const best = new Set((a.data.best || []).map(moveName));
  for (const mv of a.data.moves || []) {
    const i = geo.index(mv.move);
    const g = $(`#anb-board g[data-i="${i}"]`);
    if (!g || mv.move === 'pass') continue;
    const [x, y] = geo.xy(i);
    const o = outcomeFor(mv.value, toMove);
    g.classList.add('val', 'v-' + o);
    if (best.has(moveName(mv.move))) {
      // The point's square tinted (its target is the board's whole
      // height: board.js).
      g.classList.add('best');
      g.append(el('svg:rect', { x: x - 20, y: y - 20, width: 40, height: 40, rx: 6, class: 'bestbg' }));
    }
    g.setAttribute('data-value', String(mv.value));
    g.append(el('svg:circle', { cx: x, cy: y, r: 11, class: 'vbg' }), el('svg:text', { x, y: y + 5, class: 'vlabel', text: o === 'win' ? 'W' : o === 'draw' ? 'D' : 'L' }));
    g.append(el('svg:title', { text: `${mv.move}: ${valueWords(mv.value, mv.depth)}` }));
  }
}

function valueWords(value, depth) {
  const who = value > 0 ? 'Black wins by ' + value : value < 0 ? 'White wins by ' + -value : 'a draw';
  return who + (depth != null ? `, ${depth} move${depth === 1 ? '' : 's'} to the end` : '');
}

// analyse asks for the values of node n's position; 202: asked again.
async function analyse(n, tries = 0) {
  const k = key(n);
  if (!values.has(k)) {
    $('#anb-value').textContent = 'Solving…';
    $('#anb-pv').textContent = '';
    const q = analysisQuery(n);
    let r;
    try {
      r = await api('GET', '/api/analysis?' + q);
    } catch (e) {
      if (cur === n) {
        $('#anb-value').textContent = e.message;
        renderMoves();
      }
      return;
    }
    if (r.status === 202) {
      // Asked again even when another position is shown by then: the
      // values are kept for the export's comments.
      if (tries < 60) setTimeout(() => analyse(n, tries + 1), 1000);
      if (cur === n) $('#anb-value').textContent = 'The position is being solved…';
      return;
    }
    values.set(k, r);
  }
  if (cur !== n) return;
  renderValue();
  render();
  renderMoves();
}

// analysisQuery names node n's position as GET /api/analysis reads it:
// the rules, the set-up start if any, and the moves from the start.
function analysisQuery(n) {
  const q = startQuery();
  q.set('moves', pathOf(n).join(','));
  return q;
}

function renderValue() {
  const a = values.get(key(cur));
  const box = $('#anb-value'), pv = $('#anb-pv');
  if (!a) return;
  const d = a.data;
  if (shown.position.over) {
    box.textContent = `The game is over: ${shown.position.result_words || ''}.`;
    pv.textContent = '';
    return;
  }
  if (!d.complete) {
    const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1) + (t.endsWith('.') ? '' : '.');
    const parts = [d.message ? cap(d.message) : `Not solved within ${d.budget || d.nodes} positions.`];
    if (d.bound && d.bound.at_least != null) parts.push(`What is proved: Black's margin is at least ${d.bound.at_least}.`);
    else if (d.bound && d.bound.at_most != null) parts.push(`What is proved: Black's margin is at most ${d.bound.at_most}.`);
    else parts.push('Nothing is proved of its value.');
    box.textContent = parts.join(' ');
    box.dataset.complete = 'false';
    pv.textContent = '';
    return;
  }
  const toMove = shown.position.to_move;
  box.dataset.complete = 'true';
  box.dataset.value = String(d.value);
  const words = valueWords(d.value, d.depth);
  box.textContent = `${words.charAt(0).toUpperCase() + words.slice(1)} under perfect play: a ${outcomeFor(d.value, toMove)} for ${colorName(toMove)}, to move. Best: ${(d.best || []).join(', ') || 'none'} (${d.source === 'table' ? 'from the tables' : 'by search'}).`;
  // The principal variation, its first 24 moves (a drawn line can be long).
  const line = (d.pv || []).slice(0, 24).map((m, i) => `${i % 2 === 0 ? colorName(toMove) : colorName(other(toMove))} ${m}`);
  pv.textContent = line.length ? `Principal variation: ${line.join(', ')}${d.pv.length > line.length ? ` … (${d.pv.length} moves)` : ''}.` : '';
}

// explore asks for the moves played from node n's position in finished
// games (from the rules' start only: a set-up position has no games).
async function explore(n) {
  const k = key(n);
  if (!start.position && !explored.has(k)) {
    const q = new URLSearchParams({ rules: start.rules, moves: pathOf(n).join(',') });
    try {
      const { data } = await api('GET', '/api/explorer?' + q);
      explored.set(k, data);
    } catch (e) {
      explored.set(k, { error: e.message });
    }
  }
  if (cur === n) renderMoves();
}

// renderMoves fills the table under the board: each legal move's value
// beside what the archive's players did.
function renderMoves() {
  const tb = $('#anb-moves tbody');
  if (!shown) return;
  const a = values.get(key(cur));
  const ex = explored.get(key(cur));
  const toMove = shown.position.to_move;
  const val = new Map(((a && a.data && a.data.moves) || []).map((m) => [moveName(m.move), m]));
  const games = new Map(((ex && ex.moves) || []).map((m) => [moveName(m.move), m]));
  const best = new Set(((a && a.data && a.data.best) || []).map(moveName));
  const legal = (shown.position.legal || []).map(moveName);
  const rows = legal.map((m) => {
    const v = val.get(m), g = games.get(m);
    const o = v ? outcomeFor(v.value, toMove) : '';
    return el('tr', { 'data-move': m, class: [best.has(m) ? 'best' : '', o ? 'v-' + o : ''].join(' ').trim() || null },
      el('th', { scope: 'row' }, el('button', { type: 'button', class: 'link', 'data-play': m, text: m })),
      el('td', { class: 'outcome', text: v ? o : 'not solved' }),
      el('td', { class: 'value', text: v ? margin(v.value) : '' }),
      el('td', { class: 'depth', text: v && v.depth != null ? String(v.depth) : '' }),
      el('td', { class: 'games', text: g ? String(g.games) : '0' }),
      el('td', { class: 'x-wins', text: g ? String(g.x_wins) : '' }),
      el('td', { class: 'draws', text: g ? String(g.draws) : '' }),
      el('td', { class: 'o-wins', text: g ? String(g.o_wins) : '' }));
  });
  tb.replaceChildren(...rows);
  $('#anb-explorer-note').textContent = start.position ? 'A set-up position has no games in the archive.' : ex && ex.error ? ex.error : '';
}

// renderTree lists the moves: the main line, and where a move has other
// answers, each of them (with its own line) in a list after the main one.
function renderTree() {
  const after = (p, ply) => {
    const out = [];
    while (p.children.length) {
      const [main, ...vars] = p.children;
      out.push(moveButton(main, ply));
      if (vars.length) out.push(el('ol', { class: 'anb-vars' }, ...vars.map((v) => el('li', {}, moveButton(v, ply), ...after(v, ply + 1)))));
      p = main;
      ply++;
    }
    return out;
  };
  const items = tree.children.length ? after(tree, 1) : [el('span', { class: 'muted', text: 'No moves yet: play one on the board.' })];
  $('#anb-tree').replaceChildren(...items);
  $('#anb-promote').disabled = !cur.parent || !inVariation(cur);
  $('#anb-delete').disabled = !cur.parent;
}

function moveButton(n, ply) {
  const c = colorOf(ply);
  return el('button', { type: 'button', class: 'mv' + (n === cur ? ' cur' : ''), 'data-path': pathOf(n).join(','), 'aria-current': n === cur ? 'true' : null, title: n.comment || null },
    el('span', { class: 'num', text: `${ply}${c === 'x' ? '.' : '…'}` }), ' ' + n.move);
}

// colorOf is the colour of the ply-th move (from 1).
function colorOf(ply) {
  const first = start.toMove || (boards.get(key(tree)) ? boards.get(key(tree)).position.to_move : 'x');
  return ply % 2 === 1 ? first : other(first);
}

const inVariation = (n) => {
  for (; n.parent; n = n.parent) if (n.parent.children[0] !== n) return true;
  return false;
};

// nodeAt finds the node of a path of moves, or null.
function nodeAt(path) {
  let n = tree;
  for (const m of path) {
    n = n.children.find((c) => c.move === m);
    if (!n) return null;
  }
  return n;
}

// play plays move m after cur: the variation that has it, or a new one.
async function play(m) {
  let n = cur.children.find((c) => c.move === m);
  if (!n) {
    n = { move: m, comment: '', children: [], parent: cur };
    try {
      const b = await boardAt(n);
      n.move = b.moves[b.moves.length - 1];
    } catch (e) {
      say(e.message);
      return;
    }
    const same = cur.children.find((c) => c.move === n.move);
    if (same) n = same;
    else cur.children.push(n);
  }
  show(n);
}

function promote() {
  let n = cur;
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  if (!n.parent) return;
  const sib = n.parent.children;
  sib.splice(sib.indexOf(n), 1);
  sib.unshift(n);
  renderTree();
  link();
}

function remove() {
  if (!cur.parent) return;
  const p = cur.parent;
  p.children.splice(p.children.indexOf(cur), 1);
  show(p);
}

function step(how) {
  if (how === 'first') return show(tree);
  if (how === 'prev') return cur.parent && show(cur.parent);
  if (how === 'next') return cur.children[0] && show(cur.children[0]);
  if (how === 'last') {
    let n = cur;
    while (n.children[0]) n = n.children[0];
    return show(n);
  }
  if (how === 'up' || how === 'down') {
    if (!cur.parent) return;
    const sib = cur.parent.children, i = sib.indexOf(cur) + (how === 'up' ? -1 : 1);
    if (i >= 0 && i < sib.length) show(sib[i]);
  }
}

// link writes the shareable address: the rules, the start, the line
// shown (moves, as GET /api/analysis reads it) and, when the board holds
// more than that line, the whole tree (treeText) within the bound of
// #anb-link's data-max; past it the link holds the line alone and says so.
function link() {
  const q = startQuery();
  const line = pathOf(cur);
  if (line.length) q.set('moves', line.join(','));
  let note = '';
  if (!onlyLine()) {
    const t = treeText(), max = linkMax();
    if (t.length <= max) q.set('tree', t);
    else note = `The variations are too many for a link (${t.length} characters, at most ${max}): this link holds only the line shown. Export an SGF to share them all.`;
  }
  const url = `${location.origin}/analysis?${q}`;
  $('#anb-link').value = url;
  $('#anb-link-note').textContent = note;
  history.replaceState(null, '', `/analysis?${q}`);
}

const linkMax = () => +$('#anb-link').dataset.max || 2000;

// onlyLine reports whether the tree is the line shown and nothing more.
function onlyLine() {
  for (let n = cur; n.parent; n = n.parent) if (n.parent.children.length !== 1) return false;
  return cur.children.length === 0;
}

// treeText writes the tree for a link, in characters a URL keeps as they
// are: each line from the start to the end of a variation, in the move
// list's order, the lines separated by "_" and the moves of a line by
// "."; a line after the first begins with the number of moves it shares
// with the line before it. "2.6_1.7": 2 6, and 7 in answer to 2.
function treeText() {
  const lines = [], path = [];
  let prev = null;
  const walk = (n) => {
    if (n.children.length === 0) {
      if (!prev) lines.push(path.join('.'));
      else {
        let d = 0;
        while (d < prev.length && prev[d] === path[d]) d++;
        lines.push([d, ...path.slice(d)].join('.'));
      }
      prev = path.slice();
    }
    for (const c of n.children) {
      path.push(c.move);
      walk(c);
      path.pop();
    }
  };
  if (tree.children.length) walk(tree);
  return lines.join('_');
}

// treeLines reads treeText's form: every line's moves from the start. It
// throws an Error saying what is wrong.
function treeLines(text) {
  const out = [];
  let prev = [];
  text.split('_').forEach((part, i) => {
    const words = part.split('.');
    let d = 0;
    if (i > 0) {
      d = /^\d+$/.test(words[0]) ? +words.shift() : -1;
      if (d < 0 || d >= prev.length) throw new Error(`Variation ${i + 1} of the link does not begin with where it branches (a number of moves from 0 to ${prev.length - 1})`);
    }
    if (!words.length || words.some((w) => !/^[A-Za-z0-9*-]+$/.test(w))) throw new Error(`Variation ${i + 1} of the link is not a list of moves separated by dots`);
    prev = [...prev.slice(0, d), ...words];
    out.push(prev);
  });
  return out;
}

// openLink opens a shared link: its rules and start, the tree of its
// tree parameter (every line checked by the server; a line it refuses is
// left out, and said), the line of moves shown. Without a tree, or with
// one too long or not readable (said), the moves are the main line.
async function openLink(rulesText, position, toMove, moves, text) {
  let lines = null, note = '';
  if (text && text.length > linkMax()) note = `The link's variations are ${text.length} characters, more than the ${linkMax()} a link holds: only its line is shown.`;
  else if (text) {
    try {
      lines = treeLines(text);
    } catch (e) {
      note = `${e.message}: only its line is shown.`;
    }
  }
  if (!lines) {
    await reset(rulesText, position, toMove, moves);
    if (note) say(note);
    return;
  }
  if (!(await reset(rulesText, position, toMove, []))) return;
  // Every line asked of the server, four at a time, each answer in its
  // line's place.
  const answers = new Array(lines.length);
  let next = 0;
  const ask = async () => {
    for (let i; (i = next++) < lines.length;) {
      const q = startQuery();
      q.set('moves', lines[i].join(','));
      answers[i] = await api('GET', '/api/board?' + q).then((r) => r.data, (e) => e);
    }
  };
  await Promise.all([ask(), ask(), ask(), ask()]);
  let refused = null;
  for (const b of answers) {
    if (b instanceof Error) {
      refused = refused || b;
      continue;
    }
    let n = tree;
    for (const m of b.moves) {
      let c = n.children.find((x) => x.move === m);
      if (!c) {
        c = { move: m, comment: '', children: [], parent: n };
        n.children.push(c);
      }
      n = c;
    }
    boards.set(keyOf(b.moves), b);
  }
  let n = nodeAt(moves);
  if (!n) for (n = tree; n.children[0];) n = n.children[0];
  await show(n);
  if (refused) say(`A variation of the link was left out: ${refused.message}`);
}

// reset starts a new board: rules, a start, and a line of moves played
// as the main line.
async function reset(rulesText, position, toMove, moves) {
  start = { rules: rulesText, position: position || '', toMove: position ? toMove : '' };
  tree = newRoot();
  setup = null;
  let b;
  try {
    b = await boardAt(tree);
  } catch (e) {
    say(e.message);
    return false;
  }
  start.rules = b.rules;
  boards.set(key(tree), b);
  syncForm();
  let n = tree;
  if (moves && moves.length) {
    const q = startQuery();
    q.set('moves', moves.join(','));
    try {
      const { data } = await api('GET', '/api/board?' + q);
      for (const m of data.moves) {
        const c = { move: m, comment: '', children: [], parent: n };
        n.children.push(c);
        n = c;
      }
    } catch (e) {
      say(e.message);
    }
  }
  await show(n);
  return true;
}

// syncForm shows the board's rules in the rules form.
function syncForm() {
  const [preset, ...opts] = start.rules.split(' ');
  $('#anb-preset').value = preset;
  const size = opts.find((o) => o.startsWith('size='));
  $('#anb-size').value = size ? size.slice(5) : ($('#anb-preset').selectedOptions[0] || {}).dataset?.size || '';
  $('#anb-options').value = opts.filter((o) => !o.startsWith('size=')).join(' ');
}

// loadTree replaces the board with a tree read from an SGF.
async function loadTree(data) {
  if (!(await reset(data.rules, data.position || '', data.to_move || '', []))) return;
  tree.comment = data.comment || '';
  const add = (parent, nodes) => {
    for (const d of nodes || []) {
      const n = { move: d.move, comment: d.comment || '', children: [], parent };
      parent.children.push(n);
      add(n, d.children);
    }
  };
  add(tree, data.tree);
  let n = tree;
  while (n.children[0]) n = n.children[0];
  await show(n);
}

async function importSGF(text) {
  try {
    const r = await fetch('/api/board/sgf', { method: 'POST', body: text, credentials: 'same-origin' });
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || `The server answered ${r.status}.`);
    await loadTree(data);
  } catch (e) {
    say(e.message);
  }
}

// exportTree writes the tree as the export call takes it, each move's
// value (when known) as its comment.
function exportTree() {
  const nodes = (n) => n.children.map((c) => {
    const a = values.get(key(n));
    const mv = a && a.data && (a.data.moves || []).find((m) => moveName(m.move) === c.move);
    const note = mv ? `${valueWords(mv.value, mv.depth)} (exact)` : '';
    const comment = [c.comment, note].filter((s) => s && !c.comment.includes(note)).join('\n');
    return { move: c.move, comment: comment || undefined, children: nodes(c) };
  });
  const out = { rules: start.rules, tree: nodes(tree) };
  if (tree.comment) out.comment = tree.comment;
  if (start.position) {
    out.position = start.position;
    out.to_move = start.toMove;
  }
  return out;
}

async function exportSGF() {
  try {
    const r = await fetch('/api/board/sgf/export', { method: 'POST', body: JSON.stringify(exportTree()), headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin' });
    if (!r.ok) {
      const d = await r.json();
      throw new Error(d.error || `The server answered ${r.status}.`);
    }
    const text = await r.text();
    root.dataset.sgf = text;
    const a = el('a', { href: URL.createObjectURL(new Blob([text], { type: 'application/x-go-sgf' })), download: 'analysis.sgf' });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    say(e.message);
  }
}

// pasted reads a pasted text: an SGF, or moves separated by spaces or
// commas (move numbers such as "12." are skipped), played from the start.
function pasted(text) {
  const t = text.trim();
  if (t.startsWith('(')) return importSGF(t);
  const moves = t.split(/[\s,]+/).filter((w) => w && !/^\d+\.+$/.test(w));
  return reset(start.rules, start.position, start.toMove, moves);
}

// The set-up: clicks put stones, then the position becomes the start.
function beginSetup() {
  const p = shown.position;
  setup = { cells: p.board.replace(/\|/g, '').split(''), toMove: p.to_move };
  $('#anb-to-move').value = setup.toMove;
  $('#anb-setup-bar').hidden = false;
  $('#anb-setup').setAttribute('aria-pressed', 'true');
  render();
}

function endSetup(apply) {
  const s = setup;
  setup = null;
  $('#anb-setup-bar').hidden = true;
  $('#anb-setup').setAttribute('aria-pressed', 'false');
  if (!apply) return render();
  const rows = [];
  for (let r = 0; r < geo.h; r++) rows.push(s.cells.slice(r * geo.w, (r + 1) * geo.w).join(''));
  let rulesText = start.rules;
  if (!/size=/.test(rulesText)) rulesText += ` size=${geo.shape === 'grid' ? geo.w + 'x' + geo.h : geo.w}`;
  reset(rulesText, rows.join('|'), s.toMove, []);
}

function clickPoint(i) {
  if (setup) {
    const put = document.querySelector('input[name="anb-put"]:checked').value;
    setup.cells[i] = setup.cells[i] === put ? '-' : put;
    render();
    return;
  }
  if (!shown || shown.position.over) return;
  if (geo.shape === 'slide') {
    const legal = (shown.position.legal || []).map(moveName);
    const m = selected >= 0 ? legal.find((x) => { const s = geo.slide(x); return s && s[0] === selected && s[1] === i; }) : null;
    if (m) return play(m);
    selected = legal.some((x) => { const s = geo.slide(x); return s && s[0] === i; }) ? i : -1;
    return render();
  }
  const name = geo.name(i);
  if ((shown.position.legal || []).map(moveName).includes(name)) play(name);
}

$('#anb-board').addEventListener('click', (e) => {
  const p = e.target.closest('[data-i]');
  if (p) clickPoint(+p.dataset.i);
});
$('#anb-tree').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-path]');
  if (!b) return;
  const n = nodeAt(b.dataset.path ? b.dataset.path.split(',') : []);
  if (n) show(n);
});
$('#anb-moves').addEventListener('click', (e) => {
  const b = e.target.closest('button[data-play]');
  if (b) play(b.dataset.play);
});
for (const b of document.querySelectorAll('#anb [data-step]')) b.addEventListener('click', () => step(b.dataset.step));
$('#anb-pass').addEventListener('click', () => play('pass'));
$('#anb-promote').addEventListener('click', promote);
$('#anb-delete').addEventListener('click', remove);
$('#anb-setup').addEventListener('click', () => (setup ? endSetup(false) : beginSetup()));
$('#anb-setup-done').addEventListener('click', () => endSetup(true));
$('#anb-setup-clear').addEventListener('click', () => {
  setup.cells = setup.cells.map(() => '-');
  render();
});
$('#anb-to-move').addEventListener('change', (e) => {
  setup.toMove = e.target.value;
  render();
});
$('#anb-copy').addEventListener('click', async () => {
  $('#anb-link').select();
  try { await navigator.clipboard.writeText($('#anb-link').value); } catch { document.execCommand('copy'); }
  $('#anb-copy').textContent = 'Copied';
});
$('#anb-export').addEventListener('click', exportSGF);
$('#anb-file').addEventListener('change', async (e) => {
  const f = e.target.files[0];
  if (f) importSGF(await f.text());
  e.target.value = '';
});
$('#anb-paste').addEventListener('submit', (e) => {
  e.preventDefault();
  pasted($('#anb-paste-text').value);
});
$('#anb-preset').addEventListener('change', () => {
  $('#anb-size').value = $('#anb-preset').selectedOptions[0].dataset.size;
  $('#anb-options').value = '';
});
$('#anb-rules').addEventListener('submit', (e) => {
  e.preventDefault();
  const size = $('#anb-size').value.trim();
  const text = [$('#anb-preset').value, size ? 'size=' + size : '', $('#anb-options').value.trim()].filter(Boolean).join(' ');
  reset(text, '', '', []);
});
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
  const how = { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'up', ArrowDown: 'down', Home: 'first', End: 'last' }[e.key];
  if (how) {
    e.preventDefault();
    step(how);
  } else if (e.key === 'Delete') {
    e.preventDefault();
    remove();
  }
});

// The start: a finished game (?game=ID, drawn into the page by the
// server), or the address's rules, position and moves.
nextGame();
{
  const d = root.dataset, q = new URLSearchParams(location.search);
  const moves = (d.moves || q.get('moves') || '').split(',').filter(Boolean);
  if (d.rules) {
    // A finished game: its moves as the main line, shown at ?at=N (the
    // replay's move) or at the end.
    reset(d.rules, d.start || '', d.toMove || '', moves).then(() => {
      const at = parseInt(q.get('at'), 10);
      if (at >= 0 && at < moves.length) {
        let n = tree;
        for (let k = 0; k < at && n.children[0]; k++) n = n.children[0];
        show(n);
      }
    });
  }
  else {
    // ?rules=alak&size=9 (the rule lab's links) as well as ?rules=alak%20size=9.
    let rulesText = q.get('rules') || 'alak size=11';
    if (q.get('size') && !/(^|\s)size=/.test(rulesText)) rulesText += ' size=' + q.get('size');
    openLink(rulesText, q.get('position') || '', q.get('to_move') || '', moves, q.get('tree') || '');
  }
}
