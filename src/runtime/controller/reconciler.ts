// The reconciler contract (after controller-runtime's pkg/reconcile/reconcile.go and kube-rs's Controller::run).
//
// Reconciliation is level-based. A reconcile is triggered by a key ("namespace/name"), never by an
// event: it must not depend on whether the object was added, changed or touched through an owned or
// mapped object, nor on how many events there were — many events collapse into one reconcile, and a
// reconcile may run with no event at all (a requeue, a resync, a restart). It reads the desired state
// (the object's spec) and the actual state (the cluster), and drives the latter towards the former.
//
// How the controller runs it:
// 1. Fetch the object from the informer cache by key. A missing object was deleted: nothing runs
//    and the key's backoff is reset. Work that must happen on deletion belongs in a finalizer
//    (src/runtime/finalizer.ts), because a delete observed as "object missing" carries no state.
// 2. Call reconcile(obj, ctx) with a deep copy of the cached object: mutate it freely.
// 3. Act on the outcome:
//    | outcome                           | queue                                      | result label   |
//    | awaitChange                       | forget (reset backoff)                     | success        |
//    | requeueAfter(ms)                  | forget, then addAfter(ms)                  | requeue_after  |
//    | requeue                           | addRateLimited (5 ms × 2^n ≤ 1000 s, 10 qps)| requeue        |
//    | throws TerminalError              | forget, no requeue                         | error          |
//    | throws anything else              | errorPolicy(obj, err, ctx)'s action        | error          |
//    The default errorPolicy is requeue (backoff). A thrown value that is not an Error, a JavaScript
//    runtime error (TypeError, RangeError, ReferenceError, SyntaxError…) or a throw from errorPolicy
//    itself is a bug, the analogue of a Go panic: it is recovered, logged with its stack, counted in
//    controller_runtime_reconcile_panics_total, and handled like any other error.
//
// Guarantees: one key is never reconciled by two workers at once; events that arrive during a
// reconcile cause exactly one more reconcile afterwards; up to `concurrency` different keys run in
// parallel; workers start only after every watched cache has synced.
//
// What reconcile must do in return: be idempotent (the cache may lag the reconciler's own writes,
// so it may run again on state it already handled), write through the client (never mutate the
// cache), surface conflicts by throwing (the retry reads a fresher cache), and treat every read as
// possibly stale. Prefer awaitChange for a converged object; requeueAfter for polling something
// outside Kubernetes; never requeue in a tight loop to wait for another object — watch it instead.
import type { Logger } from 'pino';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Action } from './action.ts';

export interface ReconcileContext<C = unknown> {
  /** The controller's name, as logs and metrics label it. */
  controller: string;
  /** "namespace/name" or "name". */
  key: string;
  /** A UUID for this one reconcile; also on every line of ctx.log. */
  reconcileID: string;
  /** Carries controller, object key and reconcileID. */
  log: Logger;
  /** Aborted when the controller must stop at once (lost leadership, hard stop, reconcile timeout). */
  signal: AbortSignal;
  /** What the controller was built with: a client, settings, a recorder… */
  data: C;
}

export type ReconcileFunc<T extends KubeObject, C> = (obj: T, ctx: ReconcileContext<C>) => Promise<Action>;

export type ErrorPolicy<T extends KubeObject, C> = (obj: T, err: unknown, ctx: ReconcileContext<C>) => Action;
