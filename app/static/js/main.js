// The page's one owner of state: wires the board, the forms and the API together.

import { initAnalyze } from './analyze.js';
import { api } from './api.js';
import { BoardView } from './board.js';
import { initCgp } from './cgp.js';
import { History } from './history.js';
import { h, oldLetters, wordHtml, renderBreakdown, renderCheck, renderCompare, renderResults, resultItems } from './results.js';
import { load, save, shareUrl } from './state.js';

const $ = (id) => document.getElementById(id);
const COLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const state = load();
const games = new Map();
let moves = [];
let selected = null;
let table = null; // the results table's handle (renderResults)
let lexiconList = [];
let unseenTimer = 0;
let solveSeq = 0;
let defaultLexicon = '';
const history = new History();
let restoring = false;

const board = new BoardView($('board'), {
  onChange: () => boardChanged(),
  onEnter: () => solve(),
  onCursor: () => updateCursorControls(),
});

function snapshot() {
  return { cells: [...board.cells], heights: [...board.heights], rack: $('rack').value };
}

function boardChanged() {
  if (!restoring) history.record(snapshot());
  showHistory();
  clearErrors('board-error', 'check-error');
  $('board-note').hidden = true;
  showWarnings([]);
  if (moves.length) {
    // The plays were found for the board before this edit.
    setResults([], null);
    $('results-status').textContent = 'The board changed: press Enter to solve again.';
  }
  persist();
  updateText();
  scheduleUnseen();
}

// ----------------------------------------------------------------------------- undo and redo

function showHistory() {
  $('undo').disabled = !history.canUndo;
  $('redo').disabled = !history.canRedo;
}

function restore(s) {
  if (!s) return;
  restoring = true;
  try {
    board.cells = [...s.cells];
    board.heights = [...s.heights];
    $('rack').value = s.rack;
    setResults([], null);
    board.changed();
  } finally {
    restoring = false;
  }
  showHistory();
}

function undo() { restore(history.undo()); }
function redo() { restore(history.redo()); }

// ----------------------------------------------------------------------------- errors

const FIELD_ERRORS = ['page-error', 'board-error', 'rack-error', 'filter-error', 'check-error', 'compare-error', 'unseen-error', 'text-error', 'cgp-error', 'gcg-error'];

function showError(id, err) {
  const el = $(id);
  el.textContent = err ? err.message : '';
  el.hidden = !err;
  if (err && err.details && Number.isInteger(err.details.row) && Number.isInteger(err.details.col)) {
    board.mark = [err.details.row, err.details.col];
    board.render();
  }
}

// What the API found odd about the board (stray tiles, unknown words): listed under the board,
// their squares marked. The board is still solved as given.
function showWarnings(list) {
  const warnings = list || [];
  $('board-warnings').replaceChildren(...warnings.map((w) => h('li', {}, w.message)));
  $('board-warnings').hidden = !warnings.length;
  board.warn = new Set(warnings.flatMap((w) => (w.squares || []).map(([r, c]) => (r - 1) * board.size + c - 1)));
  board.render();
}

function clearErrors(...ids) {
  for (const id of ids.length ? ids : FIELD_ERRORS) { $(id).hidden = true; $(id).textContent = ''; }
  if (board.mark) { board.mark = null; board.render(); }
}

// Which field an API error is about: the rack, the filters, the board, or the form that asked.
function errorField(err, fallback) {
  const field = (err.details && (err.details.field || (err.details.errors && err.details.errors[0] && err.details.errors[0].field))) || '';
  if (err.code === 'invalid_rack' || field === 'rack') return 'rack-error';
  if (err.code === 'invalid_filter' || field.startsWith('filters')) return 'filter-error';
  if (err.code === 'invalid_board' || field.startsWith('board') || field.startsWith('heights')) return 'board-error';
  if (err.code === 'too_many_tiles') return 'rack-error';
  return fallback;
}

// ----------------------------------------------------------------------------- state

function persist() {
  state.board = board.rows();
  state.heights = board.heightRows();
  state.rack = $('rack').value;
  save(state);
}

function position() {
  const body = { board: board.isEmpty() ? null : board.rows() };
  if (board.info.stacking) body.heights = board.isEmpty() ? null : board.heightRows();
  return body;
}

