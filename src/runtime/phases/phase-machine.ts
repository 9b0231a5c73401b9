// One phase machine for every controller whose objects run jobs through phases (Landscaper's installations,
// executions and deploy items today). The family describes its phases as a table of handlers and its status
// bookkeeping as pure mutations; the machine runs the handlers, writes every transition through the family's
// StatusWriter (conflict retry, guarded so a retry never moves an object that moved on), and handles errors
// the same way for everyone (./phase-error.ts). A written start or phase change may record a Normal Event
// (the family's `progress`), errors record Warnings:
//
//   phase unset or final → status.start (a new job) → handler(phase) → next: status.enter, run on
//                                                                     → wait: status.waiting, awaitChange
//                                                                     → done: awaitChange
//                                            throws → classify → fatal: enter failedPhase, TerminalError
//                                                              → normal: recordError, rethrow (backoff)
//                                                              → conflict: rethrow; superseded: awaitChange
//
// A machine with `coalesce` writes the phases one reconcile passes through together: the start and every
// `next` into a non-final phase are staged (the next handler sees them on its object) and go out with the
// first write the pass must make anyway (a wait, a final phase, an error, or `done`). A lost staged write
// (a conflict, a crash) only means the next reconcile runs the passed handlers again, which must be
// idempotent in any case since a write can fail after their effects.
import type { KubeObject } from '../../apimachinery/object.ts';
import { action, type Action } from '../controller/action.ts';
import { NotFoundError } from '../../client/errors.ts';
import { TerminalError } from '../controller/terminal-error.ts';
import type { EventRecorder } from '../event-recorder.ts';
import type { StatusWriter } from '../status.ts';
import { PhaseMovedError, type ClassifiedError } from './phase-error.ts';
import type { PhaseResult, StatusMutation } from './phase-result.ts';

export type PhaseHandler<T, P extends string, S, D> = (obj: T, data: D) => Promise<PhaseResult<P, S>>;

export type Waiting = { readonly reason: string; readonly message: string };

export type ProgressEvent = { readonly reason: string; readonly message: string };

/** The family's status bookkeeping: pure changes to a copy of the status, re-applied after conflicts. */
export interface PhaseStatus<T, P extends string, S, E extends ClassifiedError = ClassifiedError> {
  /** A new job: set its first phase (Init, or InitDelete when the object is being deleted). */
  start(status: S, obj: T): void;
  /** Enter `phase`. A final phase finishes the job; `failure` is the fatal error that ended it, if any. */
  enter(status: S, phase: P, obj: T, failure?: E): void;
  /** A normal error: recorded, the phase kept. */
  recordError(status: S, err: E, obj: T): void;
  /** The object waits for something outside: say what (a condition, lastError...). */
  waiting?(status: S, waiting: Waiting, obj: T): void;
}

/** E: the family's classified error, which may carry more than the machine needs (Landscaper's error codes). */
export interface PhaseMachine<T extends KubeObject & { status?: S }, P extends string, S extends object, D, E extends ClassifiedError = ClassifiedError> {
  /** The handler of every phase a job passes; a non-final phase without one is a fatal error. */
  readonly handlers: Partial<Record<P, PhaseHandler<T, P, S, D>>>;
  phaseOf(obj: T): P | undefined;
  isFinal(phase: P): boolean;
  /** Where a fatal error in `phase` ends the job (Failed, or DeleteFailed while deleting). */
  failedPhase(phase: P): P;
  /** What a thrown value means (fatal, normal, conflict, superseded) and the words status records. */
  classify(err: unknown, phase: P): E;
  readonly status: PhaseStatus<T, P, S, E>;
  readonly writer: StatusWriter<T>;
  /** Warning Events for fatal and normal errors (repeats fold into one Event), Normal Events on progress. */
  readonly recorder?: EventRecorder;
  /**
   * The Normal Event, if any, for a job that just started in `phase` (started) or just entered it (moved). Asked
   * only after such a write, so an unchanged state reconciled again records nothing.
   */
  progress?(obj: T, phase: P, how: 'started' | 'moved'): ProgressEvent | undefined;
  /** The fresh object read after a conflict still runs the job we started from (same job ID…); default true. */
  sameJob?(fresh: T, read: T): boolean;
  /**
   * Stage the start and non-final transitions and write them with the pass's next write instead of one
   * write each (see the header); for machines whose handlers are idempotent and whose intermediate phases
   * nobody else waits for. Default false: every transition is written before the next handler runs.
   */
  coalesce?: boolean;
}

