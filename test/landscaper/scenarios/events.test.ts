// Normal Events on progress: `kubectl get events` tells how a job moves (started, progressing, succeeded) and how a
// deletion goes (started, finished) for installations, executions and deploy items, not only when something fails;
// reconciling an unchanged state records nothing new.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsResource } from '../../../src/apimachinery/builtin-resources.ts';
import {
  R, T, blueprint, createInst, deployExecution, installation, mockDeployTemplate, stays, until, untilFinished, untilGone, type Env, withEnv,
} from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

interface NormalEvent {
  kind: string;
  reason: string;
  message: string;
  count: number;
}

async function normalEvents(ns: string): Promise<NormalEvent[]> {
  const list = await env.client.list(eventsResource, { namespace: ns });
  return list.items
    .filter((e) => e['type'] === 'Normal')
    .map((e) => ({
      kind: (e['involvedObject'] as { kind?: string } | undefined)?.kind ?? '',
      reason: String(e['reason']),
      message: String(e['message']),
      count: Number(e['count']),
    }));
}

const reasonsOf = (events: readonly NormalEvent[], kind: string): string[] => events.filter((e) => e.kind === kind).map((e) => e.reason).sort();

const kinds = ['Installation', 'Execution', 'DeployItem'];

test('Normal Events record job progress and deletion for installations, executions and deploy items, once per step', T, async () => {
  const ns = await env.namespace('events');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'item' }]))] });
  await createInst(env, installation('ev', ns, bp));
  const inst = await untilFinished(env, ns, 'ev');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);
  const jobID = inst.status!.jobID!;

  const done = (events: NormalEvent[]): boolean => kinds.every((k) => reasonsOf(events, k).includes('Succeeded'));
  const progress = await until('Succeeded events of every kind', () => normalEvents(ns), done);
  for (const kind of ['Installation', 'Execution']) {
    assert.deepEqual(reasonsOf(progress, kind), ['JobStarted', 'Progressing', 'Succeeded'], `${kind}: ${JSON.stringify(progress)}`);
  }
  // The mock deployer finishes in one step, from Init straight to Succeeded.
  assert.deepEqual(reasonsOf(progress, 'DeployItem'), ['JobStarted', 'Succeeded']);
  const started = progress.find((e) => e.kind === 'Installation' && e.reason === 'JobStarted');
  assert.equal(started?.message, `job ${jobID} started`);

  // A change that starts no job reconciles an unchanged state: no new Event, no count bumped.
  await env.client.patch(R.installations, 'ev', { metadata: { labels: { touched: 'yes' } } }, { type: 'merge', namespace: ns });
  await stays('no further Normal Events', () => normalEvents(ns), (now) => JSON.stringify(now) === JSON.stringify(progress), 600);

  await env.client.delete(R.installations, 'ev', { namespace: ns });
  await untilGone(env, R.installations, ns, 'ev', 20_000);
  const deleted = await until('Deleted events of every kind', () => normalEvents(ns), (events) => kinds.every((k) => reasonsOf(events, k).includes('Deleted')));
  for (const kind of kinds) {
    const reasons = reasonsOf(deleted, kind);
    assert.ok(reasons.includes('DeletionStarted'), `${kind}: ${reasons.join(', ')}`);
    assert.ok(deleted.every((e) => e.count === 1), 'every step is recorded once');
  }
  assert.equal(deleted.find((e) => e.kind === 'Installation' && e.reason === 'Deleted')?.message, 'deletion finished');
});
