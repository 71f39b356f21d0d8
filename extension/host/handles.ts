// Handles for the objects the host has shown the extension (tensors, autograd Nodes), so a view can
// ask about them later. The registry holds them weakly — a handle never keeps a tensor alive — and
// forgets the oldest handles past a bound, so a long session does not grow it without end.

export class HandleRegistry<T extends object> {
  private next = 1;
  private readonly byId = new Map<number, WeakRef<T>>();
  private readonly ids = new WeakMap<T, number>();

  constructor(private readonly limit = 10_000) {}

  /** The object's handle (the same one each time while it is registered). */
  handleOf(obj: T): number {
    const known = this.ids.get(obj);
    if (known !== undefined && this.byId.get(known)?.deref() === obj) return known;
    const id = this.next++;
    this.ids.set(obj, id);
    this.byId.set(id, new WeakRef(obj));
    if (this.byId.size > this.limit) this.prune();
    return id;
  }

  get(handle: number): T | undefined {
    return this.byId.get(handle)?.deref();
  }

  get size(): number {
    return this.byId.size;
  }

  /** Drops collected entries, then the oldest until under the bound. */
  private prune(): void {
    for (const [id, ref] of this.byId) if (ref.deref() === undefined) this.byId.delete(id);
    for (const id of this.byId.keys()) {
      if (this.byId.size <= this.limit * 0.9) break;
      this.byId.delete(id);
    }
  }
}