/** Status changes made in memory but not yet written, on top of the object as last stored. */
interface Staged<T, P, S> {
  stored: T;
  /** The phase of `stored`: a conflict retry that finds the object elsewhere gives up. */
  from: P | undefined;
  mutations: StatusMutation<S>[];
  /** The progress Events the staged changes owe once written. */
  progress: { phase: P; how: 'started' | 'moved' }[];
}

/** Runs the object's job from its current phase as far as it goes in one reconcile. */
export async function runPhases<T extends KubeObject & { status?: S }, P extends string, S extends object, D, E extends ClassifiedError>(
  machine: PhaseMachine<T, P, S, D, E>,
  obj: T,
  data: D,
): Promise<Action> {
  let current = obj;
  let phase = machine.phaseOf(current);
  const staged: Staged<T, P, S> = { stored: obj, from: phase, mutations: [], progress: [] };
  /** Writes what is staged plus `mutate` (if any) in one write; returns the object as stored. */
  const flush = async (mutate?: StatusMutation<S>): Promise<T> => {
    const mutations = mutate ? [...staged.mutations, mutate] : staged.mutations;
    const written = mutations.length === 0 ? staged.stored : await write(machine, staged.stored, staged.from, (s) => mutations.forEach((m) => m(s)));
    for (const p of staged.progress) recordProgress(machine, written, p.phase, p.how);
    staged.stored = written;
    staged.from = machine.phaseOf(written);
    staged.mutations = [];
    staged.progress = [];
    return written;
  };
  /** A change the pass goes on from: staged when the machine coalesces, else written now. */
  const change = async (mutate: StatusMutation<S>, how: 'started' | 'moved'): Promise<T> => {
    const before = machine.phaseOf(current);
    let next: T;
    if (machine.coalesce) {
      staged.mutations.push(mutate);
      next = { ...current, status: structuredClone(current.status ?? ({} as S)) };
      mutate(next.status as S);
    } else {
      next = await flush(mutate);
    }
    const to = machine.phaseOf(next);
    if (to !== undefined && (how === 'started' || to !== before)) {
      if (machine.coalesce) staged.progress.push({ phase: to, how });
      else recordProgress(machine, next, to, how);
    }
    return next;
  };
  /**
   * A handler that wrote the object itself keeps its copy in step (the deployer library does): the staged
   * changes then go on top of that write, as a conflict retry would put them on a fresh read.
   */
  const adoptOwnWrite = (): void => {
    if (current.metadata.resourceVersion === staged.stored.metadata.resourceVersion) return;
    staged.stored = current;
    staged.from = machine.phaseOf(current);
  };
  if (phase === undefined || machine.isFinal(phase)) {
    try {
      const from = current;
      current = await change((s) => machine.status.start(s, from), 'started');
    } catch (err) {
      // The job has not started, so nothing is recorded: a job taken away meanwhile ends here quietly,
      // anything else goes back to the controller (conflicts and normal errors are retried).
      if (machine.classify(err, phase ?? ('' as P)).class === 'superseded') return action.awaitChange();
      throw err;
    }
    phase = machine.phaseOf(current);
  }
  while (phase !== undefined && !machine.isFinal(phase)) {
    const from: P = phase;
    const handler = machine.handlers[from];
    let result: PhaseResult<P, S>;
    if (!handler) {
      const err = new TerminalError(`unknown phase "${from}"`);
      return fail(machine, staged, current, from, err, { ...machine.classify(err, from), class: 'fatal', reason: 'UnknownPhase' });
    }
    try {
      result = await handler(current, data);
      adoptOwnWrite();
      if (result.type === 'done') {
        // The object is gone, or another party owns the next step: what was staged is written if it can be,
        // and the steps it passed are told in Events either way.
        if (staged.mutations.length > 0) {
          await flush().catch((err: unknown) => {
            if (!(err instanceof NotFoundError)) throw err;
            for (const p of staged.progress) recordProgress(machine, current, p.phase, p.how);
          });
        }
        return action.awaitChange();
      }
      if (result.type === 'wait') {
        const waiting: Waiting = { reason: result.reason, message: result.message };
        const mutate = result.mutate;
        // As with next: the handler's change first, then the hook, so what the hook records stands.
        const stored = await flush((s) => {
          mutate?.(s);
          machine.status.waiting?.(s, waiting, current);
        });
        // A wait may move the phase too (a deployer that set Progressing and waits for readiness).
        const to = machine.phaseOf(stored);
        if (to !== undefined && to !== from) recordProgress(machine, stored, to, 'moved');
        return result.requeueAfterMs !== undefined ? action.requeueAfter(result.requeueAfterMs) : action.awaitChange();
      }
      const { phase: to, mutate } = result;
      const entered = current;
      const transition: StatusMutation<S> = (s) => {
        mutate?.(s);
        machine.status.enter(s, to, entered);
      };
      // A final phase ends the pass: it goes out now, with anything staged before it.
      current = machine.isFinal(to) ? await flushMoved(transition) : await change(transition, 'moved');
    } catch (err) {
      adoptOwnWrite();
      return fail(machine, staged, current, from, err);
    }
    phase = machine.phaseOf(current);
  }
  return action.awaitChange();

  async function flushMoved(transition: StatusMutation<S>): Promise<T> {
    const before = machine.phaseOf(current);
    const stored = await flush(transition);
    const to = machine.phaseOf(stored);
    if (to !== undefined && to !== before) recordProgress(machine, stored, to, 'moved');
    return stored;
  }
}

