// The game page's notifications: a short sound when the
// opponent moves, and the browser's notification when it becomes my move
// while the tab is hidden (the same switch allows api.js's when a game of
// mine starts and a hidden page goes to it). Both are off until the player turns them on
// (the choices are kept in localStorage); the sound is made here with the
// Web Audio API, nothing is fetched; the browser asks for the permission
// to notify only when the player turns notifications on.

import { el, $, colorName, other, nextGame } from './api.js';

const SOUND = 'alak:sound', NOTIFY = 'alak:notify';
const on = (key) => localStorage.getItem(key) === 'on';
let audio = null; // the AudioContext, made at the player's first gesture
let box = null; // the switches, on the game page

// beep plays two short notes, a soft "tick-tock".
function beep() {
  box.dataset.sounds = String(+(box.dataset.sounds || 0) + 1);
  if (!audio) return;
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  const t = audio.currentTime;
  [[660, 0], [880, 0.09]].forEach(([hz, at]) => {
    const o = audio.createOscillator(), v = audio.createGain();
    o.type = 'sine';
    o.frequency.value = hz;
    v.gain.setValueAtTime(0.0001, t + at);
    v.gain.exponentialRampToValueAtTime(0.25, t + at + 0.01);
    v.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.12);
    o.connect(v).connect(audio.destination);
    o.start(t + at);
    o.stop(t + at + 0.13);
  });
}

// unlock makes the AudioContext: browsers let a page sound only after a
// click or a key of the player.
function unlock() {
  if (audio || !on(SOUND)) return;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (AC) audio = new AC();
}

function notifyWords() {
  if (!('Notification' in window)) return 'this browser cannot notify';
  if (Notification.permission === 'denied') return 'blocked in the browser’s settings for this site';
  return '';
}

// switches draws the two checkboxes at the end of the game page's side.
function switches() {
  const sound = el('input', { type: 'checkbox', id: 'sound-on' });
  const notify = el('input', { type: 'checkbox', id: 'notify-on' });
  const why = el('small', { class: 'help', id: 'notify-why' });
  sound.checked = on(SOUND);
  notify.checked = on(NOTIFY) && 'Notification' in window && Notification.permission === 'granted';
  why.textContent = notifyWords();
  notify.disabled = why.textContent !== '' && !notify.checked;
  box = el('section', { class: 'alerts', 'aria-labelledby': 'alerts-h' },
    el('h2', { id: 'alerts-h', text: 'Alerts' }),
    el('label', {}, sound, ' A sound when the opponent moves'),
    el('label', {}, notify, ' A notification when it is my move, or a game of mine starts, and this tab is hidden'), why);
  sound.addEventListener('change', () => {
    localStorage.setItem(SOUND, sound.checked ? 'on' : 'off');
    if (sound.checked) {
      unlock();
      beep();
    }
  });
  notify.addEventListener('change', async () => {
    if (!notify.checked) {
      localStorage.setItem(NOTIFY, 'off');
      return;
    }
    // The permission is asked for now, on the player's click, never before.
    const p = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    notify.checked = p === 'granted';
    localStorage.setItem(NOTIFY, notify.checked ? 'on' : 'off');
    why.textContent = notify.checked ? '' : notifyWords() || 'not allowed by the browser';
  });
  $('.game .info').append(box);
  for (const ev of ['pointerdown', 'keydown']) document.addEventListener(ev, unlock, { once: true });
}

// alertMove is called by the game page with each new state of the game:
// prev the state before (null at first), v the new one, seat my colour
// ('' when watching). A move of the opponent sounds; when it leaves me to
// move and the tab is hidden, a notification says so.
export function alertMove(prev, v, seat) {
  if (!box) switches();
  box.hidden = !seat; // the players' switches: a spectator hears nothing
  if (!prev || !seat || v.ply <= prev.ply) return;
  const mover = other(v.to_move);
  if (mover === seat) return;
  nextGame(); // the header's badge counts this game now, or no longer
  if (on(SOUND)) beep();
  if (v.state === 'active' && !v.over && v.to_move === seat && document.visibilityState === 'hidden' && on(NOTIFY) &&
    'Notification' in window && Notification.permission === 'granted') {
    const who = (v.players[mover] && v.players[mover].name) || colorName(mover);
    const n = new Notification('Your move · alak', { body: v.last_move === 'pass' ? `${who} passed.` : `${who} played ${v.last_move}.`, tag: 'alak-' + v.id });
    n.addEventListener('click', () => {
      window.focus();
      n.close();
    });
  }
}
