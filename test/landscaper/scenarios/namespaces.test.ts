// Landscaper objects and the life of their namespace (issue 14): every namespace gets the default Context, so
// standalone Executions and DeployItems run there as upstream; and `kubectl delete namespace` with a whole tree
// in it completes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../../../src/landscaper/api/context.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import { LANDSCAPER_API_VERSION } from '../../../src/landscaper/api/constants.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import type { ResourceRef } from '../../../src/client/client.ts';
import { updateStatus } from '../../../src/runtime/status.ts';
import { MOCK, R, T, getOrUndefined, until, withEnv, type Env } from './support.ts';

let env: Env;
withEnv((e) => (env = e));

/** A job starts as upstream's tests start one without an installation: a new status.jobID. */
async function startJob<T extends Execution | DeployItem>(r: ResourceRef, obj: T): Promise<void> {
  await updateStatus(env.client, r, obj, (draft) => {
    draft.status = { observedGeneration: 0, ...draft.status, jobID: 'job-1' } as T['status'];
  });
}

/** The defaulter's Context, as a user finds it in a namespace that exists. */
async function defaultContext(ns: string): Promise<void> {
  await until(`Context ${ns}/default`, () => getOrUndefined<Context>(env.client, R.contexts, ns, 'default'), (c) => c !== undefined);
}

const mockConfig = { apiVersion: 'mock.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', phase: 'Succeeded' };

describe('the default Context', () => {
  it('exists in every namespace, and comes back when deleted', T, async () => {
    const ns = await env.namespace('ctx-default');
    await defaultContext(ns);
    await env.client.delete(R.contexts, 'default', { namespace: ns });
    await until(`Context ${ns}/default to come back`, () => getOrUndefined<Context>(env.client, R.contexts, ns, 'default'), (c) => c !== undefined && c.metadata.deletionTimestamp === undefined);
  });

  it('lets a standalone Execution run its mock deploy item', T, async () => {
    const ns = await env.namespace('ctx-exec');
    await defaultContext(ns);
    const exec: Execution = {
      apiVersion: LANDSCAPER_API_VERSION,
      kind: 'Execution',
      metadata: { name: 'standalone', namespace: ns },
      spec: { deployItems: [{ name: 'item', type: MOCK, config: mockConfig }] },
    };
    await startJob(R.executions, await env.client.create(R.executions, exec));
    const done = await until(`Execution ${ns}/standalone to finish`, () => getOrUndefined<Execution>(env.client, R.executions, ns, 'standalone'), (e) => e?.status?.phase === 'Succeeded' || e?.status?.phase === 'Failed');
    assert.equal(done?.status?.phase, 'Succeeded', JSON.stringify(done?.status));
  });

  it('lets a standalone DeployItem run', T, async () => {
    const ns = await env.namespace('ctx-item');
    await defaultContext(ns);
    const item: DeployItem = {
      apiVersion: LANDSCAPER_API_VERSION,
      kind: 'DeployItem',
      metadata: { name: 'standalone', namespace: ns },
      spec: { type: MOCK, config: mockConfig },
    };
    await startJob(R.deployItems, await env.client.create(R.deployItems, item));
    const done = await until(`DeployItem ${ns}/standalone to finish`, () => getOrUndefined<DeployItem>(env.client, R.deployItems, ns, 'standalone'), (d) => d?.status?.phase === 'Succeeded' || d?.status?.phase === 'Failed');
    assert.equal(done?.status?.phase, 'Succeeded', JSON.stringify(done?.status));
  });
});