// Options every solving request shares: premiums, lexicon and, in Upwords, the plural rule.
function scoring() {
  const body = { premiums: state.premiums };
  if (state.lexicon) body.lexicon = state.lexicon;
  if (board.info.stacking) body.plural_rule = state.plural_rule;
  return body;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

function faceOf(ch) { return board.face(ch); }

// The start square as the game calls it: a star in the middle of the 15x15 boards, four start
// squares in Upwords.
function startName(l) {
  if (!board.start.has((l.row - 1) * board.size + l.col - 1)) return '';
  return board.info.stacking ? 'Start square' : 'Center star';
}

// ----------------------------------------------------------------------------- game

async function setGame(name, keepBoard) {
  let info = games.get(name);
  if (!info || !info.premiums) {
    info = await api.game(name);
    games.set(name, info);
  }
  state.game = name;
  $('game').value = name;
  board.setGame(info, keepBoard ? state.board : null, keepBoard ? state.heights : null);
  history.reset(snapshot());
  showHistory();
  document.body.dataset.game = name;
  $('rack-size').textContent = info.rack_size;
  $('height-field').hidden = !info.stacking;
  for (const el of document.querySelectorAll('.stack-help')) el.hidden = !info.stacking;
  for (const el of document.querySelectorAll('.stack-only')) el.hidden = !info.stacking;
  $('blank-toggle').hidden = info.stacking || !info.blanks;
  for (const el of document.querySelectorAll('.blank-help')) el.hidden = !info.blanks;
  $('noblanks-field').hidden = !info.blanks;
  $('group-field').hidden = !info.blanks; // no blanks, no blank choices to group
  $('premiums-field').hidden = !Object.keys(info.premiums).length;
  $('plural-field').hidden = !info.stacking;
  // Upwords has no leave values: ranking by equity does not apply there
  $('equity-field').hidden = !!info.stacking;
  $('compare-btn').hidden = info.stacking;
  $('f-min').max = info.size;
  $('c-row').max = info.size;
  const col = $('c-col').value;
  $('c-col').replaceChildren(...Array.from({ length: info.size }, (_, c) => h('option', { value: c + 1 }, COLS[c])));
  if (col && Number(col) <= info.size) $('c-col').value = col;
  if (state.filters.square && state.filters.square.some((v) => v > info.size)) state.filters.square = null;
  board.filterSquare = state.filters.square;
  setResults([], null);
  $('check-result').textContent = '';
  $('board-note').hidden = true;
  if (panels.cgp) panels.cgp.reset();
  if (panels.analyze) panels.analyze.followGame(name);
  clearErrors();
  showWarnings([]);
  persist();
  updateText();
  scheduleUnseen(0);
}

function updateText() {
  $('board-text').value = board.rows().join('\n');
  $('board-text').rows = board.size;
  $('heights-text').value = board.info.stacking ? board.heightRows().join('\n') : '';
}

function updateCursorControls() {
  const dir = board.dir;
  $('dir').setAttribute('aria-pressed', String(dir === 'down'));
  $('dir').querySelector('.dir-arrow').textContent = dir === 'across' ? '→' : '↓';
  $('dir').querySelector('.dir-name').textContent = dir === 'across' ? 'Across' : 'Down';
  if (board.info && board.info.stacking) {
    $('height').value = board.heights[board.cursor] || 0;
  }
}

// ----------------------------------------------------------------------------- solving

function equityApplies() { return state.equity && !board.info.stacking; }

function requestBody() {
  const f = state.filters;
  const filters = {};
  if (f.min_length) filters.min_length = f.min_length;
  if (f.contains) filters.contains = f.contains;
  if (f.square) filters.square = f.square;
  if (f.no_blanks) filters.no_blanks = true;
  const body = { ...position(), rack: $('rack').value, limit: state.limit, count: state.count, ...scoring() };
  if (Object.keys(filters).length) body.filters = filters;
  if (equityApplies()) { body.rank_by = 'equity'; body.exchanges = true; }
  // a long list comes without breakdowns (a third of the bytes); the selected play's is fetched
  if (state.limit > 50) body.breakdowns = false;
  return body;
}

async function solve() {
  clearErrors();
  readOptions();
  const seq = ++solveSeq;
  const asked = performance.now();
  $('results-status').textContent = 'Solving…';
  $('results-status').hidden = false;
  try {
    const body = requestBody();
    const out = await api.moves(state.game, body);
    if (seq !== solveSeq) return;
    $('total').textContent = out.total_moves === null ? '' : `(${out.total_moves} in all)`;
    showWarnings(out.warnings);
    for (const th of document.querySelectorAll('#results .eq-col')) th.hidden = !out.equity;
    const t0 = performance.now();
    setResults(out.moves, null, out.exchanges, !!out.equity);
    document.dispatchEvent(new CustomEvent('page:solved', { detail: { ...current(), request: body, answer: out } }));
    // what the page took to draw the rows, and the whole solve (request, answer, rows), for tests
    document.body.dataset.drawMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.solveMs = (performance.now() - asked).toFixed(1);
    showLexicon(out.lexicon);
    const any = out.moves.length + (out.exchanges || []).length;
    $('results-status').textContent = any ? '' : 'No legal play with this rack.';
    const best = out.moves[0];
    const top = items[0];
    $('announce').textContent = !top ? 'No legal play with this rack.' : top.kind === 'play'
      ? `${out.moves.length} plays. Best: ${best.notation}, ${best.score} points.`
      : `Best: ${top.kind === 'pass' ? 'pass' : `exchange ${top.m.thrown}`}, equity ${top.m.equity}.`;
    $('results-status').hidden = any > 0;
    revealResults();
  } catch (err) {
    if (seq !== solveSeq) return;
    setResults([], null);
    $('results-status').textContent = 'No results.';
    $('announce').textContent = '';
    showError(errorField(err, 'rack-error'), err);
  }
}

let items = [];

function setResults(list, sel, exchanges = null, equity = false) {
  moves = list;
  selected = sel;
  items = resultItems(list, exchanges, state.group);
  if (!items.length) $('total').textContent = '';
  $('results').hidden = !items.length;
  if (!items.length) { $('results-status').hidden = false; $('results-status').textContent = 'Type a rack and press Enter.'; }
  table = renderResults($('results').tBodies[0], items, { onPreview: preview, onSelect: select, selected, equity });
  showSelected();
}

// The word list the API judged with, named next to the results, with what it is.
function showLexicon(name) {
  const info = lexiconList.find((l) => l.name === name);
  $('lexicon-name').textContent = name;
  const what = name === 'word-list'
    ? 'a broad English list, not any game\'s official dictionary (some words a game takes are missing, some it refuses are in).'
    : info ? `${info.provenance}.` : '';
  $('lexicon-what').textContent = what;
}

// After Solve, bring the results into view if they are not (a phone: they are below the rack).
function revealResults() {
  const r = $('results-title').getBoundingClientRect();
  if (r.top > window.innerHeight - 80 || r.bottom < 0) $('results-title').scrollIntoView({ block: 'start', behavior: 'instant' });
}

function preview(m) {
  const shown = m || selected;
  board.preview = shown && shown.tiles ? shown.tiles : null;
  board.render();
}

function select(m) {
  selected = m;
  if (table) table.select(m);
  preview(null);
  showSelected();
  revealSelected();
  document.dispatchEvent(new CustomEvent('page:selected', { detail: current() }));
}

function showSelected() {
  $('selected').hidden = !selected;
  $('selected-hint').hidden = !!selected;
  $('compare').hidden = true;
  $('compare-error').hidden = true;
  if (!selected) { board.preview = null; board.render(); return; }
  const swap = selected.kind === 'exchange' || selected.kind === 'pass';
  $('compare-btn').hidden = swap || board.info.stacking;
  if (swap) {
    $('selected-title').textContent = selected.kind === 'pass' ? `Pass: equity ${selected.equity}`
      : `Exchange ${selected.thrown}: equity ${selected.equity}`;
    $('breakdown').replaceChildren(h('p', { class: 'swap-note' }, selected.kind === 'pass'
      ? 'Passing scores 0 and keeps the whole rack' : `Exchanging scores 0 and keeps ${selected.kept || 'no tiles'}`,
      `; its equity is the value of the tiles kept (${selected.leave_value >= 0 ? '+' : ''}${selected.leave_value}).`));
    return;
  }
  const title = h('span', {});
  title.innerHTML = wordHtml(selected.word, oldLetters(selected), true);
  $('selected-title').replaceChildren(`${selected.notation.split(' ')[0]} `, title.firstChild, `: ${selected.score} points`);
  if (selected.breakdown) renderBreakdown($('breakdown'), selected.breakdown, { stacking: board.info.stacking, face: faceOf, startName });
  else fetchBreakdown(selected);
}

// The selected play's breakdown in view: beside the list on a laptop it is already; on a phone it
// is under the list, so the board (sticky at the top) and the breakdown's head are shown.
function revealSelected() {
  const r = $('selected').getBoundingClientRect();
  if (r.top > window.innerHeight - 60) $('selected').scrollIntoView({ block: 'nearest', behavior: 'instant' });
}

// A moves answer without breakdowns: ask the score endpoint for this play's breakdown.
async function fetchBreakdown(m) {
  $('breakdown').textContent = '';
  try {
    const out = await api.score(state.game, { ...position(), move: { row: m.row, col: m.col, direction: m.direction, word: m.word }, ...scoring() });
    m.breakdown = out.breakdown;
    if (selected === m) renderBreakdown($('breakdown'), m.breakdown, { stacking: board.info.stacking, face: faceOf, startName });
  } catch (err) {
    showError('compare-error', err);
  }
}

function playIt() {
  if (!selected) return;
  if (selected.kind === 'exchange' || selected.kind === 'pass') {
    $('rack').value = selected.kind === 'exchange' ? selected.kept : $('rack').value;
    history.record(snapshot());
    showHistory();
    setResults([], null);
    persist();
    $('rack').focus();
    return;
  }
  const n = board.size;
  for (const t of selected.tiles) {
    const i = (t.row - 1) * n + t.col - 1;
    board.cells[i] = t.letter;
    board.heights[i] += 1;
  }
  $('rack').value = selected.leave;
  setResults([], null);
  board.changed();
  $('rack').focus();
}

async function compareSelected() {
  if (!selected) return;
  clearErrors('compare-error');
  const m = selected;
  try {
    const out = await api.compare({ board: board.isEmpty() ? null : board.rows(), move: { row: m.row, col: m.col, direction: m.direction, word: m.word },
      ...scoring() });
    renderCompare($('compare'), out, state.game);
    $('compare').hidden = false;
    $('compare').scrollIntoView({ block: 'nearest', behavior: 'instant' });
  } catch (err) {
    showError('compare-error', err);
  }
}

// ----------------------------------------------------------------------------- check my play

async function checkPlay() {
  clearErrors('check-error');
  const rack = $('rack').value;
  const body = { ...position(), move: { row: Number($('c-row').value), col: Number($('c-col').value), direction: $('c-dir').value, word: $('c-word').value },
    ...scoring() };
  if (rack) body.rack = rack;
  $('check-result').textContent = '';
  try {
    const out = await api.score(state.game, body);
    renderCheck($('check-result'), out, { stacking: board.info.stacking, face: faceOf, startName });
    showWarnings(out.warnings);
    board.preview = out.tiles;
    board.render();
  } catch (err) {
    showError(errorField(err, 'check-error'), err);
  }
}

// ----------------------------------------------------------------------------- unseen tiles

function scheduleUnseen(delay = 250) {
  clearTimeout(unseenTimer);
  unseenTimer = setTimeout(updateUnseen, delay);
}

let unseenSeq = 0;

async function updateUnseen() {
  const seq = ++unseenSeq;
  try {
    const out = await api.unseen(state.game, { ...position(), rack: $('rack').value });
    if (seq !== unseenSeq) return; // a newer request is on its way
    $('unseen-error').hidden = true;
    const list = $('unseen');
    const shown = Object.entries(out.unseen).filter(([ch]) => ch !== '?' || board.info.blanks);
    list.replaceChildren(...shown.map(([ch, n]) =>
      h('li', { class: n ? '' : 'none', 'data-letter': ch, 'aria-label': `${ch === '?' ? 'blank' : faceOf(ch)}: ${n}` },
        h('span', { class: 'ul', 'aria-hidden': 'true' }, ch === '?' ? '?' : faceOf(ch)), h('span', { class: 'un', 'aria-hidden': 'true' }, String(n)))));
    const parts = [`${plural(out.total, 'tile')} unseen`, plural(out.vowels, 'vowel'), plural(out.consonants, 'consonant')];
    if (board.info.blanks) parts.push(plural(out.blanks, 'blank'));
    $('unseen-summary').textContent = parts.join(' · ');
    if (out.buried) $('unseen-summary').textContent += ` · ${out.buried} buried under stacks (letters unknown: counts by letter are at most)`;
  } catch (err) {
    if (seq !== unseenSeq) return;
    $('unseen').textContent = '';
    $('unseen-summary').textContent = '';
    showError('unseen-error', err);
  }
}

// ----------------------------------------------------------------------------- controls

function readOptions() {
  state.premiums = $('premiums').checked;
  state.count = $('count').checked;
  state.equity = $('equity').checked;
  state.group = $('group').checked;
  state.limit = Math.max(1, Math.min(1000, Number($('limit').value) || 20));
  state.lexicon = $('lexicon').value === defaultLexicon ? '' : $('lexicon').value;
  state.plural_rule = $('plural').checked;
  state.filters.min_length = Math.max(0, Number($('f-min').value) || 0);
  state.filters.contains = $('f-contains').value.trim();
  state.filters.no_blanks = $('f-noblanks').checked;
  showFiltersOn();
  persist();
}

function showOptions() {
  $('premiums').checked = state.premiums;
  $('count').checked = state.count;
  $('equity').checked = state.equity;
  $('group').checked = state.group;
  $('plural').checked = state.plural_rule;
  $('limit').value = state.limit;
  $('f-min').value = state.filters.min_length;
  $('f-contains').value = state.filters.contains;
  $('f-noblanks').checked = state.filters.no_blanks;
  $('f-square').textContent = state.filters.square ? `${state.filters.square[0]}${COLS[state.filters.square[1] - 1]}` : 'any';
  showFiltersOn();
}

// The folded filters say how many are on, and open when one is.
function showFiltersOn() {
  const f = state.filters;
  const on = [f.min_length > 0, !!f.contains, !!f.square, f.no_blanks].filter(Boolean).length;
  $('filters-on').textContent = on ? `(${on} on)` : '';
  if (on) $('filters-box').open = true;
}

function setFilterSquare(sq) {
  state.filters.square = sq;
  board.filterSquare = sq;
  board.render();
  showOptions();
  persist();
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    flash(button, 'Copied');
  } catch {
    window.prompt('Copy this:', text);
  }
}

