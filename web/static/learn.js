// The lessons page (/learn): each lesson a small board with one goal. The
// page sends every try so far (POST /api/lessons/{id}/try); the server
// plays them with the rules engine, the computer answers, and the goal is
// checked there.

import { api, $ } from './api.js';
import { Geometry, parseDiagram, draw } from './board.js';

const host = $('#lesson-board');
let lessons = [];
let lesson = null;
let geo = null;
let tries = [];
let legal = [];
let selected = -1;
let done = false;
let busy = false;
let hints = 0;
let current = ''; // the board shown

function say(id, text, cls) {
  const e = $(id);
  e.textContent = text;
  if (cls !== undefined) e.className = cls;
}

// show draws the lesson's board; every empty point is a target while the
// lesson goes on (a lesson may ask for a move the rules refuse).
function show(position) {
  current = position;
  const d = parseDiagram(position);
  const targets = new Set(), pieces = new Set();
  if (!done) {
    if (geo.shape === 'slide') {
      for (const m of legal) {
        const s = geo.slide(m);
        if (s && selected < 0) pieces.add(s[0]);
        else if (s && s[0] === selected) targets.add(s[1]);
      }
    } else d.cells.forEach((c, i) => { if (c === '-') targets.add(i); });
  }
  draw(host, geo, { cells: d.cells, last: d.last, captured: d.captured, targets, pieces, selected, ghost: done ? '' : lesson.to_move, cursor: -1 });
  $('#lesson-pass').hidden = done || !legal.includes('pass');
}

function open(id) {
  lesson = lessons.find((l) => l.id === id) || lessons[0];
  geo = new Geometry(lesson.board.shape, lesson.board.width, lesson.board.height);
  tries = [];
  legal = lesson.legal;
  selected = -1;
  done = false;
  hints = 0;
  say('#lesson-h', lesson.title);
  say('#lesson-text', lesson.text);
  say('#lesson-goal', lesson.goal);
  say('#lesson-say', '', 'pz-verdict');
  say('#lesson-hints', '');
  say('#lesson-refs', `The rules: ${lesson.refs.join(', ')} (docs/rules.md).`);
  $('#lesson-next').hidden = true;
  $('#lesson-hint').hidden = lesson.hints.length === 0;
  for (const li of document.querySelectorAll('#learn-list li')) li.classList.toggle('cur', li.id === `l-${lesson.id}`);
  show(lesson.position);
}

async function play(m) {
  if (busy || done) return;
  busy = true;
  selected = -1;
  try {
    const r = await api('POST', `/api/lessons/${lesson.id}/try`, { tries: [...tries, m] });
    tries.push(m);
    const p = r.data;
    const t = p.tries[p.tries.length - 1];
    done = p.done;
    legal = p.legal || [];
    show(p.position);
    let words = p.message;
    if (t.refused) words = `${t.move} is refused: ${t.why}. ` + words;
    else if (t.reply) words = `You played ${t.move}${t.captured ? `, taking ${t.captured}` : ''}; the computer answered ${t.reply}. ` + words;
    if (p.result) words += ` ${p.result}`;
    if (p.done && !p.success && p.solution) words += ` A solution: ${p.solution.join(', ')}.`;
    say('#lesson-say', words, p.success ? 'pz-verdict good' : p.done ? 'pz-verdict bad' : 'pz-verdict');
    if (p.success) {
      localStorage.setItem('alak-lesson-' + lesson.id, 'done');
      markDone();
      $('#lesson-next').hidden = lessons.indexOf(lesson) === lessons.length - 1;
    }
  } catch (e) {
    say('#lesson-say', e.message, 'pz-verdict bad');
  } finally {
    busy = false;
  }
}

function markDone() {
  for (const l of lessons) {
    const li = $(`#l-${l.id}`);
    if (li && localStorage.getItem('alak-lesson-' + l.id) === 'done' && !li.querySelector('.done')) {
      li.append(' ', Object.assign(document.createElement('span'), { className: 'done', textContent: '✓', title: 'done' }));
    }
  }
}

host.addEventListener('click', (e) => {
  const g = e.target.closest('[data-i]');
  if (!g || done || !lesson) return;
  const i = +g.dataset.i;
  if (geo.shape === 'slide') {
    if (selected < 0 || i === selected) {
      selected = selected === i ? -1 : i;
      show(current);
      return;
    }
    play(`${selected + 1}-${i + 1}`);
    return;
  }
  play(geo.name(i));
});

$('#lesson-type').addEventListener('submit', (e) => {
  e.preventDefault();
  const m = $('#lesson-move').value.trim();
  if (m) play(m);
  $('#lesson-move').value = '';
});
$('#lesson-pass').addEventListener('click', () => play('pass'));
$('#lesson-again').addEventListener('click', () => open(lesson.id));
$('#lesson-hint').addEventListener('click', () => {
  if (hints < lesson.hints.length) hints++;
  say('#lesson-hints', lesson.hints.slice(0, hints).join(' '));
});
$('#lesson-next').addEventListener('click', () => {
  const n = lessons[lessons.indexOf(lesson) + 1];
  if (n) location.hash = n.id;
});
window.addEventListener('hashchange', () => open(location.hash.slice(1)));

api('GET', '/api/lessons').then((r) => {
  lessons = r.data;
  markDone();
  open(location.hash.slice(1));
}, (e) => say('#lesson-say', e.message, 'pz-verdict bad'));
