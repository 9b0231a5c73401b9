// Operations on one pod run one after another (an attach and a detach of the same uid must not interleave);
// operations on different pods run at once.
export class PerPodQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(uid: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(uid) ?? Promise.resolve();
    const result = previous.then(operation, operation);
    const tail = result.catch(() => undefined);
    this.tails.set(uid, tail);
    void tail.then(() => {
      if (this.tails.get(uid) === tail) this.tails.delete(uid);
    });
    return result;
  }
}
