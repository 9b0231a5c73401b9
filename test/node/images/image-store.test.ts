// The image store over real layer directories: pull (the puller stands in as a function over fixture blobs, as
// the store takes it), local, Node.status.images names, reference counts and kubelet's LRU garbage collection.
// Needs root (layers keep owners and device nodes).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageStore, type DiskUsage, type ImageStoreOptions } from '../../../src/node/images/image-store.ts';
import type { LayerBlob, PulledImage } from '../../../src/node/images/types.ts';
import { buildTrickyImage, sh } from './layer-fixture.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-image-store-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A layer of the given files, uncompressed. */
async function layer(name: string, files: Record<string, string>): Promise<LayerBlob> {
  const source = join(dir, 'sources', name);
  await mkdir(source, { recursive: true });
  for (const [path, content] of Object.entries(files)) await writeFile(join(source, path), content);
  const path = join(dir, 'sources', `${name}.tar`);
  sh(`tar --format=posix --numeric-owner -cf ${path} -C ${source} .`);
  const digest = `sha256:${createHash('sha256').update(await readFile(path)).digest('hex')}`;
  return { digest, mediaType: 'application/vnd.oci.image.layer.v1.tar', diffID: digest, path };
}

function image(reference: string, configDigest: string, layers: LayerBlob[]): PulledImage {
  const manifestDigest = `sha256:${createHash('sha256').update(`manifest of ${configDigest}`).digest('hex')}`;
  return {
    reference,
    repository: reference.replace(/[:@][^/]*$/, ''),
    manifestDigest,
    configDigest,
    config: { cmd: ['sh'], env: [`IMAGE=${reference}`] },
    layers,
    sizeBytes: layers.length * 1000,
  };
}

function normalizeReference(reference: string): string {
  const named = reference.includes('/') ? reference : `docker.io/library/${reference}`;
  return /[:@][^/]*$/.test(named) ? named : `${named}:latest`;
}

/** A registry of fixture images behind the store's pull dependency, counting pulls. */
function fakePuller(images: PulledImage[]) {
  const pulls: string[] = [];
  const pull = (reference: string): Promise<PulledImage> => {
    const normalized = normalizeReference(reference);
    pulls.push(normalized);
    const found = images.find((candidate) => candidate.reference === normalized);
    return found ? Promise.resolve(found) : Promise.reject(new Error(`${normalized}: not found`));
  };
  return { pull, pulls };
}

function config(n: number): string {
  return `sha256:${String(n).repeat(64)}`;
}

async function openStore(root: string, options: Partial<ImageStoreOptions> & Pick<ImageStoreOptions, 'pull'>): Promise<ImageStore> {
  return ImageStore.open({ root: join(dir, root), normalizeReference, gcPolicy: { minAgeMs: 0 }, ...options });
}

test('pull unpacks every layer once, records the image and finds it again by any name', async () => {
  const fixtureDir = join(dir, 'tricky');
  await mkdir(fixtureDir);
  const tricky = buildTrickyImage(fixtureDir);
  const web = image('docker.io/library/web:1.0', config(1), [tricky.base, tricky.changes]);
  const puller = fakePuller([web, { ...web, reference: 'docker.io/library/web:stable' }]);
  const store = await openStore('pull', { pull: puller.pull });

  const [first, second] = await Promise.all([store.pull('web:1.0'), store.pull('docker.io/library/web:1.0')]);
  assert.deepEqual(puller.pulls, ['docker.io/library/web:1.0']);
  assert.deepEqual(first, second);
  assert.equal(first.imageID, `docker.io/library/web@${web.manifestDigest}`);
  assert.equal(first.manifestDigest, web.manifestDigest);
  assert.deepEqual(first.config, web.config);
  assert.equal(first.layerDirs.length, 2);
  assert.ok(existsSync(join(first.layerDirs[1]!, 'opaque', 'new.txt')));

  await store.pull('web:stable');
  assert.deepEqual(await store.list(), [
    { names: [`docker.io/library/web@${web.manifestDigest}`, 'docker.io/library/web:1.0', 'docker.io/library/web:stable'], sizeBytes: 2000 },
  ]);
  assert.equal((await store.local('web:1.0'))?.imageID, first.imageID);
  assert.deepEqual((await store.local(`web@${web.manifestDigest}`))?.layerDirs, first.layerDirs);
  assert.equal(await store.local('web:2.0'), undefined);

  // The index survives the agent.
  const reopened = await openStore('pull', { pull: puller.pull });
  assert.deepEqual(await reopened.local('web:stable'), { ...first, reference: 'docker.io/library/web:stable' });
});

test('a tag moves to the image pulled last', async () => {
  const one = await layer('tag-one', { one: '1' });
  const two = await layer('tag-two', { two: '2' });
  const puller = fakePuller([image('docker.io/library/app:latest', config(2), [one])]);
  const store = await openStore('tags', { pull: puller.pull });
  await store.pull('app');
  const images = [image('docker.io/library/app:latest', config(3), [two])];
  const moved = await openStore('tags', { pull: fakePuller(images).pull });
  const pulled = await moved.pull('app');
  assert.deepEqual(pulled.layerDirs.length, 1);
  const names = (await moved.list()).map((entry) => entry.names);
  assert.equal(names.length, 2);
  assert.ok(names.some((list) => list.length === 1 && list[0]!.includes('@')), 'the old image keeps only its digest');
  assert.equal((await moved.local('app'))?.manifestDigest, images[0]!.manifestDigest);
});

