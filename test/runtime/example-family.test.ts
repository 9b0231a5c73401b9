// The example family of docs/runtime.md ("Building a family") runs as documented, against the embedded
// API server: a Widget's data is published as an owned ConfigMap, a spec change republishes it, bad data
// fails the job with a condition that says why, and deleting the Widget deletes the ConfigMap first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { NotFoundError } from '../../src/client/errors.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { widgetFamily, widgets, type Widget } from '../../examples/family/widget-family.ts';
import { configMaps, eventually, startHarness, widget, type Harness } from './harness.ts';

let h: Harness;
let mgr: Manager;
before(async () => {
  h = await startHarness();
  mgr = new Manager({ client: h.newClient(), logger: pino({ enabled: false }) });
  widgetFamily.register(mgr, {});
  await mgr.start();
});
after(async () => {
  await mgr.stop();
  await h.close();
});

const get = (name: string): Promise<Widget> => h.client.get<Widget>(widgets, name, { namespace: 'default' });
const data = async (name: string): Promise<unknown> => (await h.client.get<KubeObject>(configMaps, name, { namespace: 'default' }))['data'];

test('a widget publishes its data, republishes on change, and cleans up on delete', async () => {
  await h.client.create(widgets, widget('w', { data: { greeting: 'hello' } }));
  await eventually(async () => (await get('w')).status?.phase === 'Ready', 'w Ready');
  assert.deepEqual(await data('w-data'), { greeting: 'hello' });
  const ready = (await get('w')).status?.conditions?.[0];
  assert.equal(ready?.status, 'True');
  assert.equal(ready?.observedGeneration, 1);

  await h.client.patch(widgets, 'w', { spec: { data: { greeting: 'bye' } } }, { type: 'merge', namespace: 'default' });
  await eventually(async () => (await get('w')).status?.conditions?.[0]?.observedGeneration === 2 && (await get('w')).status?.phase === 'Ready', 'w Ready again');
  assert.deepEqual(await data('w-data'), { greeting: 'bye' });

  await h.client.delete(widgets, 'w', { namespace: 'default' });
  await eventually(async () => (await get('w').then(() => false, (e: unknown) => e instanceof NotFoundError)), 'w gone');
  await assert.rejects(data('w-data'), NotFoundError, 'the finalizer deleted the ConfigMap first');
});

test('data that is not a string map fails the job with the reason in the Ready condition', async () => {
  await h.client.create(widgets, widget('bad', { data: { port: 8080 } }));
  await eventually(async () => (await get('bad')).status?.phase === 'Failed', 'bad Failed');
  const ready = (await get('bad')).status?.conditions?.[0];
  assert.equal(ready?.status, 'False');
  assert.equal(ready?.reason, 'InvalidWidgetError');
  assert.equal(ready?.message, 'spec.data must map keys to strings');
  assert.equal(await mgr.metrics.value('controller_runtime_terminal_reconcile_errors_total', { controller: 'widget' }), 1);
});
