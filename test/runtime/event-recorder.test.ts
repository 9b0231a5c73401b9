// The event recorder against the embedded API server, on an injected clock: event() queues and returns
// before anything is sent, repeats fold into one Event's count, and the per-object token bucket drops spam.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { EventRecorder } from '../../src/runtime/event-recorder.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

interface Event extends KubeObject {
  reason: string;
  message: string;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
}

function clock(start: string): { now: () => Date; advance: (ms: number) => void } {
  let t = new Date(start).getTime();
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

const subject = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `uid-${name}` } });

async function eventsOf(name: string): Promise<Event[]> {
  const list = await h.client.list<Event>(eventsResource, { namespace: 'default' });
  return list.items.filter((e) => (e['involvedObject'] as { name?: string }).name === name);
}

test('event() returns before the Event is sent; repeats become one Event with a count', async () => {
  const c = clock('2026-11-29T03:00:00Z');
  const recorder = new EventRecorder({ client: h.client, component: 'test', now: c.now });
  const obj = subject('repeats');
  let written = false;
  const first = recorder.normal(obj, 'Started', 'the job started').then(() => (written = true));
  await Promise.resolve();
  assert.equal(written, false, 'queued, not sent in the caller’s turn');
  c.advance(1000);
  void recorder.normal(obj, 'Started', 'the job started');
  c.advance(1000);
  void recorder.normal(obj, 'Started', 'the job started');
  void recorder.normal(obj, 'Finished', 'the job finished');
  await first;
  await recorder.flush();
  const events = await eventsOf('repeats');
  const started = events.find((e) => e.reason === 'Started');
  assert.equal(events.length, 2, 'one Event per reason and message');
  assert.equal(started?.count, 3);
  assert.equal(started?.firstTimestamp, '2026-11-29T03:00:00Z');
  assert.equal(started?.lastTimestamp, '2026-11-29T03:00:02Z');
});

test('a repeat after the window starts a new Event', async () => {
  const c = clock('2026-11-29T03:00:00Z');
  const recorder = new EventRecorder({ client: h.client, component: 'test', now: c.now, windowMs: 60_000 });
  const obj = subject('window');
  void recorder.warning(obj, 'Failed', 'it broke');
  c.advance(61_000);
  void recorder.warning(obj, 'Failed', 'it broke');
  await recorder.flush();
  assert.deepEqual((await eventsOf('window')).map((e) => e.count), [1, 1]);
});

test('the spam filter lets 25 Events of one object through, then one per 5 minutes', async () => {
  const c = clock('2026-11-29T03:00:00Z');
  const recorder = new EventRecorder({ client: h.client, component: 'test', now: c.now });
  const obj = subject('spam');
  for (let i = 0; i < 30; i++) void recorder.normal(obj, 'Step', `step ${i}`);
  void recorder.normal(subject('other'), 'Step', 'another object has its own bucket');
  await recorder.flush();
  assert.equal((await eventsOf('spam')).length, 25);
  assert.equal((await eventsOf('other')).length, 1);
  c.advance(299_000);
  void recorder.normal(obj, 'Step', 'too early');
  c.advance(2_000);
  void recorder.normal(obj, 'Step', 'one token refilled');
  void recorder.normal(obj, 'Step', 'no second token yet');
  await recorder.flush();
  const messages = (await eventsOf('spam')).map((e) => e.message);
  assert.equal(messages.length, 26);
  assert.ok(messages.includes('one token refilled'));
});

test('a full queue drops new Events instead of growing', async () => {
  const recorder = new EventRecorder({ client: h.client, component: 'test', maxQueued: 3 });
  for (let i = 0; i < 5; i++) void recorder.normal(subject(`queued-${i}`), 'Step', 'queued');
  await recorder.flush();
  const list = await h.client.list<Event>(eventsResource, { namespace: 'default' });
  assert.equal(list.items.filter((e) => e.message === 'queued').length, 3);
});
