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

export function renderResults(tbody, moves, { onPreview, onSelect, selected }) {
  tbody.textContent = '';
  moves.forEach((m, k) => {
    const blanks = [...m.word].filter((ch) => ch >= 'a' && ch <= 'z').map((ch) => ch.toUpperCase());
    const label = `${m.notation.split(' ')[0]} ${m.word.toUpperCase()}${blanks.length ? `, blank ${blanks.join(' and ')}` : ''}`;
    const pick = h('button', { type: 'button', class: 'pick', 'aria-pressed': String(m === selected), 'data-rank': k + 1,
      'data-notation': m.notation, 'aria-label': label },
      h('span', { class: 'nota' }, m.notation.split(' ')[0]), ' ', wordEl(m.word, false));
    const row = h('tr', { class: m === selected ? 'sel' : '' },
      h('td', { class: 'rank' }, String(k + 1)),
      h('td', { class: 'play' }, pick),
      h('td', { class: 'num score' }, String(m.score)),
      h('td', { class: 'num' }, String(m.tiles_used)),
      h('td', { class: 'leave' }, m.leave || '–'),
      m.equity === undefined ? null : h('td', { class: 'num' }, `${m.leave_value >= 0 ? '+' : ''}${m.leave_value}`),
      m.equity === undefined ? null : h('td', { class: 'num' }, String(m.equity)));
    row.addEventListener('mouseenter', () => onPreview(m));
    row.addEventListener('mouseleave', () => onPreview(null));
    row.addEventListener('click', () => onSelect(m));
    pick.addEventListener('focus', () => onPreview(m));
    pick.addEventListener('blur', () => onPreview(null));
    pick.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const rows = [...tbody.querySelectorAll('button.pick')];
        const next = rows[k + (e.key === 'ArrowDown' ? 1 : -1)];
        if (next) next.focus();
      }
    });
    tbody.append(row);
  });
}

function squareName(l) { return `${l.row}${COLS[l.col - 1]}`; }

function letterRow(l, stacking, face) {
  let where;
  if (!l.new) where = 'Already on the board, no bonus';
  else if (l.bonus) where = PREMIUM_NAMES[l.bonus] || l.bonus;
  else where = 'Plain';
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
export function renderBreakdown(el, b, { stacking, face }) {
  el.textContent = '';
  for (const w of b.words) {
    const table = h('table', { class: 'bd' },
      h('caption', {}, wordEl(w.word)),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Letter'), h('th', { scope: 'col' }, 'Square'),
        h('th', { scope: 'col' }, 'Bonus'), stacking ? h('th', { scope: 'col' }, 'Height') : null, h('th', { scope: 'col', class: 'num' }, 'Points'))),
      h('tbody', {}, w.letters.map((l) => letterRow(l, stacking, face))));
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

export function renderCheck(el, out, { stacking, face }) {
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
  renderBreakdown(bd, out.breakdown, { stacking, face });
  el.append(bd);
}
