// The board: drawn from the game's ruleset (GET /v1/games/{game}) and edited like a crossword.
// Each square is an <input> (roving tabindex) so phones open their keyboard and screen readers
// read a name such as "row 8, column F, double letter, empty".

const COLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const PREMIUM_NAMES = { DL: 'double letter', TL: 'triple letter', DW: 'double word', TW: 'triple word' };

export class BoardView {
  constructor(el, { onChange, onEnter, onCursor }) {
    this.el = el;
    this.onChange = onChange;
    this.onEnter = onEnter;
    this.onCursor = onCursor || (() => {});
    this.info = null;
    this.cells = [];
    this.heights = [];
    this.cursor = 0;
    this.dir = 'across';
    this.preview = null; // tiles of a result shown on the board
    this.mark = null; // [row, col] named by an error
    this.filterSquare = null; // [row, col] of the square filter
    this.warn = new Set(); // squares the API's warnings name
    this.squares = [];
  }

  get size() { return this.info ? this.info.size : 0; }

  setGame(info, rows, heights) {
    this.info = info;
    const n = info.size;
    this.premium = new Map();
    for (const [kind, list] of Object.entries(info.premiums)) for (const [r, c] of list) this.premium.set((r - 1) * n + c - 1, kind);
    this.start = new Set(info.start.map(([r, c]) => (r - 1) * n + c - 1));
    this.load(rows, heights);
    this.cursor = Math.min(this.cursor, n * n - 1);
    this.build();
  }

  // Board rows and heights rows in the API's text form; false when they do not fit this game.
  load(rows, heights) {
    const n = this.size;
    const ok = Array.isArray(rows) && rows.length === n && rows.every((r) => typeof r === 'string' && r.length === n
      && (this.info.stacking ? /^[.A-Z]*$/ : /^[.A-Za-z]*$/).test(r));
    this.cells = ok ? rows.join('').split('') : Array(n * n).fill('.');
    const hok = ok && Array.isArray(heights) && heights.length === n && heights.every((r) => typeof r === 'string' && r.length === n && /^[0-9]*$/.test(r));
    const digits = hok ? heights.join('') : '';
    this.heights = this.cells.map((ch, i) => (ch === '.' ? 0 : hok ? Math.max(1, Number(digits[i])) : 1));
    return ok;
  }

  rows() {
    const n = this.size;
    return Array.from({ length: n }, (_, r) => this.cells.slice(r * n, r * n + n).join(''));
  }

  heightRows() {
    if (!this.info.stacking) return null;
    const n = this.size;
    return Array.from({ length: n }, (_, r) => this.heights.slice(r * n, r * n + n).join(''));
  }

  isEmpty() { return this.cells.every((ch) => ch === '.'); }

