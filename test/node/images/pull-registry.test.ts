// The puller against Debian's docker-registry on 127.0.0.1, with images built here from busybox-static.
import assert from 'node:assert/strict';
import { request as httpRequest, createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodePlatform } from '../../../src/node/images/pull/image-manifest.ts';
import { ImagePuller } from '../../../src/node/images/pull/puller.ts';
import { credentialsFromPullSecrets } from '../../../src/client/oci/pull-secrets.ts';
import { parseRegistriesConfig } from '../../../src/client/oci/registry-config.ts';
import { RegistryError, type RegistryFailure } from '../../../src/client/oci/registry-error.ts';
import { buildOciImage, pushImage, type BuiltImage } from '../../helpers/oci-image.ts';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry.ts';

const dirs: string[] = [];
function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-pull-'));
  dirs.push(dir);
  return dir;
}

async function rejectsWith(promise: Promise<unknown>, failure: RegistryFailure, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof RegistryError, String(error));
    assert.equal(error.failure, failure, error.message);
    assert.match(error.message, message);
    return true;
  });
}

let image: BuiltImage;
before(async () => {
  image = await buildOciImage({ config: { entrypoint: ['/bin/sh'], cmd: ['-c', 'echo hi'], env: ['A=1'], user: '1000', workingDir: '/tmp', exposedPorts: ['8080/tcp'] } });
});
after(() => {
  image.remove();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('an anonymous registry', () => {
  let registry: TestRegistry;
  before(async () => {
    registry = await startTestRegistry();
    await pushImage(image, `${registry.host}/bosun/web:1.0`);
  });
  after(() => registry.stop());

  test('pulls by tag: manifest digest, config, layers with diffIDs, all verified in the store', async () => {
    const puller = new ImagePuller({ root: storeDir() });
    const pulled = await puller.pull(`${registry.host}/bosun/web:1.0`);
    assert.equal(pulled.reference, `${registry.host}/bosun/web:1.0`);
    assert.equal(pulled.repository, `${registry.host}/bosun/web`);
    assert.equal(pulled.manifestDigest, image.digest);
    assert.equal(pulled.configDigest, image.manifests[0]?.configDigest);
    assert.deepEqual(pulled.config, { entrypoint: ['/bin/sh'], cmd: ['-c', 'echo hi'], env: ['A=1'], user: '1000', workingDir: '/tmp', exposedPorts: ['8080/tcp'] });
    assert.deepEqual(
      pulled.layers.map((l) => [l.digest, l.diffID, l.mediaType]),
      image.layers.map((l) => [l.digest, l.diffID, l.mediaType]),
    );
    for (const layer of pulled.layers) assert.ok(existsSync(layer.path) && layer.path.endsWith(layer.digest.slice(7)));
    assert.equal(pulled.sizeBytes, image.layers.reduce((sum, l) => sum + l.size, 0));

    // Pulled again: the manifest is resolved again, the blobs are not fetched again.
    const before = (await registry.requests()).length;
    await puller.pull(`${registry.host}/bosun/web:1.0`);
    const again = (await registry.requests()).slice(before);
    assert.deepEqual(again.filter((r) => r.path.includes('/blobs/')), []);
  });

  test('pulls by digest, and a digest the registry lacks is NotFound', async () => {
    const puller = new ImagePuller({ root: storeDir() });
    const pulled = await puller.pull(`${registry.host}/bosun/web@${image.digest}`);
    assert.equal(pulled.reference, `${registry.host}/bosun/web@${image.digest}`);
    assert.equal(pulled.manifestDigest, image.digest);
    await rejectsWith(puller.pull(`${registry.host}/bosun/web@sha256:${'0'.repeat(64)}`), 'NotFound', /not found/);
  });

  test('a missing tag is NotFound with the registry\'s "manifest unknown"', async () => {
    const puller = new ImagePuller({ root: storeDir() });
    await rejectsWith(
      puller.pull(`${registry.host}/bosun/web:nope`),
      'NotFound',
      new RegExp(`failed to pull "${registry.host}/bosun/web:nope": manifest ${registry.host}/bosun/web:nope: not found \\(manifest unknown\\)`),
    );
  });

  test('Docker v2 schema 2 manifests (skopeo --format v2s2)', async () => {
    await pushImage(image, `${registry.host}/bosun/docker:1.0`, { format: 'v2s2' });
    const pulled = await new ImagePuller({ root: storeDir() }).pull(`${registry.host}/bosun/docker:1.0`);
    assert.deepEqual(pulled.layers.map((l) => l.mediaType), ['application/vnd.docker.image.rootfs.diff.tar.gzip']);
    assert.deepEqual(pulled.layers.map((l) => l.diffID), image.layers.map((l) => l.diffID));
    assert.equal(pulled.config.user, '1000');
  });

  test('an index with two platforms: the manifest for linux/<this arch>; none → UnsupportedPlatform', async () => {
    const mine = nodePlatform();
    const other = mine.architecture === 'arm64' ? { architecture: 'amd64' } : { architecture: 'arm64', variant: 'v8' };
    const multi = await buildOciImage({ platforms: [other, { architecture: mine.architecture }] });
    const foreign = await buildOciImage({ platforms: [other, { architecture: 's390x' }] });
    try {
      await pushImage(multi, `${registry.host}/bosun/multi:1.0`);
      await pushImage(multi, `${registry.host}/bosun/multi:list`, { format: 'v2s2' });
      await pushImage(foreign, `${registry.host}/bosun/foreign:1.0`);
      const puller = new ImagePuller({ root: storeDir() });
      const pulled = await puller.pull(`${registry.host}/bosun/multi:1.0`);
      assert.equal(pulled.manifestDigest, multi.manifests[1]?.digest);
      assert.equal(pulled.configDigest, multi.manifests[1]?.configDigest);
      const fromList = await puller.pull(`${registry.host}/bosun/multi:list`);
      assert.equal(fromList.configDigest, multi.manifests[1]?.configDigest);
      await rejectsWith(puller.pull(`${registry.host}/bosun/foreign:1.0`), 'UnsupportedPlatform', new RegExp(`no match for platform linux/${mine.architecture}.*offers linux/`));
    } finally {
      multi.remove();
      foreign.remove();
    }
  });

  test('a corrupted blob: DigestMismatch, nothing of it left in the store', async () => {
    await pushImage(image, `${registry.host}/bosun/corrupt:1.0`);
    const [layer] = image.layers;
    assert.ok(layer);
    const hex = layer.digest.slice(7);
    // Same size, other bytes: only the digest can tell.
    writeFileSync(join(registry.storageDir, 'docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data'), Buffer.alloc(layer.size, 7));
    const root = storeDir();
    await rejectsWith(new ImagePuller({ root }).pull(`${registry.host}/bosun/corrupt:1.0`), 'DigestMismatch', new RegExp(`blob ${layer.digest} failed verification`));
    assert.ok(!existsSync(join(root, 'blobs/sha256', hex)));
    assert.deepEqual(readdirSync(join(root, 'ingest')), []);
  });
});

test('10 concurrent pulls of one image download it once', async () => {
  const registry = await startTestRegistry();
  try {
    await pushImage(image, `${registry.host}/bosun/once:1.0`);
    const start = (await registry.requests()).length;
    const puller = new ImagePuller({ root: storeDir() });
    const pulled = await Promise.all(Array.from({ length: 10 }, () => puller.pull(`${registry.host}/bosun/once:1.0`)));
    assert.ok(pulled.every((p) => p.manifestDigest === image.digest));
    const served = (await registry.requests()).slice(start).filter((r) => r.method === 'GET' && r.path !== '/v2/');
    assert.deepEqual(served.map((r) => r.path).sort(), [
      `/v2/bosun/once/blobs/${image.manifests[0]?.configDigest}`,
      ...image.layers.map((l) => `/v2/bosun/once/blobs/${l.digest}`),
      '/v2/bosun/once/manifests/1.0',
    ].sort());
  } finally {
    await registry.stop();
  }
});

test('htpasswd: pulls with credentials, Unauthorized (401) without', async () => {
  const registry = await startTestRegistry({ htpasswd: { alice: 'wonderland' } });
  try {
    await pushImage(image, `${registry.host}/private/app:1.0`, { credentials: registry.credentials });
    const puller = new ImagePuller({ root: storeDir() });
    const credentials = new Map([[registry.host, { username: 'alice', password: 'wonderland' }]]);
    const pulled = await puller.pull(`${registry.host}/private/app:1.0`, { credentials });
    assert.equal(pulled.manifestDigest, image.digest);
    // The same through an imagePullSecret, keyed as `docker login` writes it.
    const dockerconfigjson = { auths: { [`https://${registry.host}/v1/`]: { auth: Buffer.from('alice:wonderland').toString('base64') } } };
    const fromSecret = credentialsFromPullSecrets([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify(dockerconfigjson)).toString('base64') } },
    ]);
    assert.equal((await new ImagePuller({ root: storeDir() }).pull(`${registry.host}/private/app:1.0`, { credentials: fromSecret })).manifestDigest, image.digest);
    await rejectsWith(puller.pull(`${registry.host}/private/app:1.0`), 'Unauthorized', new RegExp(`pull access denied for private/app on registry ${registry.host}: 401 Unauthorized \\(the registry asks for Basic auth and no credentials were given\\)`));
    const wrong = new Map([[`https://${registry.host}`, { username: 'alice', password: 'nope' }]]);
    await rejectsWith(puller.pull(`${registry.host}/private/app:1.0`, { credentials: wrong }), 'Unauthorized', new RegExp(`pull access denied for private/app on registry ${registry.host}: 401 Unauthorized`));
  } finally {
    await registry.stop();
  }
});

