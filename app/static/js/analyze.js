// Analyze a game: a GCG record in (pasted or from a file), POST /v1/games/{game}/analyze's grade
// out as a table. A turn's button loads the board before that turn (the API's own rows) with the
// tiles played shown as new tiles. Every number is the API's.

import { api } from './api.js';
import { h, wordHtml } from './results.js';

const $ = (id) => document.getElementById(id);

// A record as text: UTF-8, or ISO-8859-1 (older Quackle files) when it is not valid UTF-8.
async function fileText(file) {
  const bytes = await file.arrayBuffer();
  try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { return new TextDecoder('iso-8859-1').decode(bytes); }
}

// Lexicons of the Scrabble family (Woogles, Macondo and Quackle name these in #lexicon).
const SCRABBLE_LEXICONS = /^(NWL|TWL|OWL|OTCWL|OSPD|CSW|SOWPODS|COLLINS|ECWL|CEL|NSWL|FRA|ODS|RD|FISE|DISC|OSPS|NSF)/i;

function pragmas(text) {
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^#([A-Za-z0-9_-]+)\s+(.*\S)\s*$/.exec(line);
    if (m && !(m[1].toLowerCase() in out)) out[m[1].toLowerCase()] = m[2];
  }
  return out;
}

const squash = (v) => v.toLowerCase().replace(/[^a-z0-9]/g, '');

// The game a record names: a #game, #variant or #game-type pragma naming one of the server's
// games, or a #lexicon of the Scrabble family. Null when the record does not say.
export function gameFromRecord(text, games) {
  const p = pragmas(text);
  for (const key of ['game', 'variant', 'game-type', 'gametype']) {
    if (!p[key]) continue;
    const v = squash(p[key]);
    const g = games.find((x) => v === squash(x.name) || v === squash(x.title.split(' (')[0]));
    if (g) return { game: g.name, why: `the record's #${key} ${p[key]}` };
  }
  if (p.lexicon && SCRABBLE_LEXICONS.test(p.lexicon)) {
    const g = games.find((x) => x.name === 'scrabble');
    if (g) return { game: g.name, why: `the record's #lexicon ${p.lexicon}, a Scrabble word list` };
  }
  return null;
}

// A play in the record's notation ('12E .EODARAS': '.' a tile already there) as the whole word,
// read off the board before the turn, with those letters marked as the results table marks them.
// Anything else (an exchange, a pass) is shown as written.
export function readablePlay(play, rows) {
  const m = /^(?:(\d+)([A-Z])|([A-Z])(\d+)) (\S+)$/.exec(play || '');
  if (!m || !rows) return { html: null, text: play };
  const across = !!m[1];
  let r = Number(across ? m[1] : m[4]) - 1;
  let c = (across ? m[2] : m[3]).charCodeAt(0) - 65;
  let word = '';
  const old = [];
  for (const ch of m[5]) {
    const there = rows[r] ? rows[r][c] : undefined;
    if (ch === '.' && there && there !== '.') { word += there; old.push(true); } else { word += ch; old.push(ch === '.'); }
    if (across) c += 1; else r += 1;
  }
  const nota = across ? `${m[1]}${m[2]}` : `${m[3]}${m[4]}`;
  return { html: `<span class="nota">${nota}</span> ${wordHtml(word, old)}`, text: `${nota} ${word.toUpperCase()}` };
}

