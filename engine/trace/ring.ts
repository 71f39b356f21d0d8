// A fixed-capacity ring buffer: keeps the newest `capacity` items and counts what it dropped, so a
// long traced loop holds flat memory.

export class Ring<T> {
  private buf: T[] = [];
  private head = 0; // index of the oldest item once the buffer is full
  private droppedCount = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`);
  }

  push(item: T): void {
    if (this.buf.length < this.capacity) {
      this.buf.push(item);
      return;
    }
    this.buf[this.head] = item;
    this.head = (this.head + 1) % this.capacity;
    this.droppedCount++;
  }

  get size(): number {
    return this.buf.length;
  }

  /** Items dropped to make room since the last clear(). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Oldest first. */
  toArray(): T[] {
    return this.head === 0 ? this.buf.slice() : this.buf.slice(this.head).concat(this.buf.slice(0, this.head));
  }

  clear(): void {
    this.buf = [];
    this.head = 0;
    this.droppedCount = 0;
  }
}