test('GC removes least recently used unused images above the threshold, keeping shared layers and used images', async () => {
  const shared = await layer('shared', { 'shared.bin': 'x'.repeat(100) });
  const onlyOld = await layer('only-old', { 'old.bin': 'o'.repeat(600) });
  const onlyNewer = await layer('only-newer', { 'newer.bin': 'n'.repeat(300) });
  const onlyUsed = await layer('only-used', { 'used.bin': 'u'.repeat(300) });
  const images = [
    image('docker.io/library/old:1', config(4), [shared, onlyOld]),
    image('docker.io/library/newer:1', config(5), [shared, onlyNewer]),
    image('docker.io/library/used:1', config(6), [onlyUsed]),
  ];
  let clock = 1_000;
  let disk: DiskUsage = { capacityBytes: 10_000, availableBytes: 1_900 };
  const store = await openStore('gc', { pull: fakePuller(images).pull, now: () => clock, diskUsage: () => Promise.resolve(disk) });
  const old = await store.pull('old:1');
  clock += 1000;
  const newer = await store.pull('newer:1');
  clock += 1000;
  const used = await store.pull('used:1');
  const release = store.use(used.imageID);

  // 81% used: below the high threshold, nothing goes.
  assert.deepEqual(await store.collectGarbage(), { removed: [], freedBytes: 0 });

  // 90% used: 1,000 bytes to free down to 80%; the old image frees 600 (its own layer), then the newer one goes too.
  disk = { capacityBytes: 10_000, availableBytes: 1_000 };
  clock += 1000;
  store.use(newer.imageID)(); // newer was used after old
  const first = await store.collectGarbage();
  assert.deepEqual(first, { removed: [old.imageID, newer.imageID], freedBytes: 1000 });
  assert.equal(existsSync(used.layerDirs[0]!), true);
  assert.equal(await store.local('old:1'), undefined);
  assert.equal(await store.local('newer:1'), undefined);
  assert.deepEqual(await store.local('used:1'), used);

  // 85% used, 500 bytes to free: the old image alone goes, the shared layer stays for the newer one.
  const again = await openStore('gc-again', { pull: fakePuller(images).pull, now: () => clock, diskUsage: () => Promise.resolve({ capacityBytes: 10_000, availableBytes: 1_500 }) });
  const oldAgain = await again.pull('old:1');
  clock += 1000;
  const newerAgain = await again.pull('newer:1');
  assert.deepEqual(await again.collectGarbage(), { removed: [oldAgain.imageID], freedBytes: 600 });
  assert.equal(existsSync(oldAgain.layerDirs[1]!), false);
  assert.equal(existsSync(newerAgain.layerDirs[0]!), true, 'the shared layer stays');
  assert.deepEqual(await again.local('newer:1'), newerAgain);

  // An image in use is never removed, however much is to be freed.
  disk = { capacityBytes: 10_000, availableBytes: 0 };
  assert.deepEqual(await store.collectGarbage(), { removed: [], freedBytes: 0 });
  release();
  assert.deepEqual(await store.collectGarbage(), { removed: [used.imageID], freedBytes: 300 });
  assert.deepEqual(await store.list(), []);
});

test('a collection during a pull never removes a layer the pull has found on disk', async () => {
  const shared = await layer('race-shared', { 'shared.bin': 's'.repeat(100) });
  const images = [image('docker.io/library/race-old:1', config(7), [shared]), image('docker.io/library/race-new:1', config(8), [shared])];
  let clock = 0;
  const store = await openStore('race', {
    pull: fakePuller(images).pull,
    now: () => clock,
    gcPolicy: { minAgeMs: 1000 },
    diskUsage: () => Promise.resolve({ capacityBytes: 10_000, availableBytes: 0 }),
  });
  const old = await store.pull('race-old:1');
  clock = 5000;
  // The new image's pull finds the shared layer on disk while the collection removes the old image, which had it.
  const [pulled, collected] = await Promise.all([store.pull('race-new:1'), store.collectGarbage()]);
  assert.deepEqual(collected.removed, [old.imageID]);
  assert.deepEqual(await store.local('race-new:1'), pulled);
  assert.ok(existsSync(join(pulled.layerDirs[0]!, 'shared.bin')));
});

test('a pull that fails half-way records nothing, and the next collection removes the layers it unpacked', async () => {
  const first = await layer('orphan-first', { 'first.bin': 'f' });
  const corrupt = { ...(await layer('orphan-second', { 'second.bin': 's' })), diffID: config(9) };
  const store = await openStore('orphans', {
    pull: fakePuller([image('docker.io/library/broken:1', config(9), [first, corrupt])]).pull,
    diskUsage: () => Promise.resolve({ capacityBytes: 10_000, availableBytes: 9_000 }),
  });
  await assert.rejects(store.pull('broken:1'), /layer content does not match its diffID/);
  assert.deepEqual(await store.list(), []);
  const orphan = join(dir, 'orphans', 'layers', 'sha256', first.diffID.slice('sha256:'.length));
  assert.ok(existsSync(orphan));
  assert.deepEqual(await store.collectGarbage(), { removed: [], freedBytes: 1 });
  assert.equal(existsSync(orphan), false);
});
