// The first listing of a pod's volume sources: a source changed between the pod's set-up and the watches' first
// listing is written then (the listing is compared with what the set-up read by resourceVersion).
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { configMapsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Volume } from '../../src/apimachinery/api/index.ts';
import { LiveVolumes } from '../../src/node/agent/live-volumes.ts';
import { materialiseVolumes } from '../../src/node/agent/pod-volumes.ts';
import { ObjectWatches } from '../../src/node/agent/volumes/object-watches.ts';
import type { EventRecorder } from '../../src/runtime/index.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { CONFIGMAPS, NAMESPACE, configMap, openPodFixture, type PodFixture } from './agent-pod-fixture.ts';

let fixture: PodFixture;
before(async () => {
  fixture = await openPodFixture();
});
after(() => fixture.close());

/** Resolves once dir's ..data points elsewhere than `from` (the atomic writer's swap), watched, not polled. */
function swapped(dir: string, from: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, () => {
      readlink(join(dir, '..data')).then((now) => {
        if (now === from) return;
        watcher.close();
        resolve();
      }, reject);
    });
  });
}

test('a source changed after the set-up read it is rewritten at the first listing', { timeout: 20_000 }, async () => {
  await fixture.create(CONFIGMAPS, configMap('moving', { v: 'one' }));
  const context = fixture.context();
  const volumes: Volume[] = [{ name: 'cfg', configMap: { name: 'moving' } }];
  const dir = (await materialiseVolumes(context, volumes)).get('cfg')?.hostPath ?? '';
  assert.equal(await readFile(join(dir, 'v'), 'utf8'), 'one');
  const before = await readlink(join(dir, '..data'));
  await fixture.client.patch(configMapsResource, 'moving', { data: { v: 'two' } }, { namespace: NAMESPACE, type: 'merge' });

  const logger = createLogger({ level: 'silent' });
  const watches = new ObjectWatches(fixture.client, logger);
  const recorder = { warning: async () => undefined } as unknown as EventRecorder;
  const live = new LiveVolumes({ client: fixture.client, watches, recorder, logger, pod: () => ({ apiVersion: 'v1', kind: 'Pod', metadata: context.pod.metadata }) }, context, volumes);
  const rewritten = swapped(dir, before);
  live.start();
  await rewritten;
  assert.equal(await readFile(join(dir, 'v'), 'utf8'), 'two');
  await live.stop();
  await watches.stop();
});