test('token auth: an anonymous token for a public repository, a credential token and an identity token for a private one', async () => {
  const registry = await startTestRegistry({ token: { users: { bob: 'builder' }, publicRepositories: ['pub/app'], identityTokens: { 'id-token-bob': 'bob' } } });
  try {
    await pushImage(image, `${registry.host}/pub/app:1.0`, { credentials: registry.credentials });
    await pushImage(image, `${registry.host}/private/app:1.0`, { credentials: registry.credentials });
    const puller = new ImagePuller({ root: storeDir() });
    const mark = registry.tokenRequests.length;
    assert.equal((await puller.pull(`${registry.host}/pub/app:1.0`)).manifestDigest, image.digest);
    await rejectsWith(puller.pull(`${registry.host}/private/app:1.0`), 'Unauthorized', new RegExp(`pull access denied for private/app on registry ${registry.host}: 401 Unauthorized`));
    const withPassword = new Map([[registry.host, { username: 'bob', password: 'builder' }]]);
    assert.equal((await puller.pull(`${registry.host}/private/app:1.0`, { credentials: withPassword })).manifestDigest, image.digest);
    const withIdentity = new Map([[registry.host, { identityToken: 'id-token-bob' }]]);
    assert.equal((await new ImagePuller({ root: storeDir() }).pull(`${registry.host}/private/app:1.0`, { credentials: withIdentity })).manifestDigest, image.digest);
    const badPassword = new Map([[registry.host, { username: 'bob', password: 'x' }]]);
    await rejectsWith(puller.pull(`${registry.host}/private/app:1.0`, { credentials: badPassword }), 'Unauthorized', /failed to authorize as bob for repository private\/app .*token server answered 401/);
    assert.deepEqual(
      registry.tokenRequests.slice(mark).map((r) => [r.grant, r.user ?? '', r.scope]),
      [
        ['anonymous', '', 'repository:pub/app:pull'],
        ['anonymous', '', 'repository:private/app:pull'],
        ['basic', 'bob', 'repository:private/app:pull'],
        ['refresh_token', 'bob', 'repository:private/app:pull'],
      ],
    );
  } finally {
    await registry.stop();
  }
});

