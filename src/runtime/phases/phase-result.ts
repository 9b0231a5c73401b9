// What one phase handler concludes (kube-rs's reconcile → Action, one level down): go on to another phase,
// wait for something outside (named, so status can say what), or stop because the object is gone or done.
// Failures are thrown, never returned: the machine classifies them once (./phase-error.ts).

/** A change to the object's status, applied to a copy and re-applied to a fresh read after a conflict. */
export type StatusMutation<S> = (status: S) => void;

export type PhaseResult<P extends string, S> =
  /** Enter `phase` (writing `mutate` with the transition); a non-final phase runs on in the same reconcile. */
  | { readonly type: 'next'; readonly phase: P; readonly mutate?: StatusMutation<S> }
  /**
   * Stay in the phase until a watched object changes (or requeueAfterMs passes): `reason` and `message`
   * name what the object waits for, so status, logs and timeouts can say it.
   */
  | { readonly type: 'wait'; readonly reason: string; readonly message: string; readonly mutate?: StatusMutation<S>; readonly requeueAfterMs?: number }
  /** Nothing left to do in this reconcile: the object is gone, or another party owns the next step. */
  | { readonly type: 'done' };

export const phaseResult = {
  next<P extends string, S>(phase: P, mutate?: StatusMutation<S>): PhaseResult<P, S> {
    return mutate ? { type: 'next', phase, mutate } : { type: 'next', phase };
  },
  wait<P extends string, S>(reason: string, message: string, options: { mutate?: StatusMutation<S>; requeueAfterMs?: number } = {}): PhaseResult<P, S> {
    return { type: 'wait', reason, message, ...options };
  },
  done<P extends string, S>(): PhaseResult<P, S> {
    return { type: 'done' };
  },
};
