// Simulate: POST /v1/games/{game}/simulate for the position on the board, streamed as NDJSON.
// Loaded by its own <script type="module"> line; reaches the page through main.js's current().
// A progress bar and a table that settles as the run goes (win % with its 95% error bar,
// spread ±, iterations), and Stop (the request is aborted; the server stops the run). Every
// number is the API's.

import { current } from './main.js';
import { h, wordEl } from './results.js';

const $ = (id) => document.getElementById(id);
const NDJSON = 'application/x-ndjson';
const REASONS = {
  one_left: 'one candidate left', iterations: 'iteration cap reached', time: 'time budget used',
  exact: 'exact: every iteration is the same', stopped: 'stopped',
};

function pct(x) { return (100 * x).toFixed(1); }
function iters(n) { return `${n} iteration${n === 1 ? '' : 's'}`; }
function signed(x) { return `${x >= 0 ? '+' : ''}${x.toFixed(1)}`; }

// The win share as a bar with its 95% interval drawn over it (CSSOM styles: the page's CSP
// allows no style attributes).
function winBar(c) {
  const bar = h('span', { class: 'sim-bar', 'aria-hidden': 'true' });
  if (c.win === null) return bar;
  const fill = h('span', { class: 'sim-fill' });
  fill.style.width = `${pct(c.win)}%`;
  const half = 1.96 * c.win_se;
  const err = h('span', { class: 'sim-err' });
  err.style.left = `${pct(Math.max(0, c.win - half))}%`;
  err.style.width = `${pct(Math.min(1, c.win + half) - Math.max(0, c.win - half))}%`;
  bar.append(fill, err);
  return bar;
}

function playCell(c) {
  if (c.kind !== 'play') return h('span', {}, c.play);
  const [where, ...word] = c.play.split(' ');
  return h('span', {}, h('span', { class: 'nota' }, where), ' ', wordEl(word.join(' ')));
}

export function initSimulate() {
  const home = $('extra-panels');
  if (!home) return {};
  const root = h('section', { id: 'simulate', class: 'simulate', 'aria-labelledby': 'sim-title' });
  home.append(root);
  let ctrl = null;

  const run = h('button', { type: 'button', id: 'sim-run', class: 'primary' }, 'Simulate');
  const stop = h('button', { type: 'button', id: 'sim-stop', hidden: true }, 'Stop');
  const seconds = h('input', { type: 'number', id: 'sim-seconds', min: '1', max: '10', step: '1', value: '3' });
  const plies = h('input', { type: 'number', id: 'sim-plies', min: '0', max: '10', value: '2' });
  const cands = h('input', { type: 'number', id: 'sim-candidates', min: '1', max: '40', value: '10' });
  const seed = h('input', { type: 'number', id: 'sim-seed', min: '0', value: '0' });
  const cap = h('input', { type: 'number', id: 'sim-iterations', min: '1', max: '100000', value: '1000' });
  const progress = h('progress', { id: 'sim-progress', max: '1', value: '0', hidden: true });
  const status = h('p', { id: 'sim-status', class: 'muted', role: 'status', 'aria-live': 'polite' },
    'Simulates the best plays by equity against many possible racks of the opponent: win % and spread.');
  const error = h('p', { id: 'sim-error', class: 'error', role: 'alert', hidden: true });
  const tbody = h('tbody');
  const table = h('table', { id: 'sim-table', class: 'sim-table', hidden: true },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Play'), h('th', { scope: 'col', class: 'num' }, 'Win %'),
      h('th', { scope: 'col', class: 'num' }, 'Spread'),
      h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Iterations' }, 'Iter.')))),
    tbody);
  root.append(
    h('h2', { id: 'sim-title' }, 'Simulate'),
    h('div', { class: 'row-buttons sim-controls' }, run, stop,
      h('label', { class: 'lab' }, 'Seconds ', seconds), h('label', { class: 'lab' }, 'Plies ', plies),
      h('label', { class: 'lab' }, 'Candidates ', cands), h('label', { class: 'lab' }, 'Iterations ', cap),
      h('label', { class: 'lab' }, 'Seed ', seed)),
    progress, status, error, h('div', { class: 'table-wrap' }, table));

  function render(snap, budget) {
    progress.value = snap.done ? 1 : Math.min(1, Math.max(snap.seconds / budget, snap.iterations / (Number(cap.value) || 1000)));
    const lead = snap.candidates[0];
    const win = lead && lead.win !== null ? `, win ${pct(lead.win)}%` : '';
    status.textContent = snap.done
      ? `${iters(snap.iterations)} in ${snap.seconds.toFixed(1)} s (${REASONS[snap.reason] || snap.reason}). Best: ${snap.leader}${win}.`
      : `${iters(snap.iterations)}… leader ${snap.leader}${win}`;
    tbody.replaceChildren(...snap.candidates.map((c) => h('tr', { class: c.active ? '' : 'sim-dropped', 'data-play': c.play },
      h('td', { class: 'play' }, playCell(c)),
      h('td', { class: 'num sim-wincell' }, h('span', { class: 'sim-win' }, c.win === null ? '–' : `${pct(c.win)} ± ${pct(1.96 * c.win_se)}`),
        c.win === null ? null : winBar(c)),
      h('td', { class: 'num sim-spread' }, c.spread === null ? '–' : `${signed(c.spread)} ± ${(1.96 * c.spread_se).toFixed(1)}`),
      h('td', { class: 'num sim-iter' }, String(c.iterations), c.active ? '' : h('span', { class: 'muted sim-dropword' }, ' dropped')))));
    table.hidden = false;
  }

  function finish() {
    ctrl = null;
    run.disabled = false;
    stop.hidden = true;
    root.classList.remove('running');
  }

  async function simulate() {
    if (ctrl) ctrl.abort();
    error.hidden = true;
    const budget = Number(seconds.value) || 3;
    const now = current();
    const body = { board: now.board, rack: now.rack, seconds: budget, plies: Number(plies.value),
      candidates: Number(cands.value), iterations: Number(cap.value) || 1000, seed: Number(seed.value), stream: true };
    if (now.lexicon) body.lexicon = now.lexicon;
    ctrl = new AbortController();
    const mine = ctrl;
    run.disabled = true;
    stop.hidden = false;
    root.classList.add('running');
    progress.hidden = false;
    progress.value = 0;
    status.textContent = 'Simulating…';
    try {
      const res = await fetch(`/v1/games/${encodeURIComponent(now.game)}/simulate`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: NDJSON }, body: JSON.stringify(body), signal: mine.signal,
      });
      if (!res.ok) {
        let err = null;
        try { err = (await res.json()).error; } catch { /* not JSON */ }
        throw new Error(err ? err.message : `the service answered ${res.status}`);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) render(JSON.parse(line), budget);
        }
      }
      root.dataset.done = 'true';
    } catch (e) {
      if (e.name === 'AbortError') {
        status.textContent = `${status.textContent.replace(/….*$/, '')} Stopped.`;
      } else {
        error.textContent = e.message;
        error.hidden = false;
        status.textContent = '';
      }
    } finally {
      if (ctrl === mine) finish();
    }
  }

  run.addEventListener('click', () => { delete root.dataset.done; simulate(); });
  stop.addEventListener('click', () => { if (ctrl) ctrl.abort(); });
  return { simulate };
}

initSimulate();
