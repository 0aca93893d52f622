interface Queued<Item> {
  item: Item;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Does `work` on items in batches, one batch in flight at a time: what is added meanwhile waits
 * and goes in the next batch. `add` resolves once the batch holding the item is done, so a burst
 * of writes costs a round trip or two, not one each, and never queues on one row's lock.
 */
export class Batches<Item> {
  private readonly queue: Queued<Item>[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly work: (items: Item[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.running = this.work(batch.map((queued) => queued.item))
      .then(
        () => batch.forEach((queued) => queued.resolve()),
        (error: unknown) => batch.forEach((queued) => queued.reject(error)),
      )
      .finally(() => {
        this.running = null;
        this.next();
      });
  }

  /** Resolves once nothing is queued or in flight. */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }
}
