// The vector first pass's running top-N: a fixed-capacity min-heap of (score, row) on typed arrays, so keeping
// the best few hundred of 100k+ rows costs one comparison per row that cannot make it.

/** The `capacity` highest-scoring rows offered so far (unordered); the weakest sits at the root. */
export class TopRowsHeap {
  private readonly scores: Float64Array;
  private readonly items: Int32Array;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.items = new Int32Array(capacity);
  }

  get full(): boolean {
    return this.count >= this.capacity;
  }

  get minScore(): number {
    return this.scores[0]!;
  }

  offer(score: number, row: number): void {
    if (this.count < this.capacity) {
      let i = this.count++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (this.scores[parent]! <= score) break;
        this.scores[i] = this.scores[parent]!;
        this.items[i] = this.items[parent]!;
        i = parent;
      }
      this.scores[i] = score;
      this.items[i] = row;
      return;
    }
    if (score <= this.scores[0]!) return; // not better than the weakest kept row
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.count) break;
      const right = left + 1;
      const child = right < this.count && this.scores[right]! < this.scores[left]! ? right : left;
      if (this.scores[child]! >= score) break;
      this.scores[i] = this.scores[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.scores[i] = score;
    this.items[i] = row;
  }

  rows(): Int32Array {
    return this.items.slice(0, this.count);
  }
}