function flash(button, text) {
  const old = button.textContent;
  button.textContent = text;
  setTimeout(() => { button.textContent = old; }, 1200);
}

// The API checks pasted text (size, characters, heights against letters) and its message,
// naming the row and column, is shown as is.
async function pasteBoard() {
  clearErrors('text-error');
  const lines = (id) => $(id).value.split(/\r?\n/).map((r) => r.trim()).filter((r) => r && !r.startsWith('#'));
  const rows = lines('board-text');
  const heights = board.info.stacking && lines('heights-text').length ? lines('heights-text') : null;
  const body = { board: rows };
  if (heights) body.heights = heights;
  try {
    await api.unseen(state.game, body);
  } catch (err) {
    if (err.code !== 'too_many_tiles') { showError('text-error', err); return; }
  }
  board.load(rows, heights);
  board.changed();
  setResults([], null);
}

// A position from the API (a CGP read, a turn of an analysed game): board, heights, rack and the
// tiles to show as new.
function loadPosition({ board: rows, heights = null, rack = '', tiles = null }) {
  $('rack').value = rack;
  board.load(rows, heights);
  board.changed();
  setResults([], null);
  board.preview = tiles;
  board.render();
}

// What the CGP and analysis panels (cgp.js, analyze.js) may see and do.
const pageApi = {
  board,
  game: () => state.game,
  setGame: (name) => setGame(name, false),
  rack: () => $('rack').value,
  position,
  loadPosition,
  lexicon: () => state.lexicon || defaultLexicon,
  lexiconOverride: () => state.lexicon,
  lexicons: () => [...$('lexicon').options].map((o) => o.value),
  setLexicon: (name) => { $('lexicon').value = name; readOptions(); showLexicon(name); },
  showError,
  clearErrors,
  copy,
};
const panels = {};

