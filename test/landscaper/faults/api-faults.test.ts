// API fault injection: the whole Landscaper family runs on a manager whose client fails 20% of its
// requests (conflicts, 429s, 500s, resets and timeouts, some after the server applied the write, and
// broken watches). Sibling installations that pass data through imports and exports, each with a deploy
// item DAG and a subinstallation, still converge to Succeeded with the right exports.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { withFaultInjection, type FaultInjectingClient } from '../../../src/client/fault-injection.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { dataObjectsResource, deployItemsResource, executionsResource, installationsResource } from '../../../src/landscaper/api/resources.ts';
import { createNamespace, dagBlueprint, dataObject, getData, installation, landscapeState, startLandscape, untilFinished, type Landscape } from './fixtures.ts';

const SEED = Number(process.env['FAULT_SEED'] ?? 20261121);
let ls: Landscape;
let faulty: FaultInjectingClient | undefined;

before(async () => {
  ls = await startLandscape({
    wrap: (c) => (faulty = withFaultInjection(c, { rate: 0.2, seed: SEED, retryAfterSeconds: 1 })),
    landscaper: { mock: { errorBackoff: { initialMs: 50, maxMs: 1000 } } },
    // The default per-object backoff doubles up to 1000 s (controller-runtime's): at a sustained 20% fault
    // rate a phase that needs several requests fails often enough in a row to sleep for minutes. What this
    // test checks is that every retry is safe and the landscape converges, so the ladder stops at 1 s.
    maxBackoffMs: 1000,
  });
});

after(async () => {
  await ls.close();
});

test(
  `siblings with imports/exports, DAGs and subinstallations converge under 20% API faults (seed ${SEED})`,
  { timeout: 180_000 },
  async () => {
  const ns = 'faulty';
  await createNamespace(ls.client, ns);
  await ls.client.create(dataObjectsResource, dataObject('seed', ns, 's'));
  const bp = dagBlueprint(3, 2, true);
  // A chain of three siblings: each imports the previous one's result.
  const chain = [
    { name: 'first', from: 'seed', result: 'first-result', sub: 'first-sub' },
    { name: 'second', from: 'first-result', result: 'second-result', sub: 'second-sub' },
    { name: 'third', from: 'second-result', result: 'third-result', sub: 'third-sub' },
  ];
  // Created in reverse: the successors must wait for their predecessors' exports.
  for (const s of [...chain].reverse()) {
    await ls.client.create(
      installationsResource,
      installation(s.name, ns, bp, {
        imports: { data: [{ name: 'seed', dataRef: s.from }] },
        exports: { data: [{ name: 'result', dataRef: s.result }, { name: 'sub', dataRef: s.sub }] },
      }),
    );
  }
  for (const s of chain) {
    let inst;
    try {
      inst = await untilFinished(ls.client, ns, s.name, Number(process.env['FAULT_WAIT_MS'] ?? 150_000));
    } catch (err) {
      // What is everything else doing? Phases, jobs and last errors of the executions and deploy items.
      const brief = (o: KubeObject): string => {
        const st = (o as { status?: { phase?: string; jobID?: string; jobIDFinished?: string; lastError?: { message?: string } } }).status;
        const detail = process.env['FAULT_DUMP'] !== undefined && o.kind === 'Installation' ? ` ${JSON.stringify({ metadata: { ...o.metadata, managedFields: undefined }, status: st })}` : '';
        return `${o.kind} ${o.metadata.name}: ${st?.phase} job ${st?.jobID?.slice(0, 8)}/${st?.jobIDFinished?.slice(0, 8)} ${st?.lastError?.message ?? ''}${detail}`;
      };
      const all = [
        ...(await ls.client.list(installationsResource, { namespace: ns })).items,
        ...(await ls.client.list(executionsResource, { namespace: ns })).items,
        ...(await ls.client.list(deployItemsResource, { namespace: ns })).items,
      ];
      throw new Error(`${String(err)}\n${all.map(brief).join('\n')}`, { cause: err });
    }
    assert.equal(inst.status?.phase, 'Succeeded', `${s.name}: ${inst.status?.lastError?.message}`);
  }
  assert.equal(await getData(ls.client, ns, 'first-result'), 'l2-i0-s');
  assert.equal(await getData(ls.client, ns, 'first-sub'), 'child-s');
  assert.equal(await getData(ls.client, ns, 'second-result'), 'l2-i0-l2-i0-s');
  assert.equal(await getData(ls.client, ns, 'second-sub'), 'child-l2-i0-s');
  assert.equal(await getData(ls.client, ns, 'third-result'), 'l2-i0-l2-i0-l2-i0-s');
  assert.equal(await getData(ls.client, ns, 'third-sub'), 'child-l2-i0-l2-i0-s');

  const state = await landscapeState(ls.client, ns, []);
  for (const i of state.installations) assert.ok(i.phase === 'Succeeded' && i.jobDone, `installation ${i.name}: ${JSON.stringify(i)}`);
  for (const e of state.executions) assert.ok(e.phase === 'Succeeded' && e.jobDone, `execution ${e.name}: ${JSON.stringify(e)}`);
  assert.equal(state.deployItems.length, 3 * (6 + 1), 'every DAG item and child item exists once');
  for (const d of state.deployItems) assert.ok(d.phase === 'Succeeded' && d.jobDone, `deploy item ${d.name}: ${JSON.stringify(d)}`);
  const injected = Object.values(faulty!.injected).reduce((a, b) => a + b, 0);
  assert.ok(injected > 20, `faults were injected: ${JSON.stringify(faulty!.injected)}`);
  console.log(`# faults injected: ${JSON.stringify(faulty!.injected)}`);
  },
);
