// Endgame: POST /v1/games/{game}/endgame when the bag is empty, /preendgame when it holds one
// tile. Loaded by its own <script type="module"> line; reaches the page through main.js.
// The panel shows itself when the unseen tiles (POST /unseen, asked whenever the page's own unseen
// list changes) number at most a rack (bag empty) or a rack and one (one tile in the bag). The
// answer: value, proved, depth, nodes, time and the principal variation, stepped through on the
// board with Prev/Next (the page's preview: earlier moves' tiles and the current move's, marked).
// Every number is the API's; nothing is scored here.

import { current, page } from './main.js';
import { call } from './api.js';
import { h, wordEl } from './results.js';

const $ = (id) => document.getElementById(id);
const ENDS = { out: 'a player goes out', passes: 'scoreless turns end the game', 'final turns': 'the final turns are played', depth: 'the search depth' };

function signed(x) { return `${x > 0 ? '+' : ''}${x}`; }
function post(game, what, body) { return call('POST', `/v1/games/${encodeURIComponent(game)}/${what}`, body); }

function notationEl(n) {
  if (n === 'pass') return h('span', {}, 'pass');
  const [where, ...word] = n.split(' ');
  return h('span', {}, h('span', { class: 'nota' }, where), ' ', wordEl(word.join(' ')));
}