test('a mirror from registries.yaml with a rewrite serves docker.io/library/busybox from 127.0.0.1', async () => {
  const registry = await startTestRegistry();
  try {
    await pushImage(image, `${registry.host}/mirrored/busybox:latest`);
    const registries = parseRegistriesConfig(
      `mirrors:\n  docker.io:\n    endpoint: ["http://${registry.host}"]\n    rewrite:\n      "^library/(.*)": "mirrored/$1"\n`,
    );
    const pulled = await new ImagePuller({ root: storeDir(), registries }).pull('busybox');
    assert.equal(pulled.reference, 'docker.io/library/busybox:latest');
    assert.equal(pulled.repository, 'docker.io/library/busybox');
    assert.equal(pulled.manifestDigest, image.digest);
    const served = await registry.requests();
    assert.ok(served.some((r) => r.path === '/v2/mirrored/busybox/manifests/latest' && r.status === 200));
  } finally {
    await registry.stop();
  }
});

test('a registry nobody listens on is Unreachable, naming the endpoint', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  await rejectsWith(
    new ImagePuller({ root: storeDir() }).pull(`127.0.0.1:${port}/bosun/web:1.0`),
    'Unreachable',
    new RegExp(`registry endpoint http://127.0.0.1:${port}/v2 is unreachable for 127.0.0.1:${port}/bosun/web after 4 attempts: .*ECONNREFUSED`),
  );
});

test('5xx answers are retried with back-off; a registry that keeps failing is Unreachable', async () => {
  const registry = await startTestRegistry();
  // A proxy that answers 503 to the first `failures` manifest requests, then forwards.
  let failures = 2;
  let manifestRequests = 0;
  const proxy = createHttpServer((req, res) => {
    if (req.url?.includes('/manifests/')) {
      manifestRequests++;
      if (failures-- > 0) return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"errors":[{"code":"UNAVAILABLE","message":"try later"}]}');
    }
    const upstream = httpRequest(`${registry.url}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  try {
    await pushImage(image, `${registry.host}/bosun/flaky:1.0`);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const puller = new ImagePuller({ root: storeDir() });
    assert.equal((await puller.pull(`${host}/bosun/flaky:1.0`)).manifestDigest, image.digest);
    assert.equal(manifestRequests, 3);
    failures = 10;
    await rejectsWith(puller.pull(`${host}/bosun/flaky:1.0`), 'Unreachable', new RegExp(`registry endpoint http://${host}/v2 is unreachable for ${host}/bosun/flaky after 4 attempts: 503 try later`));
  } finally {
    await new Promise((resolve) => proxy.close(resolve));
    await registry.stop();
  }
});
