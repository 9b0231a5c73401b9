// What a newcomer ran into (issue 11): states that never end and errors that say too little. Each case ends
// within a bounded wait with a message that names the cause, and everything it leaves behind can be deleted.
// The whole Landscaper family runs on one manager against an embedded API server, with short timeouts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { installationsResource } from '../../../src/landscaper/api/resources.ts';
import { createNamespace, getOrUndefined, installation, startLandscape, until, untilFinished, type Landscape } from './fixtures.ts';

let ls: Landscape;
let nsCounter = 0;
const PICKUP_MS = 1500;

before(async () => {
  ls = await startLandscape({
    landscaper: {
      deployItem: { pickupTimeout: PICKUP_MS, recheckSlackMs: 50 },
      manifest: { unreachableGraceMs: 1000, targetRequestTimeoutMs: 1000, errorBackoff: { initialMs: 100, maxMs: 300 } },
      mock: { errorBackoff: { initialMs: 100, maxMs: 300 } },
    },
  });
});

after(async () => {
  await ls.close();
});

async function namespace(prefix: string): Promise<string> {
  const ns = `${prefix}-${++nsCounter}`;
  await createNamespace(ls.client, ns);
  return ns;
}

/** Imports `in` from the DataObject `from`, exports `out` into `to`. */
function relay(name: string, ns: string, from: string, to: string, annotations?: Record<string, string>): Installation {
  const bp = stringify({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Blueprint',
    imports: [{ name: 'in', type: 'data', schema: { type: 'string' } }],
    exports: [{ name: 'out', type: 'data', schema: { type: 'string' } }],
    exportExecutions: [{ name: 'e', type: 'GoTemplate', template: 'exports:\n  out: x\n' }],
  });
  const spec = { imports: { data: [{ name: 'in', dataRef: from }] }, exports: { data: [{ name: 'out', dataRef: to }] } };
  return annotations ? installation(name, ns, bp, spec, annotations) : installation(name, ns, bp, spec);
}

async function untilGone(ns: string, names: string[], timeoutMs = 15_000): Promise<void> {
  await until(`installations ${names.join(', ')} in ${ns} to be gone`, async () => Promise.all(names.map((n) => getOrUndefined(ls.client, installationsResource, n, ns))), (all) => all.every((i) => i === undefined), timeoutMs);
}

for (const variant of ['plain', 'interrupt and delete-without-uninstall'] as const) {
  test(`siblings that import each other's exports fail, naming the cycle, and delete (${variant})`, { timeout: 60_000 }, async () => {
    const ns = await namespace('cycle');
    // A third sibling that only imports from the cycle fails because its predecessor failed, and deletes too.
    await ls.client.create(installationsResource, relay('cyc-x', ns, 'y-out', 'x-out'));
    await ls.client.create(installationsResource, relay('cyc-y', ns, 'x-out', 'y-out'));
    await ls.client.create(installationsResource, relay('cyc-after', ns, 'y-out', 'after-out'));
    const x = await untilFinished(ls.client, ns, 'cyc-x', 15_000);
    const y = await untilFinished(ls.client, ns, 'cyc-y', 15_000);
    assert.equal(x.status?.phase, 'Failed');
    assert.equal(y.status?.phase, 'Failed');
    assert.equal(x.status?.lastError?.message, 'import cycle between sibling installations: cyc-x → cyc-y → cyc-x');
    assert.equal(y.status?.lastError?.message, 'import cycle between sibling installations: cyc-y → cyc-x → cyc-y');
    assert.equal(x.status?.lastError?.reason, 'ImportCycle');
    const follower = await untilFinished(ls.client, ns, 'cyc-after', 15_000);
    assert.equal(follower.status?.phase, 'Failed');
    assert.match(follower.status?.lastError?.message ?? '', /predecessor.*cyc-y/);

    if (variant !== 'plain') {
      for (const name of ['cyc-x', 'cyc-y']) {
        const annotations = { 'landscaper.gardener.cloud/operation': 'interrupt', 'landscaper.gardener.cloud/delete-without-uninstall': 'true' };
        await ls.client.patch(installationsResource, name, { metadata: { annotations } }, { type: 'merge', namespace: ns });
      }
    }
    for (const name of ['cyc-x', 'cyc-y', 'cyc-after']) await ls.client.delete(installationsResource, name, { namespace: ns });
    await untilGone(ns, ['cyc-x', 'cyc-y', 'cyc-after']);
  });
}

test('one installation of a cycle can be deleted alone', { timeout: 60_000 }, async () => {
  const ns = await namespace('cycle-one');
  await ls.client.create(installationsResource, relay('cyc-x', ns, 'y-out', 'x-out'));
  await ls.client.create(installationsResource, relay('cyc-y', ns, 'x-out', 'y-out'));
  await untilFinished(ls.client, ns, 'cyc-x', 15_000);
  await untilFinished(ls.client, ns, 'cyc-y', 15_000);
  await ls.client.delete(installationsResource, 'cyc-x', { namespace: ns });
  await untilGone(ns, ['cyc-x']);
  assert.equal((await getOrUndefined<Installation>(ls.client, installationsResource, 'cyc-y', ns))?.status?.phase, 'Failed');
});
