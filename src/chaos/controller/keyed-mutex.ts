// One holder per key at a time. Disruptions reconcile concurrently, but two of them choosing targets in the
// same namespace at once would both see a target free and both take it: selection and chaos pod creation run
// under the lock of the targets' namespace (or of the nodes), so the second sees the first's chaos pods.

export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
