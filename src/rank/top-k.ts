// The best few rows of a long stream of (score, row) offers: a min-heap on typed arrays whose root is the weakest
// row kept, so an offer that cannot make it costs one comparison and no offer allocates.

/**
 * How equal scores rank. 'lower-row': the lower row ranks higher, a total order, so the rows kept are exactly the
 * best `capacity` by (score desc, row asc) whatever the order of offers. 'none': scores alone decide; an equal
 * score never displaces a kept row, and which of several equal rows stay depends on the order of offers.
 */
export type TieOrder = 'lower-row' | 'none';

/** Typed arrays start at this many slots (or the capacity, if smaller) and double as rows arrive. */
const INITIAL_SLOTS = 1024;

export class TopRows {
  private scores: Float64Array;
  private rows: Float64Array;
  private count = 0;
  private readonly capacity: number;
  private readonly tiesByRow: boolean;

  /** Keeps at most `capacity` rows (none for 0 or less); rows are any numbers a Float64Array holds exactly. */
  constructor(capacity: number, ties: TieOrder = 'lower-row') {
    this.capacity = capacity > 0 ? Math.floor(capacity) : 0;
    this.tiesByRow = ties === 'lower-row';
    const slots = Math.max(1, Math.min(this.capacity, INITIAL_SLOTS));
    this.scores = new Float64Array(slots);
    this.rows = new Float64Array(slots);
  }

  get size(): number {
    return this.count;
  }

  /** Whether an offer must now beat the weakest kept row. */
  get full(): boolean {
    return this.count >= this.capacity;
  }

  /** The weakest kept score (meaningful only while some row is kept). */
  get minScore(): number {
    return this.scores[0]!;
  }

  /** (score, row) ranks below (otherScore, otherRow). */
  private below(score: number, row: number, otherScore: number, otherRow: number): boolean {
    return score < otherScore || (this.tiesByRow && score === otherScore && row > otherRow);
  }

  offer(score: number, row: number): void {
    if (this.count < this.capacity) {
      if (this.count === this.scores.length) this.grow();
      this.siftUp(this.count++, score, row);
      return;
    }
    if (this.count === 0 || !this.below(this.scores[0]!, this.rows[0]!, score, row)) return;
    this.siftDown(score, row);
  }

  /** The kept rows, best first: score desc, equal scores by row asc. */
  sorted(): { row: number; score: number }[] {
    const kept = Array.from({ length: this.count }, (_, i) => ({
      row: this.rows[i]!,
      score: this.scores[i]!,
    }));
    return kept.sort((a, b) => (a.score < b.score ? 1 : a.score > b.score ? -1 : a.row - b.row));
  }

  /** The kept rows in no particular order. */
  unorderedRows(): Float64Array {
    return this.rows.slice(0, this.count);
  }

  clear(): void {
    this.count = 0;
  }

  /** Place (score, row) at the free slot `start`, moving weaker parents down. */
  private siftUp(start: number, score: number, row: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.below(score, row, this.scores[parent]!, this.rows[parent]!)) break;
      this.scores[i] = this.scores[parent]!;
      this.rows[i] = this.rows[parent]!;
      i = parent;
    }
    this.scores[i] = score;
    this.rows[i] = row;
  }

  /** Replace the root with (score, row), moving the weaker child up while it ranks below the newcomer. */
  private siftDown(score: number, row: number): void {
    const { scores, rows, count } = this;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= count) break;
      const right = left + 1;
      const child =
        right < count && this.below(scores[right]!, rows[right]!, scores[left]!, rows[left]!) ? right : left;
      if (!this.below(scores[child]!, rows[child]!, score, row)) break;
      scores[i] = scores[child]!;
      rows[i] = rows[child]!;
      i = child;
    }
    scores[i] = score;
    rows[i] = row;
  }

  private grow(): void {
    const slots = Math.min(this.capacity, this.scores.length * 2);
    const scores = new Float64Array(slots);
    const rows = new Float64Array(slots);
    scores.set(this.scores);
    rows.set(this.rows);
    this.scores = scores;
    this.rows = rows;
  }
}
