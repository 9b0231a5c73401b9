// The runtime's phase machine against the embedded API server: transitions, waits, and the one error model
// (fatal → failed phase + TerminalError, normal → recorded + rethrown, conflict → rethrown untouched).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { ConflictError } from '../../src/client/errors.ts';
import { isTerminal } from '../../src/runtime/controller/terminal-error.ts';
import { isConflict, PhaseMovedError, type ClassifiedError } from '../../src/runtime/phases/phase-error.ts';
import { messageOf } from '../../src/apimachinery/error-message.ts';
import { runPhases, type PhaseMachine } from '../../src/runtime/phases/phase-machine.ts';
import type { EventRecorder } from '../../src/runtime/event-recorder.ts';
import { phaseResult } from '../../src/runtime/phases/phase-result.ts';
import { statusWriter } from '../../src/runtime/status.ts';
import { startHarness, widget, widgets, type Harness } from './harness.ts';

type Phase = 'Init' | 'Work' | 'Succeeded' | 'Failed';
interface WidgetStatus {
  phase?: Phase;
  job?: string;
  visited?: string[];
  lastError?: string;
  waitingFor?: string;
}
type Widget = KubeObject & { status?: WidgetStatus };

class Fatal extends Error {
  override readonly name = 'Fatal' as const;
}

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

function machine(handlers: PhaseMachine<Widget, Phase, WidgetStatus, undefined>['handlers'], afterWrite?: () => void): PhaseMachine<Widget, Phase, WidgetStatus, undefined> {
  return {
    handlers,
    phaseOf: (w) => w.status?.phase,
    isFinal: (p) => p === 'Succeeded' || p === 'Failed',
    failedPhase: () => 'Failed',
    classify: (err, phase): ClassifiedError => ({
      class: isConflict(err) ? 'conflict' : err instanceof Fatal ? 'fatal' : 'normal',
      operation: phase,
      reason: err instanceof Error ? err.name : 'Error',
      message: messageOf(err),
      cause: err,
    }),
    status: {
      start: (s) => {
        s.phase = 'Init';
        s.visited = [];
        delete s.lastError;
      },
      enter: (s, phase, _obj, failure) => {
        s.phase = phase;
        s.visited = [...(s.visited ?? []), phase];
        if (failure) s.lastError = `${failure.operation}: ${failure.message}`;
        else delete s.lastError;
        delete s.waitingFor;
      },
      recordError: (s, err) => void (s.lastError = `${err.operation}: ${err.message}`),
      waiting: (s, w) => void (s.waitingFor = `${w.reason}: ${w.message}`),
    },
    writer: statusWriter<Widget>(h.client, widgets, { afterWrite: () => afterWrite?.() }),
    sameJob: (fresh, read) => fresh.status?.job === read.status?.job,
  };
}

async function fresh(name: string): Promise<Widget> {
  return h.client.get<Widget>(widgets, name, { namespace: 'default' });
}

test('a new job starts, runs phase after phase in one reconcile, and ends final', async () => {
  const w = await h.client.create<Widget>(widgets, widget('chain'));
  let writes = 0;
  const m = machine({ Init: async () => phaseResult.next('Work'), Work: async () => phaseResult.next('Succeeded', (s) => void (s.job = 'done')) }, () => writes++);
  const next = await runPhases(m, w, undefined);
  assert.deepEqual(next, { type: 'awaitChange' });
  const stored = await fresh('chain');
  assert.equal(stored.status?.phase, 'Succeeded');
  assert.deepEqual(stored.status?.visited, ['Work', 'Succeeded']);
  assert.equal(stored.status?.job, 'done');
  assert.equal(writes, 3, 'start, Work, Succeeded: one write each');
});

test('a wait stays in the phase, says what it waits for, and asks for no requeue unless told', async () => {
  const w = await h.client.create<Widget>(widgets, widget('waits'));
  const m = machine({ Init: async () => phaseResult.wait('ChildrenRunning', 'waiting for a, b') });
  assert.deepEqual(await runPhases(m, w, undefined), { type: 'awaitChange' });
  const stored = await fresh('waits');
  assert.equal(stored.status?.phase, 'Init');
  assert.equal(stored.status?.waitingFor, 'ChildrenRunning: waiting for a, b');
  const timed = machine({ Init: async () => phaseResult.wait('Deadline', 'until the timeout', { requeueAfterMs: 250 }) });
  assert.deepEqual(await runPhases(timed, stored, undefined), { type: 'requeueAfter', afterMs: 250 });
});

