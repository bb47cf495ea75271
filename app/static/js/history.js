// Undo and redo for the position: the board (letters and stack heights) and the rack, one step
// per board edit and per "Play it". The page records each state after it changes; undo goes
// back one state, redo forward, and a new edit after an undo drops the states undone.

export class History {
  constructor(limit = 200) {
    this.limit = limit;
    this.past = [];
    this.future = [];
    this.now = null;
  }

  // Start afresh from this state (a new game: the old states no longer fit the board).
  reset(state) { this.past = []; this.future = []; this.now = state; }

  // The position changed to `state`.
  record(state) {
    if (this.now && same(this.now, state)) return;
    if (this.now) this.past.push(this.now);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
    this.now = state;
  }

  // The rack was typed: the current state's rack follows (typing is not a step of its own).
  setRack(rack) { if (this.now) this.now = { ...this.now, rack }; }

  undo() {
    if (!this.past.length) return null;
    this.future.push(this.now);
    this.now = this.past.pop();
    return this.now;
  }

  redo() {
    if (!this.future.length) return null;
    this.past.push(this.now);
    this.now = this.future.pop();
    return this.now;
  }

  get canUndo() { return this.past.length > 0; }
  get canRedo() { return this.future.length > 0; }
}

function same(a, b) {
  return a.rack === b.rack && a.cells.join('') === b.cells.join('') && a.heights.join(',') === b.heights.join(',');
}
