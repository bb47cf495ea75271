// The page's state, saved to localStorage and mirrored in the URL so a link reopens the position.

const KEY = 'wordsolver.page.v1';

export function defaults() {
  return {
    game: 'crossplay', board: null, heights: null, rack: '', premiums: true, count: false, equity: false, group: true, limit: 20, plural_rule: true,
    lexicon: '', filters: { min_length: 0, contains: '', square: null, no_blanks: false },
  };
}

function fromUrl(params) {
  const s = {};
  if (params.has('game')) s.game = params.get('game');
  if (params.has('board')) s.board = params.get('board').split('-');
  if (params.has('heights')) s.heights = params.get('heights').split('-');
  if (params.has('rack')) s.rack = params.get('rack');
  if (params.has('premiums')) s.premiums = params.get('premiums') !== '0';
  if (params.has('limit')) s.limit = Number(params.get('limit')) || 20;
  if (params.has('lexicon')) s.lexicon = params.get('lexicon');
  return s;
}

export function load() {
  const s = defaults();
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (saved && typeof saved === 'object') Object.assign(s, saved);
  } catch { /* a damaged entry is ignored */ }
  const params = new URLSearchParams(location.search);
  if (params.has('game')) {
    // A shared link describes a whole position: it replaces what this browser had.
    Object.assign(s, { board: null, heights: null, rack: '' }, fromUrl(params));
  }
  s.filters = Object.assign(defaults().filters, s.filters || {});
  return s;
}

export function shareUrl(s) {
  const p = new URLSearchParams();
  p.set('game', s.game);
  if (s.board && s.board.some((r) => /[^.]/.test(r))) p.set('board', s.board.join('-'));
  if (s.heights && s.heights.some((r) => /[^01]/.test(r))) p.set('heights', s.heights.join('-'));
  if (s.rack) p.set('rack', s.rack);
  if (!s.premiums) p.set('premiums', '0');
  if (s.limit !== 20) p.set('limit', String(s.limit));
  if (s.lexicon) p.set('lexicon', s.lexicon);
  return `${location.origin}${location.pathname}?${p}`;
}

export function save(s) {
  try { localStorage.setItem(KEY, JSON.stringify(s)); } catch { /* private mode: no saving */ }
  history.replaceState(null, '', shareUrl(s));
}
