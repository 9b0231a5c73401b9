// pod-replacement asks the node runtime once per pod, with --delete-storage off unless given (upstream's
// default-true bug fixed), and fails clearly without a runtime; dry-run makes no call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PodReplacementRequest } from '../../../../src/client/node-runtime/protocol.ts';
import type { InjectorTarget } from '../../../../src/chaos/injector/injector.ts';
import { podReplacementKind } from '../../../../src/chaos/injector/kinds/pod-replacement.ts';
import { context, RecordingWrites } from './host-doubles.ts';

const target = (container: string): InjectorTarget => ({
  level: 'pod',
  targetName: 'web-0',
  nodeName: 'node-a',
  container: { id: container, podUid: 'u1', namespace: 'shop', pod: 'web-0', container, pid: 42, cgroupVersion: 1, cgroups: {} },
});

function recordingActions() {
  const calls: { namespace: string; name: string; request: PodReplacementRequest }[] = [];
  return { calls, actions: { replacePod: (namespace: string, name: string, request: PodReplacementRequest) => Promise.resolve(void calls.push({ namespace, name, request })) } };
}

test('replaces the target pod once, storage kept by default', async () => {
  const { calls, actions } = recordingActions();
  const kind = podReplacementKind(actions);
  const writes = new RecordingWrites();
  for (const c of ['app', 'sidecar']) {
    const injector = kind.create(context(target(c), writes), { deleteStorage: false, forceDelete: false });
    await injector.inject();
    await injector.clean();
  }
  assert.deepEqual(calls, [{ namespace: 'shop', name: 'web-0', request: { deleteStorage: false, force: false } }]);
  assert.deepEqual(writes.recorded, [{ op: 'runtimeCall', description: 'replace pod shop/web-0' }]);
});

test('passes --delete-storage, --force-delete and --grace-period-seconds', async () => {
  const { calls, actions } = recordingActions();
  await podReplacementKind(actions).create(context(target('app'), new RecordingWrites()), { deleteStorage: true, forceDelete: true, gracePeriodSeconds: '15' }).inject();
  assert.deepEqual(calls[0]?.request, { deleteStorage: true, force: true, gracePeriodSeconds: 15 });
  assert.throws(() => podReplacementKind(actions).create(context(target('app'), new RecordingWrites()), { gracePeriodSeconds: 'soon' }), /--grace-period-seconds: "soon"/);
});

test('without a node runtime it fails with a clear message; dry-run makes no call', async () => {
  await assert.rejects(podReplacementKind().create(context(target('app'), new RecordingWrites()), {}).inject(), { name: 'PodReplacementError', message: /no node runtime to ask .*BOSUN_NODE_RUNTIME_SOCKET/ });
  const { calls, actions } = recordingActions();
  const writes = new RecordingWrites(undefined, true);
  await podReplacementKind(actions).create(context(target('app'), writes, undefined, true), {}).inject();
  assert.equal(calls.length, 0);
  assert.deepEqual(writes.recorded, [{ op: 'runtimeCall', description: 'replace pod shop/web-0' }]);
});