test('a wait writes the handler\'s change first and the waiting hook after it, so the hook has the last word', async () => {
  const w = await h.client.create<Widget>(widgets, widget('wait-order'));
  // A handler that hands back a whole status (as the deployer library does) must not undo what the hook records.
  const m = machine({ Init: async () => phaseResult.wait('Readiness', 'pod a', { mutate: (s) => void (s.waitingFor = 'stale') }) });
  await runPhases(m, w, undefined);
  assert.equal((await fresh('wait-order')).status?.waitingFor, 'Readiness: pod a');
});

test('a fatal error ends the job in the failed phase and surfaces as a TerminalError', async () => {
  const w = await h.client.create<Widget>(widgets, widget('fatal'));
  const m = machine({ Init: async () => phaseResult.next('Work'), Work: async () => { throw new Fatal('bad spec'); } });
  const err = await runPhases(m, w, undefined).then(() => undefined, (e: unknown) => e);
  assert.ok(isTerminal(err), 'terminal: counted, never requeued');
  const stored = await fresh('fatal');
  assert.equal(stored.status?.phase, 'Failed');
  assert.equal(stored.status?.lastError, 'Work: bad spec');
});

test('a normal error is recorded, keeps the phase and is rethrown for the work queue backoff', async () => {
  const w = await h.client.create<Widget>(widgets, widget('normal'));
  const boom = new Error('target unreachable');
  const m = machine({ Init: async () => { throw boom; } });
  await assert.rejects(runPhases(m, w, undefined), (e) => e === boom && !isTerminal(e));
  const stored = await fresh('normal');
  assert.equal(stored.status?.phase, 'Init');
  assert.equal(stored.status?.lastError, 'Init: target unreachable');
});

test('a conflict is rethrown without touching status', async () => {
  const w = await h.client.create<Widget>(widgets, widget('conflict'));
  const started = await runPhases(machine({ Init: async () => phaseResult.wait('W', 'w') }), w, undefined).then(() => fresh('conflict'));
  const conflict = new ConflictError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'the object has been modified', reason: 'Conflict', code: 409 });
  await assert.rejects(runPhases(machine({ Init: async () => { throw conflict; } }), started, undefined), (e) => e === conflict);
  assert.equal((await fresh('conflict')).status?.lastError, undefined);
});

test('a transition retried after a conflict gives up when the object left the phase meanwhile', async () => {
  const w = await h.client.create<Widget>(widgets, widget('moved'));
  const started = await runPhases(machine({ Init: async () => phaseResult.wait('W', 'w') }), w, undefined).then(() => fresh('moved'));
  // Another writer moves the object on; our stale copy's transition conflicts, the retry sees the move.
  await h.client.updateStatus<Widget>(widgets, { ...started, status: { ...started.status, phase: 'Succeeded' } });
  const err = await runPhases(machine({ Init: async () => phaseResult.next('Work') }), started, undefined).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof PhaseMovedError, `PhaseMovedError, got ${String(err)}`);
  assert.equal((await fresh('moved')).status?.phase, 'Succeeded', 'the newer state stands');
});