// For the page's other modules (simulate.js, endgame.js): `import { current, page } from './main.js'`.
// current() is a read-only copy of the position: {game, board (rows, null when empty), heights
// (Upwords rows, else null), rack, lexicon (the list the page's requests name, '' for the
// server's default), lexiconName (the list in use), premiums, plural_rule, move (the selected play,
// exchange or pass as the API gave it, or null)}. The same object is the detail of the events
// 'page:selected' (a play was selected) and 'page:solved' (plus request and answer) on document.
// `page` gives the panels' surface (loadPosition, showError, api, ...). Buttons for the selected
// play go in #selected-actions, panels in #extra-panels.
export function current() {
  const pos = position();
  return Object.freeze({
    game: state.game, board: pos.board, heights: pos.heights ?? null, rack: $('rack').value,
    lexicon: state.lexicon, lexiconName: state.lexicon || defaultLexicon, premiums: state.premiums,
    plural_rule: state.plural_rule, move: selected ? structuredClone(selected) : null,
  });
}
export const page = { ...pageApi, selected: () => selected, scoring, requestBody, api };

function wire() {
  panels.cgp = initCgp(pageApi);
  panels.analyze = initAnalyze(pageApi);
  $('game').addEventListener('change', () => setGame($('game').value, games.get($('game').value).size === board.size
    && !games.get($('game').value).stacking && !board.info.stacking).catch((err) => showError('page-error', err)));
  $('solve-form').addEventListener('submit', (e) => { e.preventDefault(); solve(); });
  $('rack').addEventListener('input', () => {
    clearErrors('rack-error');
    const el = $('rack');
    const pos = el.selectionStart;
    el.value = el.value.toUpperCase();
    el.setSelectionRange(pos, pos);
    history.setRack(el.value);
    persist();
    scheduleUnseen();
  });
  for (const id of ['premiums', 'count', 'equity', 'group', 'plural', 'limit', 'lexicon', 'f-min', 'f-contains', 'f-noblanks']) $(id).addEventListener('change', readOptions);
  $('dir').addEventListener('click', () => board.toggleDir());
  $('blank-toggle').addEventListener('click', () => board.toggleBlank());
  $('height').addEventListener('change', () => board.setHeight(board.cursor, Number($('height').value)));
  $('clear-board').addEventListener('click', () => { board.clear(); setResults([], null); });
  $('share').addEventListener('click', () => copy(shareUrl(state), $('share')));
  $('paste-board').addEventListener('click', () => { pasteBoard(); });
  // Ctrl+V on the board takes a whole board as text (rows on separate lines).
  $('board').addEventListener('paste', (e) => {
    const text = e.clipboardData ? e.clipboardData.getData('text') : '';
    e.preventDefault();
    if (!/\n/.test(text.trim())) return;
    $('board-text').value = text;
    document.querySelector('details.board-text').open = true;
    pasteBoard();
  });
  $('copy-board').addEventListener('click', () => copy(board.rows().join('\n'), $('copy-board')));
  $('play-it').addEventListener('click', playIt);
  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  // Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y (Cmd on a Mac) anywhere but in a text field, which keeps its own
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k !== 'z' && k !== 'y') return;
    const t = e.target;
    const field = t && (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && !t.classList.contains('key') && t.type !== 'checkbox'));
    if (field) return;
    e.preventDefault();
    if (k === 'y' || e.shiftKey) redo(); else undo();
  });
  $('back-to-plays').addEventListener('click', () => {
    const row = $('results').querySelector('tr.sel button.pick') || $('results').querySelector('button.pick');
    if (row) { row.closest('tr').scrollIntoView({ block: 'center', behavior: 'instant' }); row.focus({ preventScroll: true }); }
  });
  $('own-list-link').addEventListener('click', () => { $('own-list-box').open = true; });
  $('compare-btn').addEventListener('click', compareSelected);
  $('f-square-set').addEventListener('click', () => setFilterSquare(board.cursorSquare()));
  $('f-square-clear').addEventListener('click', () => setFilterSquare(null));
  $('check-form').addEventListener('submit', (e) => { e.preventDefault(); checkPlay(); });
  $('c-cursor').addEventListener('click', () => {
    const [r, c] = board.cursorSquare();
    $('c-row').value = r;
    $('c-col').value = c;
    $('c-dir').value = board.dir;
  });
}

async function start() {
  wire();
  showOptions();
  $('rack').value = state.rack || '';
  try {
    const [list, lexicons] = await Promise.all([api.games(), api.lexicons()]);
    for (const g of list.games) games.set(g.name, g);
    $('game').replaceChildren(...list.games.map((g) => h('option', { value: g.name }, g.title.split(' (')[0])));
    panels.analyze.setGames(list.games, games.has(state.game) ? state.game : 'crossplay');
    defaultLexicon = lexicons.default;
    lexiconList = lexicons.lexicons;
    $('lexicon').addEventListener('change', () => showLexicon($('lexicon').value));
    $('lexicon').replaceChildren(...lexicons.lexicons.map((l) => h('option', { value: l.name }, l.name)));
    $('lexicon').value = state.lexicon || lexicons.default;
    $('lexicon-field').hidden = lexicons.lexicons.length < 2;
    showLexicon(state.lexicon || lexicons.default);
    if (!games.has(state.game)) state.game = 'crossplay';
    await setGame(state.game, true);
    updateCursorControls();
    document.body.classList.add('ready');
  } catch (err) {
    showError('page-error', err);
  }
}

start();
