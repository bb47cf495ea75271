// Position as CGP: paste a CGP line to load its board and rack, or copy the page's position out
// as CGP. Both directions go through POST /v1/games/{game}/cgp; the page never reads or writes
// the format itself.

import { api } from './api.js';

const $ = (id) => document.getElementById(id);

export function initCgp(page) {
  let loaded = null; // the last CGP loaded: kept as is while the board and rack are unchanged

  function info(text) { $('cgp-info').textContent = text; }

  async function load() {
    page.clearErrors('cgp-error');
    info('');
    const text = $('cgp-text').value.trim();
    try {
      const out = await api.cgp(page.game(), { cgp: text });
      const known = out.lexicon && page.lexicons().includes(out.lexicon);
      if (known) page.setLexicon(out.lexicon);
      page.loadPosition({ board: out.board, rack: out.rack });
      loaded = { cgp: out.cgp, key: key() };
      $('cgp-text').value = out.cgp;
      const parts = [`Loaded: rack ${out.rack || '(none)'} to play`, `scores ${out.scores.join('–')}`,
        `${out.zeros} scoreless turn${out.zeros === 1 ? '' : 's'}`];
      if (out.lexicon) parts.push(known ? `word list ${out.lexicon}` : `lex ${out.lexicon} (not on this server: words are judged with ${page.lexicon()})`);
      info(`${parts.join(' · ')}.`);
    } catch (err) {
      page.showError('cgp-error', err);
    }
  }

  function key() { return `${page.game()}|${page.board.rows().join('/')}|${page.rack()}`; }

  async function copyOut() {
    page.clearErrors('cgp-error');
    if (loaded && loaded.key === key()) {
      // Unchanged since it was loaded: give back the whole line, scores and operations included.
      $('cgp-text').value = loaded.cgp;
      info('The position as loaded (scores and operations kept).');
      page.copy(loaded.cgp, $('cgp-copy'));
      return;
    }
    const body = { ...page.position(), rack: page.rack(), lexicon: page.lexicon() };
    try {
      const out = await api.cgp(page.game(), body);
      $('cgp-text').value = out.cgp;
      info(page.board.info.stacking ? 'Scores 0–0; a CGP has no stack heights.' : 'Scores 0–0; the other rack unknown.');
      page.copy(out.cgp, $('cgp-copy'));
    } catch (err) {
      page.showError('cgp-error', err);
    }
  }

  $('cgp-load').addEventListener('click', load);
  $('cgp-copy').addEventListener('click', copyOut);
  $('cgp-text').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); load(); }
  });
  $('cgp-text').addEventListener('input', () => page.clearErrors('cgp-error'));
  return { reset() { loaded = null; info(''); } };
}