test('a coalescing machine writes the phases one pass goes through in one write, and its Events after it', async () => {
  const w = await h.client.create<Widget>(widgets, widget('coalesced'));
  let writes = 0;
  const seen: string[] = [];
  const events: string[] = [];
  const m: PhaseMachine<Widget, Phase, WidgetStatus, undefined> = {
    ...machine({
      // Each handler sees what the pass staged before it.
      Init: async (o) => { seen.push(`Init:${String(o.status?.visited?.length)}`); return phaseResult.next('Work'); },
      Work: async (o) => { seen.push(`Work:${o.status?.visited?.join('>') ?? ''}`); return phaseResult.next('Succeeded'); },
    }, () => writes++),
    coalesce: true,
    progress: (_o, phase, how) => ({ reason: how, message: phase }),
    recorder: { normal: async (_o: KubeObject, reason: string, message: string) => void events.push(`${reason} ${message}`), warning: async () => {} } as unknown as EventRecorder,
  };
  await runPhases(m, w, undefined);
  assert.equal(writes, 1, 'start, Work and Succeeded in one write');
  assert.deepEqual(seen, ['Init:0', 'Work:Work']);
  const stored = await fresh('coalesced');
  assert.equal(stored.status?.phase, 'Succeeded');
  assert.deepEqual(stored.status?.visited, ['Work', 'Succeeded']);
  assert.deepEqual(events, ['started Init', 'moved Work', 'moved Succeeded']);
});

test('a coalescing machine writes what it staged with a wait, and with an error', async () => {
  const waits = await h.client.create<Widget>(widgets, widget('coalesced-wait'));
  let writes = 0;
  const m = (handlers: PhaseMachine<Widget, Phase, WidgetStatus, undefined>['handlers']): PhaseMachine<Widget, Phase, WidgetStatus, undefined> => ({ ...machine(handlers, () => writes++), coalesce: true });
  await runPhases(m({ Init: async () => phaseResult.next('Work'), Work: async () => phaseResult.wait('Children', 'a') }), waits, undefined);
  assert.equal(writes, 1);
  assert.deepEqual((await fresh('coalesced-wait')).status, { phase: 'Work', visited: ['Work'], waitingFor: 'Children: a' });

  const fails = await h.client.create<Widget>(widgets, widget('coalesced-error'));
  const boom = new Error('target unreachable');
  await assert.rejects(runPhases(m({ Init: async () => phaseResult.next('Work'), Work: async () => { throw boom; } }), fails, undefined), (e) => e === boom);
  const stored = await fresh('coalesced-error');
  assert.equal(stored.status?.phase, 'Work', 'the error belongs to the phase the pass reached');
  assert.equal(stored.status?.lastError, 'Work: target unreachable');
});

test('a coalescing machine that fails after staging phases still tells them in Events, after the error is written', async () => {
  const w = await h.client.create<Widget>(widgets, widget('coalesced-error-events'));
  const events: string[] = [];
  const m: PhaseMachine<Widget, Phase, WidgetStatus, undefined> = {
    ...machine({ Init: async () => phaseResult.next('Work'), Work: async () => { throw new Fatal('bad config'); } }),
    coalesce: true,
    progress: (_o, phase, how) => ({ reason: how, message: phase }),
    recorder: {
      normal: async (_o: KubeObject, reason: string, message: string) => void events.push(`${reason} ${message}`),
      warning: async (_o: KubeObject, reason: string) => void events.push(`warning ${reason}`),
    } as unknown as EventRecorder,
  };
  await assert.rejects(runPhases(m, w, undefined), (e) => isTerminal(e));
  assert.equal((await fresh('coalesced-error-events')).status?.phase, 'Failed');
  assert.deepEqual(events, ['started Init', 'moved Work', 'warning Fatal']);
});

test('a coalescing machine goes on from a write its handler made itself and kept its object in step with', async () => {
  const w = await h.client.create<Widget>(widgets, widget('coalesced-own-write'));
  let writes = 0;
  const m: PhaseMachine<Widget, Phase, WidgetStatus, undefined> = {
    ...machine({
      Init: async (o) => {
        // As the deployer library does: write the working status, then keep the machine's object in step.
        const stored = await h.client.updateStatus<Widget>(widgets, { ...o, status: { ...o.status, job: 'own' } });
        o.metadata = stored.metadata;
        o.status = stored.status;
        return phaseResult.next('Succeeded');
      },
    }, () => writes++),
    coalesce: true,
  };
  await runPhases(m, w, undefined);
  assert.equal(writes, 1, 'the final write needs no conflict retry');
  const stored = await fresh('coalesced-own-write');
  assert.equal(stored.status?.phase, 'Succeeded');
  assert.equal(stored.status?.job, 'own');
});
