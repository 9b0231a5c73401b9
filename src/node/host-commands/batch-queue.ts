// Work items that arrive while a batch runs wait for the next batch, which takes all of them: the first item
// runs at once, and a burst of a hundred costs a few batches. Each batch is one process instead of one per item;
// starting a process is most of an attach's cost, and the agent's thread starts them one at a time.
export class BatchQueue<T> {
  private queue: { item: T; resolve: () => void; reject: (error: Error) => void }[] = [];
  private running = false;

  constructor(
    /** Runs a batch; resolves with each item's failure, or undefined where the item succeeded. It must not reject. */
    private readonly runBatch: (items: readonly T[]) => Promise<(Error | undefined)[]>,
  ) {}

  run(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const failures = await this.runBatch(batch.map((queued) => queued.item));
      batch.forEach((queued, i) => {
        const failure = failures[i];
        if (failure === undefined) queued.resolve();
        else queued.reject(failure);
      });
    }
    this.running = false;
  }
}