function playEl(play, rows, cls = '') {
  const r = readablePlay(play, rows);
  const el = h('span', { class: cls || null });
  if (r.html) el.innerHTML = r.html; else el.textContent = play;
  return { el, text: r.text };
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// Each player's chance of winning after every turn (the API's `win.after` is the mover's; the
// other player's is its complement), as a small inline SVG line graph: one point per turn and
// player, 50% dashed. Null when the grade has no win figures (Upwords).
export function winGraph(out) {
  const turns = out.turns;
  if (!turns.length || turns.some((t) => !t.win) || out.players.length !== 2) return null;
  const W = 480, H = 170, L = 46, R = 8, T = 8, B = 20;
  const x = (i) => L + (turns.length === 1 ? 0 : (i * (W - L - R)) / (turns.length - 1));
  const y = (p) => T + (1 - p) * (H - T - B);
  const colors = ['#0f6e66', '#c0472f'];
  const lines = out.players.map((pl, p) => {
    const pts = turns.map((t, i) => `${x(i).toFixed(1)},${y(t.player === p ? t.win.after : 1 - t.win.after).toFixed(1)}`);
    return svg('polyline', { points: pts.join(' '), fill: 'none', stroke: colors[p], 'stroke-width': 2, 'data-player': p, class: 'win-line' });
  });
  const marks = turns.filter((t) => t.win.mistake).map((t) => svg('circle', {
    cx: x(turns.indexOf(t)).toFixed(1), cy: y(t.win.after).toFixed(1), r: t.win.mistake === 'large' ? 4 : 3,
    fill: colors[t.player], class: `win-mistake ${t.win.mistake}` }, svg('title', {}, `Turn ${t.turn}, ${t.name}: ${t.win.mistake} mistake, −${(100 * t.win.lost).toFixed(1)}%`)));
  const grid = [0, 0.5, 1].map((p) => [svg('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: '#cfc8b8', 'stroke-dasharray': p === 0.5 ? '4 3' : '' }),
    svg('text', { x: L - 4, y: y(p) + 4, 'text-anchor': 'end', 'font-size': 13, fill: '#5f6670' }, `${Math.round(p * 100)}%`)]).flat();
  const axis = svg('text', { x: W - R, y: H - 4, 'text-anchor': 'end', 'font-size': 13, fill: '#5f6670' }, `turn ${turns.length}`);
  const first = svg('text', { x: L, y: H - 4, 'font-size': 13, fill: '#5f6670' }, 'turn 1');
  const last = turns[turns.length - 1];
  const end = out.players.map((pl, p) => `${pl.name} ${Math.round(100 * (last.player === p ? last.win.after : 1 - last.win.after))}%`).join(', ');
  const label = `Win % over the game, after each of ${turns.length} turns; after the last: ${end}.`;
  const graph = svg('svg', { viewBox: `0 0 ${W} ${H}`, id: 'a-win-graph', role: 'img', 'aria-label': label },
    svg('title', {}, label), ...grid, first, axis, ...lines, ...marks);
  const legend = h('p', { class: 'win-legend' }, out.players.map((pl, p) => h('span', { class: 'win-key' },
    h('span', { class: `swatch p${p}` }), ` ${pl.name}`)),
    h('span', { class: 'muted' }, ' · dots: mistakes. The static win table by spread and tiles unseen, not a simulation.'));
  return h('figure', { class: 'win-figure' }, h('figcaption', {}, 'Win % after each turn'), graph, legend);
}

// A turn's win figures: the mover's win % after it, the win % lost against the best play and the mistake size.
function winCell(w) {
  if (!w) return '–';
  const shown = w.lost ? (100 * w.lost).toFixed(1) : '0.0';
  const lost = shown !== '0.0' ? ` −${shown}` : '';
  return [`${Math.round(100 * w.after)}%${lost}`, w.mistake ? h('span', { class: `mistake ${w.mistake}`, 'data-mistake': w.mistake }, ` ${w.mistake}`) : null];
}

function dash(v) { return v === null || v === undefined ? '–' : String(v); }

export function initAnalyze(page) {
  let result = null;
  let games = [];
  let why = ''; // how the record's game was chosen
  let shown = null; // the turn whose position is on the board

  function summary(out) {
    const totals = h('table', { class: 'a-players' },
      h('caption', {}, 'Totals'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Recorded'),
        h('th', { scope: 'col', class: 'num' }, 'Re-scored'), h('th', { scope: 'col', class: 'num' }, 'Points left'))),
      h('tbody', {}, out.players.map((p) => h('tr', {},
        h('th', { scope: 'row' }, p.name), h('td', { class: 'num' }, String(p.recorded)),
        h('td', { class: `num${p.recorded === p.rescored ? '' : ' bad'}` }, String(p.rescored)),
        h('td', { class: 'num' }, String(p.points_left))))));
    const d = out.first_difference;
    const agree = out.scores_agree
      ? h('p', { class: 'ok', id: 'a-agree' }, '✓ The recorded cumulative scores agree with the re-scored ones.')
      : h('p', { class: 'bad', id: 'a-agree' }, `✗ The recorded scores differ first at line ${d.line} (turn ${d.turn}, ${out.players[d.player].name}): `
        + `recorded ${d.recorded}, re-scored ${d.rescored}.`);
    const notes = [...out.notes];
    if (out.cut_short) notes.unshift(`${out.cut_short} turn${out.cut_short === 1 ? ' was' : 's were'} not searched: the time budget ran out (marked ⏱).`);
    const title = (games.find((g) => g.name === out.game) || { title: out.game }).title.split(' (')[0];
    const said = pragmas($('gcg').value).lexicon;
    const lexNote = said && said.toLowerCase() !== out.lexicon.toLowerCase()
      ? ` The record names the word list ${said}; this server has no such list, so words were judged with ${out.lexicon}.` : '';
    return [h('p', { id: 'a-game-why', class: 'a-game' }, h('strong', {}, `Graded as ${title}`), why ? ` (${why})` : '', `, word list ${out.lexicon}.${lexNote}`),
      totals, winGraph(out), agree, notes.length ? h('ul', { class: 'a-notes' }, notes.map((n) => h('li', {}, n))) : null,
      h('p', { class: 'muted' }, 'Select a turn to see the position before it on the board.')];
  }

  function turnRow(t, out) {
    const differs = out.first_difference && out.first_difference.turn === t.turn;
    const shownPlay = playEl(t.play, t.board);
    const label = `Show turn ${t.turn} on the board: ${t.name}, ${shownPlay.text}`;
    const pick = h('button', { type: 'button', class: 'pick', 'data-turn': t.turn, 'data-play': t.play, 'aria-pressed': 'false', 'aria-label': label }, shownPlay.el);
    pick.addEventListener('click', () => show(t));
    pick.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      e.preventDefault();
      const next = $('a-turns').querySelector(`button.pick[data-turn="${t.turn + (e.key === 'ArrowDown' ? 1 : -1)}"]`);
      if (next) next.focus();
    });
    const valid = t.valid === null ? '–' : t.valid ? 'yes' : `no: ${t.invalid_words.join(', ')}`;
    const scoreDiffers = t.score !== null && t.kind === 'play' && t.score !== t.recorded_score;
    const best = t.best[0];
    const row = h('tr', { class: [t.cut_short ? 'cut' : '', differs ? 'differs' : '', t.kind === 'withdrawn' ? 'withdrawn' : ''].join(' ').trim() || null,
      'data-turn': t.turn },
      h('td', { class: 'num' }, String(t.turn)),
      h('td', {}, t.name),
      h('td', { class: 'rack' }, t.rack || '?'),
      h('td', { class: 'play' }, pick, t.kind === 'withdrawn' ? h('span', { class: 'muted' }, ' (withdrawn)') : null),
      h('td', { class: 'num' }, String(t.recorded_score)),
      h('td', { class: `num${scoreDiffers ? ' bad' : ''}` }, t.kind === 'play' || t.kind === 'withdrawn' ? dash(t.score) : '–', scoreDiffers ? h('span', { class: 'mark' }, ' ≠') : null),
      h('td', { class: t.valid === false ? 'bad' : '' }, valid),
      h('td', { class: 'num' }, t.cut_short ? h('span', { title: 'not searched: the time budget ran out' }, '⏱ not searched') : t.rank === null ? '–' : `${t.rank} of ${t.total_plays}`),
      h('td', { class: 'best' }, best ? [playEl(best.play, t.board).el, ` ${best.score}`] : '–'),
      h('td', { class: 'num left' }, dash(t.points_left), endgameMark(t.endgame)),
      h('td', { class: 'num win' }, winCell(t.win)));
    return row;
  }

  // A turn played with the bag empty, graded by the endgame solver (the API's `endgame`): a check
  // when the play was the best, else the points lost; the title says the solver's best first move.
  function endgameMark(e) {
    if (!e) return null;
    const sure = e.proved ? '' : ' (not proved: the best found in the time given)';
    const title = e.blown
      ? `Blown endgame: ${e.points_lost} points lost against the solver's best, ${e.best_play} (${e.value_best > 0 ? '+' : ''}${e.value_best})${sure}`
      : `Endgame: the best play${sure}`;
    return h('span', { class: e.blown ? 'mark bad endgame' : 'mark endgame', title, 'aria-label': title },
      e.blown ? ` endgame −${e.points_lost}` : ' endgame ✓');
  }

  function render(out) {
    $('a-summary').replaceChildren(...summary(out).filter(Boolean));
    $('a-turns').tBodies[0].replaceChildren(...out.turns.map((t) => turnRow(t, out)));
    $('a-result').hidden = false;
  }

  // The record names no game: grade it as each game (Scrabble first, the CLI's default) until one
  // re-scores every turn as recorded. None does: the one whose scores agree longest, Scrabble on a tie.
  async function byScores(body) {
    const order = ['scrabble', ...games.map((g) => g.name).filter((n) => n !== 'scrabble')];
    const tried = [];
    let firstError = null;
    for (const name of order) {
      const title = games.find((g) => g.name === name).title.split(' (')[0];
      $('a-status').textContent = `Analyzing… trying ${title}: the record names no game, so the one whose scores match it is chosen.`;
      let out;
      try {
        out = await api.analyze(name, body);
      } catch (err) {
        if (err.code === 'busy' || err.status === 0) throw err;
        firstError = firstError || err;
        continue;
      }
      out.game = name;
      if (out.scores_agree) {
        why = `the record names no game; its scores match it as ${title}${tried.length ? `, not as ${tried.map((t) => t.title).join(' or ')}` : ''}`;
        return out;
      }
      tried.push({ title, out });
    }
    if (!tried.length) throw firstError;
    const reach = (o) => (o.first_difference ? o.first_difference.turn : Infinity);
    const pick = tried.reduce((a, b) => (reach(b.out) > reach(a.out) ? b : a));
    why = `the record names no game and its scores match no game all through; as ${pick.title} they agree longest`;
    return pick.out;
  }

  async function show(t) {
    if (page.game() !== result.game) await page.setGame(result.game);
    page.loadPosition({ board: t.board, heights: t.heights, rack: t.rack || '', tiles: t.tiles.length ? t.tiles : null });
    shown = t;
    for (const b of $('a-turns').querySelectorAll('button.pick')) {
      const on = Number(b.dataset.turn) === t.turn;
      b.setAttribute('aria-pressed', String(on));
      b.closest('tr').classList.toggle('sel', on);
    }
    const more = t.best.length > 1 ? ` Best: ${t.best.map((b) => `${readablePlay(b.play, t.board).text} ${b.score}`).join(', ')}.` : '';
    $('board-note-text').textContent = `Before turn ${t.turn} (${t.name}${t.rack ? `, rack ${t.rack}` : ''}): `
      + `${readablePlay(t.play, t.board).text}${t.tiles.length ? ', its tiles shown in green' : ''}.${more}`;
    $('board-note').hidden = false;
    // on a phone the board is pinned inside its area: scroll to the area's top so the board sits in
    // its place with the note under it, not pinned over the note
    if (window.matchMedia('(max-width: 759px)').matches) document.querySelector('.board-area .toolbar').scrollIntoView({ block: 'start' });
    else $('board').scrollIntoView({ block: 'nearest' });
  }

  async function analyze() {
    page.clearErrors('gcg-error');
    const gcg = $('gcg').value;
    if (!gcg.trim()) { page.showError('gcg-error', { message: 'Paste a game record (GCG) or load a file first.' }); return; }
    const choice = $('a-game').value;
    $('a-status').textContent = 'Analyzing… (every turn is searched; a long game takes a few seconds)';
    $('a-submit').disabled = true;
    try {
      const body = { gcg, best: Math.max(1, Math.min(20, Number($('a-best').value) || 3)) };
      const said = pragmas(gcg).lexicon;
      const known = said && page.lexicons().find((l) => l.toLowerCase() === said.toLowerCase());
      if (page.lexiconOverride()) body.lexicon = page.lexiconOverride();
      else if (known) body.lexicon = known;
      if (choice !== 'auto') {
        why = '';
        result = await api.analyze(choice, body);
        result.game = choice;
      } else {
        const named = gameFromRecord(gcg, games);
        if (named) {
          why = `from ${named.why}`;
          result = await api.analyze(named.game, body);
          result.game = named.game;
        } else {
          result = await byScores(body);
        }
      }
      render(result);
      $('a-status').textContent = `${result.turns.length} turns graded.`;
    } catch (err) {
      $('a-status').textContent = '';
      page.showError('gcg-error', err);
    } finally {
      $('a-submit').disabled = false;
    }
  }

  $('analyze-form').addEventListener('submit', (e) => { e.preventDefault(); analyze(); });
  $('gcg').addEventListener('input', () => page.clearErrors('gcg-error'));
  $('gcg-file').addEventListener('change', async () => {
    const file = $('gcg-file').files[0];
    if (!file) return;
    page.clearErrors('gcg-error');
    if (file.size > 200_000) { page.showError('gcg-error', { message: `${file.name} is ${file.size} bytes: not a game record` }); return; }
    $('gcg').value = await fileText(file);
  });
  $('board-note-back').addEventListener('click', () => {
    const b = shown && $('a-turns').querySelector(`button.pick[data-turn="${shown.turn}"]`);
    if (b) b.focus();
  });
  return {
    setGames(list) {
      games = list;
      $('a-game').replaceChildren(h('option', { value: 'auto' }, 'From the record'),
        ...list.map((g) => h('option', { value: g.name }, g.title.split(' (')[0])));
      $('a-game').value = 'auto';
    },
    followGame() { /* the record's game is chosen from the record, not from the board's */ },
  };
}
