// Results list, score breakdown, game comparison and play check: the API's numbers, shown as given.

const PREMIUM_NAMES = { DL: 'Double letter', TL: 'Triple letter', DW: 'Double word', TW: 'Triple word' };
const COLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

// A word with its blanks marked: lowercase letters (blanks) get their own style and a label.
export function wordEl(word, spoken = true) {
  const out = h('span', { class: 'word' });
  for (const ch of word) {
    if (ch >= 'a' && ch <= 'z') out.append(h('span', { class: 'bl', title: 'blank' }, ch.toUpperCase(), spoken ? h('span', { class: 'sr-only' }, ' (blank)') : null));
    else out.append(ch);
  }
  return out;
}

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function esc(s) { return String(s).replace(/[&<>"']/g, (c) => ESC[c]); }

// A play's word as HTML: blanks italic and underlined (with a spoken "(blank)" when asked), and
// the letters already on the board (`old`, one flag per letter) set apart from the new ones.
export function wordHtml(word, old = null, spoken = false) {
  let out = '';
  [...word].forEach((ch, k) => {
    const cls = [ch >= 'a' && ch <= 'z' ? 'bl' : '', old && old[k] ? 'on' : ''].filter(Boolean).join(' ');
    const sr = spoken && ch >= 'a' && ch <= 'z' ? '<span class="sr-only"> (blank)</span>' : '';
    const title = old && old[k] ? 'already on the board' : ch >= 'a' && ch <= 'z' ? 'blank' : '';
    out += cls ? `<span class="${cls}"${title ? ` title="${title}"` : ''}>${esc(ch.toUpperCase())}${sr}</span>` : esc(ch);
  });
  return `<span class="word">${out}</span>`;
}

// Which letters of a play's word were on the board already: those not among its new tiles.
export function oldLetters(m) {
  if (!m.tiles || !m.word) return null;
  const fresh = new Set(m.tiles.map((t) => `${t.row},${t.col}`));
  return [...m.word].map((_, k) => !fresh.has(m.direction === 'down' ? `${m.row + k},${m.col}` : `${m.row},${m.col + k}`));
}

// The rows of the results table. Plays that differ only in which letters the blanks stand for
// (same word, same squares) are one row, the best of them shown, the others behind a button.
// An exchange or the pass (rank_by equity with exchanges) is a row like a play.
export function resultItems(moves, exchanges, group) {
  const items = [];
  const byKey = new Map();
  moves.forEach((m, k) => {
    const rank = m.rank ?? k + 1;
    const key = `${m.row},${m.col},${m.direction},${m.word.toUpperCase()}`;
    const lead = group && /[a-z]/.test(m.word) ? byKey.get(key) : undefined;
    if (lead) { lead.variants.push({ kind: 'play', m, rank }); return; }
    const item = { kind: 'play', m, rank, variants: [] };
    if (group && /[a-z]/.test(m.word)) byKey.set(key, item);
    items.push(item);
  });
  for (const x of exchanges || []) items.push({ kind: x.kind, m: x, rank: x.rank, variants: [] });
  if (exchanges && exchanges.length) items.sort((a, b) => a.rank - b.rank);
  return items;
}

function signed(v) { return `${v >= 0 ? '+' : ''}${v}`; }

function rowHtml(item, k, { equity, selected, open, variant }) {
  const m = item.m;
  const sel = m === selected;
  let play;
  let label;
  if (item.kind === 'play') {
    const nota = m.notation.split(' ')[0];
    const blanks = [...m.word].filter((ch) => ch >= 'a' && ch <= 'z').map((ch) => ch.toUpperCase());
    label = `${nota} ${m.word.toUpperCase()}${blanks.length ? `, blank ${blanks.join(' and ')}` : ''}`;
    play = `<span class="nota">${esc(nota)}</span> ${wordHtml(m.word, oldLetters(m))}`;
  } else {
    label = item.kind === 'pass' ? 'Pass' : `Exchange ${m.thrown}`;
    play = item.kind === 'pass' ? '<span class="word">Pass</span>' : `<span class="nota">Exchange</span> <span class="word">${esc(m.thrown)}</span>`;
  }
  const more = item.variants.length
    ? ` <button type="button" class="more" aria-expanded="${open ? 'true' : 'false'}" aria-label="${open ? 'Hide' : 'Show'} ${item.variants.length} other blank choice${item.variants.length === 1 ? '' : 's'} of ${esc(label)}">${open ? '−' : '+'}${item.variants.length}</button>` : '';
  const cls = [sel ? 'sel' : '', item.kind === 'play' ? '' : 'swap', variant ? 'variant' : ''].filter(Boolean).join(' ');
  const leave = item.kind === 'play' ? m.leave : m.kept;
  let html = `<tr data-k="${k}"${cls ? ` class="${cls}"` : ''}><td class="rank">${item.rank}</td>`
    + `<td class="play"><button type="button" class="pick" aria-pressed="${sel}" data-rank="${item.rank}" data-notation="${esc(item.kind === 'play' ? m.notation : label)}" aria-label="${esc(label)}">${play}</button>${more}</td>`
    + `<td class="num score">${item.kind === 'play' ? m.score : 0}</td><td class="num">${item.kind === 'play' ? m.tiles_used : '–'}</td>`
    + `<td class="leave">${esc(leave || '–')}</td>`;
  if (equity) html += `<td class="num">${signed(m.leave_value)}</td><td class="num">${m.equity}</td>`;
  return `${html}</tr>`;
}

// The table body as one HTML string (a thousand rows draw in a few milliseconds) with one set of
// listeners on the body. `flat` lists what each row shows, so a row's data-k finds its play.
export function renderResults(tbody, items, { onPreview, onSelect, selected, equity }) {
  const open = new Set();
  let flat = [];
  function draw() {
    flat = [];
    const parts = [];
    for (const item of items) {
      const isOpen = open.has(item);
      parts.push(rowHtml(item, flat.length, { equity, selected: state.selected, open: isOpen }));
      flat.push(item);
      if (isOpen) {
        for (const v of item.variants) {
          parts.push(rowHtml({ ...v, variants: [] }, flat.length, { equity, selected: state.selected, variant: true }));
          flat.push(v);
        }
      }
    }
    tbody.innerHTML = parts.join('');
  }
  const state = { selected };
  const itemOf = (el) => {
    const tr = el && el.closest ? el.closest('tr[data-k]') : null;
    return tr ? flat[Number(tr.dataset.k)] : null;
  };
  tbody.onmouseover = (e) => { const it = itemOf(e.target); if (it) onPreview(it.m); };
  tbody.onmouseleave = () => onPreview(null);
  tbody.onfocusin = (e) => { const it = itemOf(e.target); if (it && e.target.classList.contains('pick')) onPreview(it.m); };
  tbody.onfocusout = () => onPreview(null);
  tbody.onclick = (e) => {
    const it = itemOf(e.target);
    if (!it) return;
    const more = e.target.closest('button.more');
    if (more) {
      const k = Number(more.closest('tr').dataset.k);
      if (open.has(it)) open.delete(it); else open.add(it);
      draw();
      const again = tbody.querySelector(`tr[data-k="${k}"] button.more`);
      if (again) again.focus();
      return;
    }
    onSelect(it.m);
  };
  tbody.onkeydown = (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    if (!e.target.classList.contains('pick')) return;
    e.preventDefault();
    const rows = [...tbody.querySelectorAll('button.pick')];
    const next = rows[rows.indexOf(e.target) + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) next.focus();
  };
  draw();
  return {
    select(m) {
      state.selected = m;
      for (const tr of tbody.rows) {
        const on = flat[Number(tr.dataset.k)].m === m;
        tr.classList.toggle('sel', on);
        tr.querySelector('button.pick').setAttribute('aria-pressed', String(on));
      }
    },
  };
}

function squareName(l) { return `${l.row}${COLS[l.col - 1]}`; }

// The start square named as the game's own scoring pages name it (Crossplay: "Center star, no
// bonus"); startName(l) gives that name for a letter on a start square, else ''.
function letterRow(l, stacking, face, startName) {
  let where;
  const start = startName ? startName(l) : '';
  if (!l.new) where = 'Already on the board, no bonus';
  else if (l.bonus) where = `${PREMIUM_NAMES[l.bonus] || l.bonus}${start ? ` (${start.toLowerCase()})` : ''}`;
  else where = start ? `${start}, no bonus` : 'Plain';
  const letter = l.blank ? h('span', { class: 'bl' }, face(l.letter), h('span', { class: 'sr-only' }, ' (blank)')) : face(l.letter);
  return h('tr', { class: l.new ? 'new' : 'old' },
    h('td', { class: 'letter' }, letter),
    h('td', {}, squareName(l)),
    h('td', {}, where, l.bonus ? h('span', { class: `badge p-${l.bonus}` }, l.bonus) : null),
    stacking ? h('td', { class: 'num' }, String(l.height)) : null,
    h('td', { class: 'num' }, String(l.points)));
}

// The breakdown in the order of the Crossplay scoring page: each word, its letters with their
// premiums and points, the letter total, the word multiplier and word score; then the
// all-tiles bonus under the game's name; then the total.
export function renderBreakdown(el, b, { stacking, face, startName }) {
  el.textContent = '';
  for (const w of b.words) {
    const table = h('table', { class: 'bd' },
      h('caption', {}, wordEl(w.word)),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Letter'), h('th', { scope: 'col' }, 'Square'),
        h('th', { scope: 'col' }, 'Bonus'), stacking ? h('th', { scope: 'col' }, 'Height') : null, h('th', { scope: 'col', class: 'num' }, 'Points'))),
      h('tbody', {}, w.letters.map((l) => letterRow(l, stacking, face, startName))));
    const span = stacking ? 4 : 3;
    const foot = h('tfoot', {},
      h('tr', { class: 'letter-total' }, h('th', { scope: 'row', colspan: span }, 'Letter total'), h('td', { class: 'num' }, String(w.letter_total))));
    if (stacking) {
      foot.append(h('tr', {}, h('th', { scope: 'row', colspan: span }, 'Flat word (every tile one high)'), h('td', { class: 'num' }, w.flat ? 'yes' : 'no')));
      if (w.qu_bonus) foot.append(h('tr', {}, h('th', { scope: 'row', colspan: span }, 'Qu bonus'), h('td', { class: 'num' }, `+${w.qu_bonus}`)));
    }
    foot.append(
      h('tr', { class: 'mult' }, h('th', { scope: 'row', colspan: span }, 'Word multiplier'), h('td', { class: 'num' }, `×${w.word_multiplier}`)),
      h('tr', { class: 'word-score' }, h('th', { scope: 'row', colspan: span }, 'Word score'), h('td', { class: 'num' }, String(w.score))));
    table.append(foot);
    el.append(table);
  }
  const bonus = b.all_tiles_bonus;
  const name = bonus.name.charAt(0).toUpperCase() + bonus.name.slice(1);
  el.append(h('dl', { class: 'totals' },
    h('div', { class: 'bonus' }, h('dt', {}, `${name} (${bonus.points ? 'all tiles played' : 'not earned'})`), h('dd', {}, String(bonus.points))),
    h('div', { class: 'total' }, h('dt', {}, 'Total'), h('dd', {}, String(b.total)))));
}

export function renderCompare(el, out, current) {
  el.textContent = '';
  const rows = out.results.map((r) => h('tr', { class: r.game === current ? 'sel' : '' },
    h('th', { scope: 'row' }, r.title.split(' (')[0]),
    r.error ? h('td', { colspan: 3, class: 'error-cell' }, r.error.message)
      : [h('td', { class: 'num score' }, String(r.score)),
        h('td', { class: 'num' }, `${r.breakdown.all_tiles_bonus.name} ${r.breakdown.all_tiles_bonus.points}`),
        h('td', {}, r.valid ? 'valid' : `not valid: ${r.invalid_words.join(', ')}`)]));
  el.append(h('table', { class: 'cmp' },
    h('caption', {}, `${out.notation.split(' ')[0]} `, wordEl(out.notation.split(' ').slice(1).join(' ')), ' in each game'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Game'), h('th', { scope: 'col', class: 'num' }, 'Score'),
      h('th', { scope: 'col', class: 'num' }, 'All-tiles bonus'), h('th', { scope: 'col' }, 'Words'))),
    h('tbody', {}, rows)));
}

