// The rules and the clock of a form, as templates/forms.html draws them:
// the home page's new game and the tournaments' form. The form follows
// the choices (the sub-fields of the radio chosen, the options the
// preset takes with its values, the size's hint) and writes the rules
// and the clock as the API takes them.

export function ruleForm(form) {
  const presetSel = form.elements.preset;
  const preset = () => presetSel.selectedOptions[0];
  const defaults = () => JSON.parse(preset().dataset.values);
  const radio = (name) => {
    const r = form.querySelector(`input[name="${name}"]:checked`);
    return r ? r.value : '';
  };

  function follow() {
    for (const sub of form.querySelectorAll('.sub')) {
      sub.hidden = sub.dataset.for !== radio(sub.parentElement.querySelector('input[type=radio]').name);
    }
    const applies = preset().dataset.applies.split(' ');
    const opt = (n) => form.elements['opt-' + n];
    for (const row of form.querySelectorAll('.opt')) {
      const n = row.dataset.option;
      let on = applies.includes(n);
      if (n === 'passes') on = on && opt('pass') && opt('pass').value === 'on' && applies.includes('pass');
      if (n === 'komi') on = on && opt('score').value !== 'none' && (applies.includes('score'));
      row.hidden = !on;
    }
    const grid = preset().dataset.shape === 'grid';
    const size = form.elements.size;
    size.placeholder = preset().dataset.size;
    size.inputMode = grid ? 'text' : 'numeric';
    form.querySelector('#size-help').textContent = grid ? 'Columns x rows, up to 19x19 (9x9, 5x5, 13x9); a single number is a line.'
      : preset().dataset.shape === 'slide' ? 'Slots on the line, 3 to 64 (the start layout follows).' : 'Points on the line, 1 to 64 (the mail server played 7 to 26).';
  }

  // setPreset puts the preset's values into the option fields.
  function setPreset() {
    const d = defaults();
    for (const [k, v] of Object.entries(d)) {
      const f = form.elements['opt-' + k];
      if (f) f.value = v;
    }
    form.elements.size.value = '';
    follow();
  }

  // rulesText writes the rules as the API takes them: the preset and the
  // options changed from it.
  function rulesText() {
    const d = defaults(), parts = [presetSel.value];
    const size = form.elements.size.value.trim().toLowerCase().replace(/[×*]/g, 'x');
    if (size && size !== d.size) parts.push('size=' + size);
    for (const row of form.querySelectorAll('.opt')) {
      const n = row.dataset.option, v = form.elements['opt-' + n].value.trim();
      if (!row.hidden && v !== '' && v !== d[n]) parts.push(`${n}=${v}`);
    }
    return parts.join(' ');
  }

  // clockText writes the clock chosen: none, live:5m+3s or days:3.
  function clockText() {
    const clock = radio('clock');
    if (clock === 'live') return `live:${form.elements.minutes.value}m+${form.elements.increment.value}s`;
    if (clock === 'days') return 'days:' + form.elements.days.value;
    return clock;
  }

  form.addEventListener('change', (e) => (e.target === presetSel ? setPreset() : follow()));
  setPreset();
  return { radio, follow, rulesText, clockText };
}
