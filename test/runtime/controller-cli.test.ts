// `bosun controllers` wiring: a kubeconfig file, leader election, the metrics server and a plugged-in family.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leasesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { controllersCommand, runControllers, type ControllersOptions } from '../../src/cli/commands/controllers.ts';
import { UnknownFamilyError } from '../../src/cli/families.ts';
import { action } from '../../src/runtime/controller/action.ts';
import type { Family } from '../../src/runtime/family.ts';
import type { Lease } from '../../src/apimachinery/api/index.ts';
import { eventually, startHarness, widget, widgets, type Harness } from './harness.ts';

let h: Harness;
let dir: string;
let kubeconfig: string;
before(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'bosun-controllers-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, h.server.kubeconfig);
});
after(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

function options(extra: Partial<ControllersOptions> = {}): ControllersOptions {
  return { kubeconfig, leaderElect: true, leaderElectionId: 'cli-test', leaderElectionNamespace: 'default', metricsPort: 0, metricsBindAddress: '127.0.0.1', logLevel: 'silent', ...extra };
}

test('runs registered families under leader election, with metrics and readiness', async () => {
  await h.client.create(widgets, widget('from-cli'));
  const seen: string[] = [];
  const demo: Family = {
    name: 'demo',
    groups: [widgets.group],
    crds: [],
    rbac: [{ apiGroups: [widgets.group], resources: ['widgets'], verbs: ['list', 'watch'] }],
    register: (mgr) => {
      mgr.controller<KubeObject, null>({
        name: 'demo-widgets',
        for: widgets,
        data: null,
        reconcile: async (obj) => {
          seen.push(obj.metadata.name ?? '');
          return action.awaitChange();
        },
      });
    },
  };
  // A family not available here is refused, not silently skipped.
  await assert.rejects(runControllers(options({ controllers: ['demo', 'chaos'] }), [demo]), (e: unknown) => e instanceof UnknownFamilyError && /unknown controller family "chaos" \(available: demo\)/.test(e.message));
  const mgr = await runControllers(options({ controllers: ['demo'] }), [demo]);
  await eventually(() => seen.includes('from-cli'), 'the family reconciles once leading');
  const lease = await h.client.get<Lease>(leasesResource, 'cli-test', { namespace: 'default' });
  assert.ok(lease.spec?.holderIdentity);
  const base = `http://127.0.0.1:${mgr.metricsAddress!.port}`;
  assert.equal((await fetch(`${base}/readyz`)).status, 200);
  assert.match(await (await fetch(`${base}/metrics`)).text(), /controller_runtime_reconcile_total\{controller="demo-widgets",result="success"\}/);
  await mgr.stop();
  await mgr.done;
  const released = await h.client.get<Lease>(leasesResource, 'cli-test', { namespace: 'default' });
  assert.equal(released.spec?.holderIdentity, '', 'released on graceful stop');
});

test('with no family registered the manager still runs; unknown families are refused', async () => {
  const mgr = await runControllers(options({ leaderElectionId: 'cli-empty' }), []);
  await eventually(() => mgr.isLeader, 'leading with no controllers');
  await mgr.stop();
  await assert.rejects(runControllers(options({ controllers: ['nope'] }), []), UnknownFamilyError);
});

test('the command parses its flags', () => {
  const cmd = controllersCommand([]);
  const names = cmd.options.map((o) => o.long);
  for (const flag of ['--kubeconfig', '--context', '--namespace', '--leader-elect', '--metrics-port', '--controllers']) assert.ok(names.includes(flag), flag);
});