  build() {
    const n = this.size;
    this.el.textContent = '';
    this.el.style.setProperty('--n', n);
    this.el.classList.toggle('stacking', this.info.stacking);
    this.squares = [];
    for (let r = 0; r < n; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      row.className = 'brow';
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const sq = document.createElement('div');
        sq.setAttribute('role', 'gridcell');
        sq.className = 'sq';
        const kind = this.premium.get(i);
        if (kind) sq.classList.add(`p-${kind}`);
        if (this.start.has(i)) sq.classList.add('start');
        const input = document.createElement('input');
        input.type = 'text';
        input.className = 'key';
        input.autocomplete = 'off';
        input.spellcheck = false;
        input.setAttribute('autocapitalize', 'characters');
        input.tabIndex = -1;
        input.dataset.i = i;
        const lbl = document.createElement('span');
        lbl.className = 'lbl';
        lbl.setAttribute('aria-hidden', 'true');
        lbl.textContent = `${this.start.has(i) ? '★' : ''}${this.start.has(i) && kind ? ' ' : ''}${kind || ''}`;
        const ltr = document.createElement('span');
        ltr.className = 'ltr';
        ltr.setAttribute('aria-hidden', 'true');
        const val = document.createElement('span');
        val.className = 'val';
        val.setAttribute('aria-hidden', 'true');
        const h = document.createElement('span');
        h.className = 'h';
        h.setAttribute('aria-hidden', 'true');
        sq.append(lbl, ltr, val, h, input);
        row.append(sq);
        input.addEventListener('keydown', (e) => this.key(e, i));
        input.addEventListener('input', (e) => this.typed(e, i));
        input.addEventListener('mousedown', (e) => {
          if (document.activeElement === input) { e.preventDefault(); this.toggleDir(); }
        });
        input.addEventListener('focus', () => this.moveTo(i, false));
        this.squares.push({ sq, input, ltr, val, h });
      }
      this.el.append(row);
    }
    this.render();
  }

  name(i) {
    const n = this.size;
    const parts = [`row ${Math.floor(i / n) + 1}, column ${COLS[i % n]}`];
    if (this.start.has(i)) parts.push('start square');
    const kind = this.premium.get(i);
    if (kind) parts.push(PREMIUM_NAMES[kind]);
    const p = this.previewAt(i);
    const ch = this.cells[i];
    if (this.info.stacking && ch !== '.') parts.push(`stack ${this.heights[i]}`);
    if (ch !== '.') parts.push(ch === ch.toLowerCase() ? `blank as ${ch.toUpperCase()}` : `tile ${this.face(ch)}`);
    else if (!p) parts.push('empty');
    if (p) parts.push(p.blank ? `new blank as ${p.letter.toUpperCase()}` : `new tile ${this.face(p.letter)}`);
    if (this.mark && this.mark[0] === Math.floor(i / n) + 1 && this.mark[1] === i % n + 1) parts.push('has an error');
    if (this.warn.has(i)) parts.push('flagged by a warning');
    return parts.join(', ');
  }

  face(ch) { return this.info.qu_tile && /^qu?$/i.test(ch) ? 'Qu' : ch.toUpperCase(); }

  previewAt(i) {
    if (!this.preview) return null;
    const n = this.size;
    return this.preview.find((t) => (t.row - 1) * n + t.col - 1 === i) || null;
  }

  render() {
    const n = this.size;
    const line = this.lineOf(this.cursor);
    for (let i = 0; i < n * n; i++) {
      const { sq, input, ltr, val, h } = this.squares[i];
      const p = this.previewAt(i);
      const ch = p ? p.letter : this.cells[i];
      const blank = ch !== '.' && ch === ch.toLowerCase();
      ltr.textContent = ch === '.' ? '' : this.face(ch);
      const v = this.info.letter_values[ch.toUpperCase()];
      val.textContent = ch === '.' || this.info.stacking ? '' : blank ? '0' : String(v ?? '');
      const height = p ? this.heights[i] + 1 : this.heights[i];
      h.textContent = this.info.stacking && height > 0 ? String(height) : '';
      sq.classList.toggle('tile', ch !== '.');
      sq.classList.toggle('blank', blank);
      sq.classList.toggle('preview', !!p);
      sq.classList.toggle('cursor', i === this.cursor);
      sq.classList.toggle('line', line.has(i));
      sq.classList.toggle('err', !!this.mark && this.mark[0] === Math.floor(i / n) + 1 && this.mark[1] === i % n + 1);
      sq.classList.toggle('warn', this.warn.has(i));
      sq.classList.toggle('fsq', !!this.filterSquare && this.filterSquare[0] === Math.floor(i / n) + 1 && this.filterSquare[1] === i % n + 1);
      sq.dataset.h = height;
      input.tabIndex = i === this.cursor ? 0 : -1;
      input.setAttribute('aria-label', this.name(i));
    }
    this.el.dataset.dir = this.dir;
  }

  // The squares of the cursor's word-in-progress line (same row or column, contiguous filled run).
  lineOf(i) {
    const n = this.size;
    const step = this.dir === 'across' ? 1 : n;
    const set = new Set([i]);
    const inLine = (a, b) => (this.dir === 'across' ? Math.floor(a / n) === Math.floor(b / n) : true);
    for (let j = i - step; j >= 0 && inLine(i, j) && this.cells[j] !== '.'; j -= step) set.add(j);
    for (let j = i + step; j < n * n && inLine(i, j) && this.cells[j] !== '.'; j += step) set.add(j);
    return set;
  }

  cursorSquare() { const n = this.size; return [Math.floor(this.cursor / n) + 1, this.cursor % n + 1]; }

  moveTo(i, focus = true) {
    this.cursor = i;
    this.render();
    if (focus) this.squares[i].input.focus();
    this.onCursor();
  }

  step(i, delta, dir = this.dir) {
    const n = this.size;
    const r = Math.floor(i / n), c = i % n;
    const [dr, dc] = dir === 'across' ? [0, delta] : [delta, 0];
    const nr = r + dr, nc = c + dc;
    if (nr < 0 || nc < 0 || nr >= n || nc >= n) return i;
    return nr * n + nc;
  }

  setDir(dir) { this.dir = dir; this.render(); this.onCursor(); }
  toggleDir() { this.setDir(this.dir === 'across' ? 'down' : 'across'); }

  set(i, ch, height) {
    this.cells[i] = ch;
    this.heights[i] = ch === '.' ? 0 : height ?? Math.max(1, this.heights[i]);
    this.changed();
  }

  changed() { this.preview = null; this.mark = null; this.render(); this.onChange(); }

  toggleBlank(i = this.cursor) {
    const ch = this.cells[i];
    if (ch === '.' || this.info.stacking || !this.info.blanks) return;
    this.set(i, ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase());
  }

  setHeight(i, h) {
    if (!this.info.stacking || this.cells[i] === '.') return;
    this.heights[i] = Math.max(1, Math.min(this.info.max_height, h));
    this.changed();
  }

  clear() { this.cells.fill('.'); this.heights.fill(0); this.changed(); }

  place(i, letter, blank) {
    const ch = blank && !this.info.stacking && this.info.blanks ? letter.toLowerCase() : letter.toUpperCase();
    this.set(i, ch);
    this.moveTo(this.step(i, 1));
  }

  typed(e, i) {
    // Phones send 'input' rather than usable key events: take the typed letter from the field.
    const text = e.target.value;
    e.target.value = '';
    const m = /[A-Za-z]/.exec(text || '');
    if (m) this.place(i, m[0], false);
  }

  key(e, i) {
    const k = e.key;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[A-Za-z]$/.test(k)) {
      e.preventDefault();
      this.place(i, k, e.shiftKey);
    } else if (k === 'Backspace') {
      e.preventDefault();
      if (this.cells[i] !== '.') { this.set(i, '.'); return; }
      const j = this.step(i, -1);
      this.set(j, '.');
      this.moveTo(j);
    } else if (k === 'Delete') {
      e.preventDefault();
      this.set(i, '.');
    } else if (k === ' ') {
      e.preventDefault();
      this.toggleDir();
    } else if (k === '?') {
      e.preventDefault();
      this.toggleBlank(i);
    } else if (k === 'Enter') {
      e.preventDefault();
      this.onEnter();
    } else if (k.startsWith('Arrow')) {
      e.preventDefault();
      const dir = k === 'ArrowLeft' || k === 'ArrowRight' ? 'across' : 'down';
      const delta = k === 'ArrowLeft' || k === 'ArrowUp' ? -1 : 1;
      this.dir = dir;
      this.moveTo(this.step(i, delta, dir));
    } else if (/^[0-9]$/.test(k) && this.info.stacking) {
      e.preventDefault();
      if (k === '0') this.set(i, '.');
      else this.setHeight(i, Number(k));
    } else if (k === 'Home' || k === 'End') {
      e.preventDefault();
      const n = this.size;
      const r = Math.floor(i / n);
      this.moveTo(k === 'Home' ? r * n : r * n + n - 1);
    }
  }
}
