// What a reconcile (or an error policy) asks the controller to do next with the object's key.

export type Action =
  /** Done: wait for the next change of the object or of something it watches. Resets the backoff. */
  | { readonly type: 'awaitChange' }
  /**
   * Run again after the key's exponential backoff (5 ms, 10 ms, … 1000 s) and the global token bucket; no later
   * than atMostMs when given (a deadline of the object's own falls due sooner).
   */
  | { readonly type: 'requeue'; readonly atMostMs?: number }
  /** Run again after afterMs; resets the backoff first (controller-runtime's Forget + AddAfter). */
  | { readonly type: 'requeueAfter'; readonly afterMs: number };

export const action = {
  awaitChange(): Action {
    return { type: 'awaitChange' };
  },
  requeue(options: { atMostMs?: number } = {}): Action {
    const atMostMs = options.atMostMs;
    if (atMostMs === undefined) return { type: 'requeue' };
    if (!(atMostMs >= 0)) throw new RangeError(`requeue needs atMostMs ≥ 0, got ${atMostMs}`);
    return { type: 'requeue', atMostMs };
  },
  requeueAfter(afterMs: number): Action {
    if (!(afterMs >= 0) || !Number.isFinite(afterMs)) throw new RangeError(`requeueAfter needs a finite delay ≥ 0, got ${afterMs}`);
    return { type: 'requeueAfter', afterMs };
  },
};