function recordProgress<T extends KubeObject & { status?: S }, P extends string, S extends object, D, E extends ClassifiedError>(
  machine: PhaseMachine<T, P, S, D, E>,
  obj: T,
  phase: P,
  how: 'started' | 'moved',
): void {
  const event = machine.progress?.(obj, phase, how);
  if (event && machine.recorder) void machine.recorder.normal(obj, event.reason, event.message);
}

async function fail<T extends KubeObject & { status?: S }, P extends string, S extends object, D, E extends ClassifiedError>(
  machine: PhaseMachine<T, P, S, D, E>,
  staged: Staged<T, P, S>,
  obj: T,
  phase: P,
  thrown: unknown,
  classified?: E,
): Promise<Action> {
  const err = classified ?? machine.classify(thrown, phase);
  // What the pass staged goes out with the error: the error belongs to the phase it reached.
  // Its staged progress Events follow the write, as after any flush.
  const withStaged = async (mutate: StatusMutation<S>): Promise<T> => {
    const mutations = [...staged.mutations, mutate];
    const stored = await write(machine, staged.stored, staged.from, (s) => mutations.forEach((m) => m(s)));
    for (const p of staged.progress) recordProgress(machine, stored, p.phase, p.how);
    return stored;
  };
  switch (err.class) {
    case 'superseded':
      return action.awaitChange();
    case 'conflict':
      throw thrown;
    case 'fatal': {
      const failed = machine.failedPhase(phase);
      const stored = await withStaged((s) => machine.status.enter(s, failed, obj, err));
      void machine.recorder?.warning(stored, err.reason, err.message);
      throw thrown instanceof TerminalError ? thrown : new TerminalError(err.message, { cause: thrown });
    }
    case 'normal': {
      // The error is what the reconcile reports; a failure to record it must not hide it.
      const stored = await withStaged((s) => machine.status.recordError(s, err, obj)).catch(() => obj);
      void machine.recorder?.warning(stored, err.reason, err.message);
      throw thrown;
    }
  }
}

/** Writes a status change made in `from`; a retry on a fresh object that left `from` (or the job) gives up. */
function write<T extends KubeObject & { status?: S }, P extends string, S extends object, D, E extends ClassifiedError>(
  machine: PhaseMachine<T, P, S, D, E>,
  obj: T,
  from: P | undefined,
  mutate: StatusMutation<S>,
): Promise<T> {
  let retry = false;
  return machine.writer.write(obj, (draft) => {
    // The first attempt works on our own read; later ones on the server's fresh object.
    if (retry && (machine.phaseOf(draft) !== from || machine.sameJob?.(draft, obj) === false)) {
      throw new PhaseMovedError(`${draft.metadata.name ?? ''} left phase ${from ?? '(none)'} while its status was written`);
    }
    retry = true;
    mutate((draft.status ??= {} as S));
  });
}