export function initEndgame() {
  const home = $('extra-panels');
  if (!home) return {};
  const root = h('section', { id: 'endgame', class: 'endgame', 'aria-labelledby': 'eg-title', hidden: true });
  home.append(root);

  let mode = null; // 'endgame' | 'preendgame' | null
  let key = ''; // the position the panel was set up for
  let answer = null;
  let step = -1; // -1: the position before the first move
  let seq = 0;

  const title = h('h2', { id: 'eg-title' }, 'Endgame');
  const run = h('button', { type: 'button', id: 'eg-run', class: 'primary' }, 'Solve endgame');
  const budget = h('input', { type: 'number', id: 'eg-budget', min: '0.5', max: '30', step: '0.5', value: '3' });
  const depth = h('input', { type: 'number', id: 'eg-depth', min: '1', max: '40', step: '1', value: '40' });
  const depthLab = h('label', { class: 'lab' }, 'Max depth ', depth);
  // Optional: the scores (then the answer gives the final scores, the pre-endgame the share of
  // wins) and, in Crossplay, which of the two final turns is to be played.
  const mine = h('input', { type: 'number', id: 'eg-score-you', min: '0', max: '100000', placeholder: '–' });
  const theirs = h('input', { type: 'number', id: 'eg-score-opp', min: '0', max: '100000', placeholder: '–' });
  const turns = h('select', { id: 'eg-final-turns' },
    h('option', { value: '2' }, 'first of two'), h('option', { value: '1' }, 'last'));
  const turnsLab = h('label', { class: 'lab' }, 'Final turn ', turns);
  const note = h('p', { id: 'eg-note', class: 'muted' });
  const status = h('p', { id: 'eg-status', role: 'status', 'aria-live': 'polite' });
  const error = h('p', { id: 'eg-error', class: 'error', role: 'alert', hidden: true });
  const pv = h('ol', { id: 'eg-pv', class: 'eg-pv', hidden: true });
  const prev = h('button', { type: 'button', id: 'eg-prev' }, '‹ Prev');
  const next = h('button', { type: 'button', id: 'eg-next' }, 'Next ›');
  const where = h('span', { id: 'eg-step', class: 'muted' });
  const stepper = h('div', { class: 'row-buttons eg-stepper', hidden: true }, prev, next, where);
  const tbody = h('tbody');
  const table = h('table', { id: 'eg-table', class: 'eg-table', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Play'), h('th', { scope: 'col', class: 'num' }, 'Score'),
      h('th', { scope: 'col', class: 'num' }, 'Expected'), h('th', { scope: 'col', class: 'num' }, 'Wins'),
      h('th', { scope: 'col' }, 'Proved'))), tbody);
  root.append(title, note,
    h('div', { class: 'row-buttons eg-controls' }, run, h('label', { class: 'lab' }, 'Seconds ', budget), depthLab),
    h('div', { class: 'row-buttons eg-controls' }, h('label', { class: 'lab' }, 'Scores: you ', mine),
      h('label', { class: 'lab' }, 'opponent ', theirs), turnsLab),
    status, error, pv, stepper, h('div', { class: 'table-wrap' }, table));

  function clearMarks() {
    for (const s of page.board.squares) s.sq.classList.remove('eg-now', 'eg-past');
  }

  // The board at step k: the tiles of moves 0..k previewed (a later tile on a square wins), the
  // squares of move k marked.
  function show(k) {
    step = k;
    clearMarks();
    const steps = answer ? answer.pv : [];
    const tiles = new Map();
    for (const s of steps.slice(0, k + 1)) for (const t of s.tiles) tiles.set(`${t.row},${t.col}`, t);
    page.board.preview = tiles.size ? [...tiles.values()] : null;
    page.board.render();
    const n = page.board.size;
    const at = (t) => page.board.squares[(t.row - 1) * n + t.col - 1].sq;
    for (const t of tiles.values()) at(t).classList.add('eg-past');
    if (k >= 0) for (const t of steps[k].tiles) { at(t).classList.remove('eg-past'); at(t).classList.add('eg-now'); }
    [...pv.children].forEach((li, i) => { li.classList.toggle('now', i === k); li.setAttribute('aria-current', i === k ? 'step' : 'false'); });
    prev.disabled = k < 0;
    next.disabled = k >= steps.length - 1;
    where.textContent = k < 0 ? `Start · ${steps.length} moves` : `Move ${k + 1} of ${steps.length}`;
    root.dataset.step = String(k);
  }

  function reset() {
    if (answer && step >= 0) { page.board.preview = null; page.board.render(); } // the variation off the board
    answer = null;
    step = -1;
    delete root.dataset.done;
    delete root.dataset.step;
    clearMarks();
    status.textContent = '';
    error.hidden = true;
    pv.hidden = true;
    pv.replaceChildren();
    stepper.hidden = true;
    table.hidden = true;
    tbody.replaceChildren();
  }

  function renderEndgame(a) {
    answer = a;
    const fin = a.final_scores ? ` · final ${a.final_scores[0]}–${a.final_scores[1]}` : '';
    status.replaceChildren(
      h('strong', { id: 'eg-value' }, `Value ${signed(a.value)}`), ` (${a.proved ? 'proved' : 'not proved'}) · `,
      h('span', { id: 'eg-depth-out' }, `depth ${a.depth}`), ` · ${a.nodes.toLocaleString('en')} nodes · ${a.seconds.toFixed(2)} s`,
      ` · ends: ${ENDS[a.end] || a.end}${fin}`);
    root.dataset.proved = String(a.proved);
    pv.replaceChildren(...a.pv.map((s, i) => {
      const li = h('li', { 'data-notation': s.notation, 'data-player': s.player },
        h('span', { class: 'eg-who' }, s.player === 'you' ? 'You' : 'Opp.'), ' ', notationEl(s.notation),
        h('span', { class: 'num eg-score' }, ` ${s.score}`));
      li.addEventListener('click', () => show(i));
      return li;
    }));
    pv.hidden = false;
    stepper.hidden = a.pv.length === 0;
    show(-1);
  }

  function renderPre(a) {
    status.replaceChildren(h('strong', {}, a.proved ? 'Every draw solved to the end' : 'Not every draw solved to the end (budget)'),
      ` · ${a.seconds.toFixed(2)} s · the bag holds one of ${Object.entries(a.draws).map(([ch, k]) => `${k}×${ch}`).join(' ')}`);
    tbody.replaceChildren(...a.candidates.map((c) => h('tr', { 'data-notation': c.notation },
      h('td', { class: 'play' }, notationEl(c.notation)), h('td', { class: 'num' }, String(c.score)),
      h('td', { class: 'num eg-expected' }, `${c.expected > 0 ? '+' : ''}${c.expected.toFixed(2)}`),
      h('td', { class: 'num' }, c.wins === null ? '–' : `${(100 * c.wins).toFixed(0)}%`),
      h('td', {}, c.proved ? 'yes' : 'no'))));
    table.hidden = false;
  }

  async function solve() {
    reset();
    const now = current();
    const body = { board: now.board, rack: now.rack, budget: Number(budget.value) || 3 };
    if (now.heights) { body.heights = now.heights; body.plural_rule = now.plural_rule; }
    if (now.lexicon) body.lexicon = now.lexicon;
    if (mine.value !== '' && theirs.value !== '') body.scores = [Number(mine.value), Number(theirs.value)];
    if (mode === 'endgame') {
      body.max_depth = Number(depth.value) || 40;
      if (now.game === 'crossplay') body.final_turns_left = Number(turns.value);
    }
    const ticket = ++seq;
    run.disabled = true;
    status.textContent = 'Solving…';
    try {
      const out = await post(now.game, mode, body);
      if (ticket !== seq) return;
      if (mode === 'endgame') renderEndgame(out); else renderPre(out);
      root.dataset.done = 'true';
    } catch (e) {
      if (ticket !== seq) return;
      status.textContent = '';
      error.textContent = e.message;
      error.hidden = false;
    } finally {
      if (ticket === seq) run.disabled = false;
    }
  }

  // Is the bag empty, or down to one tile? Asked again whenever the page's unseen list changes.
  async function check() {
    if (!page.board.info) return; // the page is still loading its game
    const now = current();
    const k = JSON.stringify([now.game, now.board, now.heights, now.rack, now.lexicon]);
    if (k === key) return;
    key = k;
    seq++;
    reset();
    run.disabled = false;
    const size = page.board.info.rack_size;
    let total = Infinity;
    if (now.board && now.rack) {
      try {
        total = (await post(now.game, 'unseen', { board: now.board, heights: now.heights, rack: now.rack })).total;
      } catch { total = Infinity; }
    }
    if (k !== key) return;
    mode = total <= size ? 'endgame' : total === size + 1 ? 'preendgame' : null;
    root.hidden = !mode;
    root.dataset.mode = mode || '';
    if (!mode) return;
    title.textContent = mode === 'endgame' ? 'Endgame' : 'Pre-endgame';
    run.textContent = mode === 'endgame' ? 'Solve endgame' : 'Solve pre-endgame';
    depthLab.hidden = mode !== 'endgame';
    turnsLab.hidden = mode !== 'endgame' || now.game !== 'crossplay';
    note.textContent = mode === 'endgame'
      ? `The bag is empty: the opponent holds the ${total} unseen tile${total === 1 ? '' : 's'}. Both sides' best play to the end of the game.`
      : 'One tile is in the bag: each first play against every tile the bag may hold, solved to the end.';
  }

  let timer = 0;
  const later = () => { clearTimeout(timer); timer = setTimeout(check, 150); };
  const summary = $('unseen-summary');
  if (summary) new MutationObserver(later).observe(summary, { childList: true, characterData: true, subtree: true });
  document.addEventListener('page:solved', later);
  later();
  run.addEventListener('click', solve);
  prev.addEventListener('click', () => { if (answer && step > -1) show(step - 1); });
  next.addEventListener('click', () => { if (answer && step < answer.pv.length - 1) show(step + 1); });
  return { solve, check };
}

initEndgame();
