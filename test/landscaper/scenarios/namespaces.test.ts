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
import { stringify } from 'yaml';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { kubectlFor } from '../../helpers/kubectl.ts';
import { MANIFEST, MOCK, R, T, blueprint, deployExecution, getOrUndefined, installation, until, untilFinished, withEnv, type Env } from './support.ts';

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

describe('kubectl delete namespace', () => {
  /**
   * A tree as a user applies it: a Target whose kubeconfig is a Secret, an import DataObject, and an Installation
   * whose subinstallation has a manifest deploy item (a ConfigMap in another namespace) after a mock one.
   */
  const tree = (ns: string, out: string, kubeconfig: string): string => {
    const manifest = stringify({
      deployItems: [
        { name: 'first', type: MOCK, config: mockConfig },
        {
          name: 'cm',
          type: MANIFEST,
          dependsOn: ['first'],
          target: { import: 'cluster' },
          config: {
            apiVersion: 'manifest.deployer.landscaper.gardener.cloud/v1alpha2',
            kind: 'ProviderConfiguration',
            manifests: [{ policy: 'manage', manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: out }, data: { v: '{{ .imports.message }}' } } }],
          },
        },
      ],
    });
    const child = blueprint({
      imports: [{ name: 'cluster', type: 'target', targetType: 'landscaper.gardener.cloud/kubernetes-cluster' }, { name: 'message', type: 'data', schema: { type: 'string' } }],
      deployExecutions: [deployExecution(manifest)],
    });
    const parent = blueprint({
      imports: [{ name: 'cluster', type: 'target', targetType: 'landscaper.gardener.cloud/kubernetes-cluster' }, { name: 'message', type: 'data', schema: { type: 'string' } }],
      subinstallations: [{ file: '/child.yaml' }],
    });
    const childInst = stringify({
      apiVersion: LANDSCAPER_API_VERSION,
      kind: 'InstallationTemplate',
      name: 'child',
      blueprint: { filesystem: { 'blueprint.yaml': child } },
      imports: { targets: [{ name: 'cluster', target: 'cluster' }], data: [{ name: 'message', dataRef: 'message' }] },
    });
    const docs = [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kubeconfig', namespace: ns }, stringData: { kubeconfig } },
      {
        apiVersion: LANDSCAPER_API_VERSION,
        kind: 'Target',
        metadata: { name: 'cluster', namespace: ns },
        spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: { secretRef: { name: 'kubeconfig', namespace: ns, key: 'kubeconfig' } } } },
      },
      { apiVersion: LANDSCAPER_API_VERSION, kind: 'DataObject', metadata: { name: 'message', namespace: ns }, data: 'hello' },
      installation('root', ns, parent, { imports: { targets: [{ name: 'cluster', target: 'cluster' }], data: [{ name: 'message', dataRef: 'message' }] } }),
    ];
    (docs[3] as Installation).spec.blueprint = { inline: { filesystem: { 'blueprint.yaml': parent, 'child.yaml': childInst } } };
    return docs.map((d) => stringify(d)).join('---\n');
  };

  it('completes with a whole Landscaper tree in it, uninstalling through its Target first', { timeout: 90_000 }, async () => {
    const ns = await env.namespace('ns-delete');
    const out = await env.namespace('ns-delete-out');
    const kubectl = kubectlFor(env.server.kubeconfigFile);
    const applied = await kubectl(['apply', '-f', '-'], tree(ns, out, env.server.kubeconfig));
    assert.equal(applied.code, 0, applied.stderr);
    const inst = await untilFinished(env, ns, 'root', { timeoutMs: 30_000 });
    assert.equal(inst.status?.phase, 'Succeeded', JSON.stringify(inst.status));
    assert.ok(await getOrUndefined(env.client, R.configMaps, out, 'applied'));

    const deleted = await kubectl(['delete', 'namespace', ns, '--timeout=60s']);
    assert.equal(deleted.code, 0, `${deleted.stdout}${deleted.stderr}`);
    assert.equal(await getOrUndefined(env.client, R.namespaces, '', ns), undefined);
    // The manifest deploy item was uninstalled, through the Target and its Secret, before they went.
    assert.equal(await getOrUndefined(env.client, R.configMaps, out, 'applied'), undefined);
  });
});