export function renderCheck(el, out, { stacking, face, startName }) {
  el.textContent = '';
  const verdict = out.valid
    ? h('p', { class: 'ok' }, h('strong', {}, '✓ Valid. '), `Every word is in the word list: ${out.words.join(', ')}.`)
    : h('p', { class: 'bad' }, h('strong', {}, '✗ Not valid. '), 'Not in the word list: ',
      h('span', { class: 'invalid-words' }, out.invalid_words.join(', ')), '.');
  el.append(h('p', { class: 'check-head' }, h('span', { class: 'nota' }, out.notation.split(' ')[0]), ' ', wordEl(out.word), ' scores ', h('strong', { class: 'check-score' }, String(out.score))), verdict);
  if (out.rank !== null && out.rank !== undefined) {
    const left = out.points_missed;
    el.append(h('p', { class: 'rank' }, `Rank `, h('strong', { class: 'check-rank' }, String(out.rank)), ` of ${out.total_moves} plays; the best scores `,
      h('strong', { class: 'check-best' }, String(out.best_score)), '. ',
      left > 0 ? h('span', { class: 'left' }, `You left ${left} point${left === 1 ? '' : 's'} on the table.`) : h('span', { class: 'left' }, 'No play scores more.')));
    if (out.better_plays && out.better_plays.length) {
      el.append(h('p', { class: 'better' }, 'Better: ', out.better_plays.map((p, k) => [k ? ', ' : '',
        h('span', { class: 'nota' }, p.notation.split(' ')[0]), ' ', wordEl(p.word), ` ${p.score}`])));
    }
  } else if (out.best_score !== null && out.best_score !== undefined) {
    el.append(h('p', { class: 'rank' }, 'The best legal play with this rack scores ', h('strong', { class: 'check-best' }, String(out.best_score)), '.'));
  } else {
    el.append(h('p', { class: 'muted' }, 'Type a rack to see where this play ranks.'));
  }
  const bd = h('div', { class: 'breakdown' });
  renderBreakdown(bd, out.breakdown, { stacking, face, startName });
  el.append(bd);
}
