// A pod's volumes on the node: files on disk (content, modes, kubelet's symlink layout), bindings for
// volumeMounts, every error path, and cleanup that spares claims and host paths.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { lstat, mkdir, readFile, readdir, readlink, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Volume } from '../../src/apimachinery/api/index.ts';
import { materialiseVolumes, removePodVolumes, volumeBindings, type VolumeContext } from '../../src/node/agent/pod-volumes.ts';
import { mountTmpfs, mountsUnder, unmount } from '../../src/node/agent/volumes/tmpfs.ts';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';
import { CLAIMS, CONFIGMAPS, NAMESPACE, SECRETS, configMap, openPodFixture, secret, type PodFixture } from './agent-pod-fixture.ts';

let fixture: PodFixture;
before(async () => {
  fixture = await openPodFixture();
  await fixture.create(CONFIGMAPS, configMap('app-config', { 'app.yaml': 'level: debug\n', 'extra.txt': 'x' }, { 'logo.bin': Buffer.from([0, 1, 254, 255]).toString('base64') }));
  await fixture.create(SECRETS, secret('db', { password: 's3cret', user: 'admin' }));
  await fixture.create(CLAIMS, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'workspace' } });
});
after(() => fixture.close());

function configError(pattern: RegExp) {
  return (error: unknown) => error instanceof SandboxSpecError && error.reason === 'CreateContainerConfigError' && pattern.test(error.message);
}

async function one(context: VolumeContext, volume: Volume) {
  const volumes = await materialiseVolumes(context, [volume]);
  const materialised = volumes.get(volume.name);
  assert.ok(materialised);
  return materialised;
}

const mode = async (path: string) => (await stat(path)).mode & 0o7777;

test('emptyDir volumes get a directory in the pod and bind at their mount paths', async () => {
  const context = fixture.context();
  const paths = await materialiseVolumes(context, [{ name: 'cache', emptyDir: {} }]);
  const hostPath = join(context.podDir, 'volumes', 'kubernetes.io~empty-dir', 'cache');
  assert.deepEqual(paths.get('cache'), { hostPath, readOnly: false });
  assert.ok((await stat(hostPath)).isDirectory());
  assert.equal(await mode(hostPath), 0o777);
  assert.deepEqual(await volumeBindings('app', [{ name: 'cache', mountPath: '/cache', readOnly: true }], paths, new Map()), [{ hostPath, mountPath: '/cache', readOnly: true }]);
  await assert.rejects(volumeBindings('app', [{ name: 'missing', mountPath: '/m' }], paths, new Map()), configError(/^cannot find volume "missing" to mount into container "app"$/));
  await assert.rejects(materialiseVolumes(context, [{ name: 'host' }]), configError(/^volume host: no volume source is set/));
  await assert.rejects(materialiseVolumes(context, [{ name: 'nfs', nfs: {} } as Volume]), configError(/^volume nfs: nfs volumes are not supported on this node/));
  await assert.rejects(materialiseVolumes(context, [{ name: 'tiny', emptyDir: { medium: 'Memory', sizeLimit: '-1Mi' } }]), configError(/volume tiny sizeLimit: Invalid value: "-1Mi"/));
  await assert.rejects(materialiseVolumes(context, [{ name: '../../escape', emptyDir: {} }]), configError(/a volume name must be a lowercase RFC 1123 label/));
  await assert.rejects(materialiseVolumes(context, [{ name: 'huge', emptyDir: { medium: 'HugePages' } }]), configError(/MountVolume.SetUp failed for volume "huge" : emptyDir medium "HugePages"/));
});

test('emptyDir medium Memory is a tmpfs of sizeLimit, unmounted by cleanup, also through a symlinked pod dir', async () => {
  const real = fixture.context();
  await mkdir(real.podDir, { recursive: true });
  const linked = join(fixture.dir, 'linked-pod');
  await symlink(real.podDir, linked);
  const context = { ...real, podDir: linked };
  const volume = await one(context, { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '8Mi' } });
  const mounts = await readFile('/proc/self/mountinfo', 'utf8');
  const line = mounts.split('\n').find((l) => l.split(' ')[4] === join(real.podDir, 'volumes', 'kubernetes.io~empty-dir', 'scratch'));
  assert.ok(line, 'tmpfs mounted');
  assert.match(line, / - tmpfs tmpfs \S*size=8192k/);
  // Idempotent: a second materialisation (agent restart) does not stack another tmpfs.
  await materialiseVolumes(context, [{ name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '8Mi' } }]);
  assert.equal((await mountsUnder(volume.hostPath)).length, 1);
  await removePodVolumes(context.podDir);
  assert.deepEqual(await mountsUnder(real.podDir), []);
  await assert.rejects(stat(join(context.podDir, 'volumes')), { code: 'ENOENT' });
});

test('memory-backed volumes set up at once share a mount batch, each with its own size; a failure stays its own', async () => {
  // The first mount runs alone; the five arriving meanwhile are one `mount -a`, one of them through a space.
  const contexts = Array.from({ length: 6 }, (_, i) => {
    const context = fixture.context();
    return i === 5 ? { ...context, podDir: `${context.podDir} spaced` } : context;
  });
  const volumes = await Promise.all(contexts.map((context, i) => one(context, { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: `${i + 1}Mi` } })));
  const mountinfo = (await readFile('/proc/self/mountinfo', 'utf8')).split('\n');
  for (const [i, volume] of volumes.entries()) {
    const line = mountinfo.find((l) => l.split(' ')[4] === volume.hostPath.replaceAll(' ', '\\040'));
    assert.ok(line, `${volume.hostPath} is mounted`);
    assert.match(line, new RegExp(` - tmpfs tmpfs \\S*size=${(i + 1) * 1024}k`));
  }
  await removePodVolumes(contexts[5]!.podDir);

  const dirs = ['first', 'second', 'missing/below', 'third'].map((name) => join(fixture.dir, 'batch', name));
  await Promise.all(dirs.filter((dir) => !dir.includes('missing')).map((dir) => mkdir(dir, { recursive: true })));
  const results = await Promise.allSettled(dirs.map((dir) => mountTmpfs(dir, undefined, { fresh: true })));
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((results[2] as PromiseRejectedResult).reason), /missing\/below/);
  for (const dir of dirs.filter((d) => !d.includes('missing'))) {
    assert.equal((await mountsUnder(dir)).length, 1, `${dir} holds one tmpfs`);
    await unmount(dir);
  }
});

test('configMap volumes are projected atomically: ..data, a timestamped dir, a link per key, modes', async () => {
  const context = fixture.context();
  const volume = await one(context, { name: 'config', configMap: { name: 'app-config' } });
  const dir = volume.hostPath;
  assert.equal(dir, join(context.podDir, 'volumes', 'kubernetes.io~configmap', 'config'));
  assert.equal(volume.readOnly, true);
  const names = (await readdir(dir)).sort();
  const stamped = names.find((n) => /^\.\.\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_\d{2}\.\w+$/.test(n));
  assert.ok(stamped, names.join(' '));
  assert.deepEqual(names, [stamped, '..data', 'app.yaml', 'extra.txt', 'logo.bin'].sort());
  assert.equal(await readlink(join(dir, '..data')), stamped);
  assert.equal(await readlink(join(dir, 'app.yaml')), '..data/app.yaml');
  assert.equal(await readFile(join(dir, 'app.yaml'), 'utf8'), 'level: debug\n');
  assert.deepEqual([...(await readFile(join(dir, 'logo.bin')))], [0, 1, 254, 255]);
  assert.equal(await mode(join(dir, stamped, 'app.yaml')), 0o644);
  assert.equal(await mode(join(dir, stamped)), 0o755);

  // Items choose keys, paths (nested) and modes; a rewrite swaps ..data and drops what the new payload lacks,
  // and what an interrupted write left behind.
  await mkdir(join(dir, '..2020_01_01_00_00_00.stray'));
  await symlink('..2020_01_01_00_00_00.stray', join(dir, '..data_tmp'));
  // A strict agent umask must not make nested directories untraversable for container users.
  const umask = process.umask(0o077);
  try {
    await materialiseVolumes(context, [{ name: 'config', configMap: { name: 'app-config', defaultMode: 0o600, items: [{ key: 'app.yaml', path: 'conf/app.yaml', mode: 0o640 }, { key: 'extra.txt', path: 'extra' }] } }]);
  } finally {
    process.umask(umask);
  }
  const after = (await readdir(dir)).sort();
  const restamped = after.find((n) => n.startsWith('..2'));
  assert.ok(restamped && restamped !== stamped);
  assert.deepEqual(after, [restamped, '..data', 'conf', 'extra'].sort());
  assert.equal(await readFile(join(dir, 'conf', 'app.yaml'), 'utf8'), 'level: debug\n');
  assert.equal(await mode(join(dir, restamped, 'conf', 'app.yaml')), 0o640);
  assert.equal(await mode(join(dir, restamped, 'conf')), 0o755);
  assert.equal(await mode(join(dir, restamped)), 0o755);
  assert.equal(await mode(join(dir, restamped, 'extra')), 0o600);
});

test('configMap errors: missing object or key, unless optional; bad item paths', async () => {
  const context = fixture.context();
  await assert.rejects(one(context, { name: 'c', configMap: { name: 'absent' } }), configError(/^MountVolume.SetUp failed for volume "c" : configmap "absent" not found$/));
  const optional = await one(context, { name: 'o', configMap: { name: 'absent', optional: true } });
  assert.deepEqual((await readdir(optional.hostPath)).filter((n) => !n.startsWith('..')), []);
  await assert.rejects(one(context, { name: 'k', configMap: { name: 'app-config', items: [{ key: 'nope', path: 'p' }] } }), configError(/configmap references non-existent config key: nope$/));
  const skipped = await one(context, { name: 's', configMap: { name: 'app-config', optional: true, items: [{ key: 'nope', path: 'p' }, { key: 'extra.txt', path: 'e' }] } });
  assert.deepEqual((await readdir(skipped.hostPath)).filter((n) => !n.startsWith('..')), ['e']);
  for (const path of ['../escape', '/abs', '..hidden', 'a/../../b']) {
    await assert.rejects(one(context, { name: 'p', configMap: { name: 'app-config', items: [{ key: 'extra.txt', path }] } }), configError(/invalid path/));
  }
});

test('secret volumes are decoded onto a tmpfs, 0644 by default, group-owned by fsGroup', async () => {
  const context = fixture.context({ spec: { securityContext: { fsGroup: 2345 } } });
  const volume = await one(context, { name: 'creds', secret: { secretName: 'db' } });
  assert.equal(volume.hostPath, join(context.podDir, 'volumes', 'kubernetes.io~secret', 'creds'));
  assert.deepEqual(await mountsUnder(volume.hostPath), [volume.hostPath]);
  assert.equal(await readFile(join(volume.hostPath, 'password'), 'utf8'), 's3cret');
  const file = await stat(join(volume.hostPath, 'password'));
  assert.equal(file.mode & 0o7777, 0o644 | 0o440);
  assert.equal(file.gid, 2345);
  const dirStat = await stat(volume.hostPath);
  assert.equal(dirStat.gid, 2345);
  assert.equal(dirStat.mode & 0o2000, 0o2000, 'setgid directory');

  const strict = await one(fixture.context({ spec: { securityContext: { fsGroup: 2345 } } }), { name: 's', secret: { secretName: 'db', defaultMode: 0o400, items: [{ key: 'user', path: 'u' }] } });
  assert.equal(await mode(join(strict.hostPath, 'u')), 0o440);
  const plain = await one(fixture.context(), { name: 's', secret: { secretName: 'db', defaultMode: 0o400 } });
  assert.equal(await mode(join(plain.hostPath, 'user')), 0o400);
  assert.equal((await stat(join(plain.hostPath, 'user'))).gid, 0);

  await assert.rejects(one(fixture.context(), { name: 'x', secret: { secretName: 'absent' } }), configError(/^MountVolume.SetUp failed for volume "x" : secret "absent" not found$/));
  await assert.rejects(one(fixture.context(), { name: 'x', secret: { secretName: 'db', items: [{ key: 'nokey', path: 'p' }] } }), configError(/references non-existent secret key: nokey$/));
  const optional = await one(fixture.context(), { name: 'x', secret: { secretName: 'absent', optional: true } });
  assert.deepEqual((await readdir(optional.hostPath)).filter((n) => !n.startsWith('..')), []);
});

test('emptyDir with fsGroup is group-writable and setgid', async () => {
  const volume = await one(fixture.context({ spec: { securityContext: { fsGroup: 3000 } } }), { name: 'shared', emptyDir: {} });
  const info = await stat(volume.hostPath);
  assert.equal(info.gid, 3000);
  assert.equal(info.mode & 0o7777, 0o2777);
});

test('downwardAPI volumes hold pod fields and container resources', async () => {
  const context = fixture.context({
    labels: { app: 'web', tier: 'front' },
    annotations: { note: 'say "hi"' },
    spec: { containers: [{ name: 'app', resources: { limits: { memory: '64Mi' }, requests: { cpu: '100m' } } }] },
  });
  const volume = await one(context, {
    name: 'info',
    downwardAPI: {
      defaultMode: 0o444,
      items: [
        { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
        { path: 'uid', fieldRef: { fieldPath: 'metadata.uid' } },
        { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
        { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' }, mode: 0o400 },
        { path: 'tier', fieldRef: { fieldPath: "metadata.labels['tier']" } },
        { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
        { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } },
      ],
    },
  });
  const read = (name: string) => readFile(join(volume.hostPath, name), 'utf8');
  assert.equal(volume.hostPath, join(context.podDir, 'volumes', 'kubernetes.io~downward-api', 'info'));
  assert.equal(await read('name'), context.pod.metadata.name);
  assert.equal(await read('uid'), context.pod.metadata.uid);
  assert.equal(await read('labels'), 'app="web"\ntier="front"');
  assert.equal(await read('annotations'), 'note="say \\"hi\\""');
  assert.equal(await read('tier'), 'front');
  assert.equal(await read('mem'), '64');
  assert.equal(await read('cpu'), '100');
  assert.equal(await mode(join(volume.hostPath, '..data', 'name')), 0o444);
  assert.equal(await mode(join(volume.hostPath, '..data', 'annotations')), 0o400);

  await assert.rejects(one(context, { name: 'd', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'spec.nodeName' } }] } }), configError(/^MountVolume.SetUp failed for volume "d" : unsupported fieldPath: spec.nodeName$/));
  await assert.rejects(one(context, { name: 'd', downwardAPI: { items: [{ path: 'm', resourceFieldRef: { containerName: 'other', resource: 'limits.memory' } }] } }), configError(/container "other" not found/));
});

test('projected volumes merge configMap, secret, downwardAPI and a service account token bound to the pod', async () => {
  const context = fixture.context();
  await fixture.create(`/api/v1/namespaces/${NAMESPACE}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: context.pod.metadata.name }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
  context.pod.metadata.uid = fixture.server.store.get('/pods', NAMESPACE, context.pod.metadata.name)?.object.metadata.uid ?? '';
  const volume = await one(context, {
    name: 'all',
    projected: {
      defaultMode: 0o440,
      sources: [
        { configMap: { name: 'app-config', items: [{ key: 'app.yaml', path: 'config/app.yaml' }] } },
        { secret: { name: 'db', items: [{ key: 'password', path: 'secret/password', mode: 0o400 }] } },
        { downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
        { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
        { configMap: { name: 'absent', optional: true } },
      ],
    },
  });
  assert.equal(volume.hostPath, join(context.podDir, 'volumes', 'kubernetes.io~projected', 'all'));
  assert.deepEqual(await mountsUnder(volume.hostPath), [volume.hostPath]);
  assert.deepEqual((await readdir(volume.hostPath)).filter((n) => !n.startsWith('..')).sort(), ['config', 'ns', 'secret', 'token']);
  assert.equal(await readFile(join(volume.hostPath, 'config/app.yaml'), 'utf8'), 'level: debug\n');
  assert.equal(await readFile(join(volume.hostPath, 'secret/password'), 'utf8'), 's3cret');
  assert.equal(await mode(join(volume.hostPath, 'secret/password')), 0o400);
  assert.equal(await mode(join(volume.hostPath, 'config/app.yaml')), 0o440);
  assert.equal(await readFile(join(volume.hostPath, 'ns'), 'utf8'), 'default');
  const claims = JSON.parse(Buffer.from((await readFile(join(volume.hostPath, 'token'), 'utf8')).split('.')[1] ?? '', 'base64url').toString()) as Record<string, any>;
  assert.equal(claims['sub'], 'system:serviceaccount:default:default');
  assert.deepEqual(claims['kubernetes.io'].pod, { name: context.pod.metadata.name, uid: context.pod.metadata.uid });
  await assert.rejects(one(context, { name: 'p', projected: { sources: [{ secret: { name: 'absent' } }] } }), configError(/secret "absent" not found/));
  await assert.rejects(one(context, { name: 'p', projected: { sources: [{}] } }), configError(/names none of/));
});

test('hostPath volumes pass or fail kubelet type checks, creating only for *OrCreate', async () => {
  const context = fixture.context();
  const base = join(fixture.dir, 'host');
  await mkdir(base, { recursive: true });
  await writeFile(join(base, 'file'), 'f');
  const socketPath = join(base, 'sock');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  try {
    const ok = async (path: string, type?: string) => one(context, { name: 'h', hostPath: { path, ...(type === undefined ? {} : { type }) } });
    assert.deepEqual(await ok(join(base, 'anything-goes')), { hostPath: join(base, 'anything-goes'), readOnly: false });
    await ok(base, 'Directory');
    await ok(join(base, 'file'), 'File');
    await ok(socketPath, 'Socket');
    await ok('/dev/null', 'CharDevice');
    await ok(join(base, 'made/deep'), 'DirectoryOrCreate');
    assert.ok((await stat(join(base, 'made/deep'))).isDirectory());
    assert.equal(await mode(join(base, 'made/deep')), 0o755);
    await ok(join(base, 'newfile'), 'FileOrCreate');
    assert.ok((await stat(join(base, 'newfile'))).isFile());
    await ok(base, 'DirectoryOrCreate');

    const fails = async (path: string, type: string, pattern: RegExp) => assert.rejects(ok(path, type), configError(pattern));
    await fails(join(base, 'file'), 'Directory', /^MountVolume.SetUp failed for volume "h" : hostPath type check failed: .*\/file is not a directory$/);
    await fails(join(base, 'missing'), 'Directory', /is not a directory$/);
    await fails(join(base, 'file'), 'DirectoryOrCreate', /is not a directory$/);
    await fails(base, 'File', /is not a file$/);
    await fails(base, 'FileOrCreate', /is not a file$/);
    await fails(base, 'Socket', /is not a socket file$/);
    await fails(base, 'CharDevice', /is not a character device$/);
    await fails('/dev/null', 'BlockDevice', /is not a block device$/);
    await fails(join(base, 'no-parent/file'), 'FileOrCreate', /^MountVolume.SetUp failed for volume "h" : ENOENT/);
    await fails(base, 'Weird', /Weird is an invalid volume type$/);
    await assert.rejects(one(context, { name: 'h', hostPath: { path: 'relative' } }), configError(/must be an absolute path/));
  } finally {
    server.close();
  }
});

test('a persistentVolumeClaim is a directory per claim that outlives the pod; hostPath content stays too', async () => {
  const first = fixture.context();
  const hostDir = join(fixture.dir, 'host-keep');
  await mkdir(hostDir, { recursive: true });
  const volumes = await materialiseVolumes(first, [
    { name: 'ws', persistentVolumeClaim: { claimName: 'workspace' } },
    { name: 'ro', persistentVolumeClaim: { claimName: 'workspace', readOnly: true } },
    { name: 'host', hostPath: { path: hostDir } },
    { name: 'cache', emptyDir: {} },
  ]);
  const claim = join(first.dataDir, 'volumes', 'pvc', 'default', 'workspace');
  assert.deepEqual(volumes.get('ws'), { hostPath: claim, readOnly: false });
  assert.deepEqual(volumes.get('ro'), { hostPath: claim, readOnly: true });
  assert.equal(await mode(claim), 0o777);
  await writeFile(join(claim, 'result'), 'built');
  await writeFile(join(hostDir, 'keep'), 'k');
  await removePodVolumes(first.podDir);
  assert.equal(await readFile(join(claim, 'result'), 'utf8'), 'built');
  assert.equal(await readFile(join(hostDir, 'keep'), 'utf8'), 'k');

  const second = fixture.context();
  const again = await one(second, { name: 'ws', persistentVolumeClaim: { claimName: 'workspace' } });
  assert.equal(await readFile(join(again.hostPath, 'result'), 'utf8'), 'built');
  await assert.rejects(one(second, { name: 'ws', persistentVolumeClaim: { claimName: 'absent' } }), configError(/^MountVolume.SetUp failed for volume "ws" : persistentvolumeclaim "absent" not found$/));
  await assert.rejects(one(second, { name: 'ws', persistentVolumeClaim: { claimName: '../x' } }), configError(/invalid claimName/));
});

test('volumeMounts: subPath, subPathExpr, read-only volumes, and subPaths that try to leave the volume', async () => {
  const context = fixture.context();
  const volumes = await materialiseVolumes(context, [
    { name: 'cache', emptyDir: {} },
    { name: 'config', configMap: { name: 'app-config' } },
  ]);
  const cache = volumes.get('cache')!.hostPath;
  const env = new Map([['POD_NAME', 'web-1']]);
  const bindings = await volumeBindings(
    'app',
    [
      { name: 'cache', mountPath: '/data', subPath: 'a/b', mountPropagation: 'HostToContainer' },
      { name: 'cache', mountPath: '/logs', subPathExpr: 'logs/$(POD_NAME)' },
      { name: 'config', mountPath: '/etc/app.yaml', subPath: 'app.yaml' },
      { name: 'config', mountPath: '/etc/app' },
    ],
    volumes,
    env,
  );
  const config = volumes.get('config')!.hostPath;
  const stamped = await readlink(join(config, '..data'));
  assert.deepEqual(bindings, [
    { hostPath: join(await realpath(cache), 'a/b'), mountPath: '/data' },
    { hostPath: join(await realpath(cache), 'logs/web-1'), mountPath: '/logs' },
    { hostPath: join(await realpath(config), stamped, 'app.yaml'), mountPath: '/etc/app.yaml', readOnly: true },
    { hostPath: config, mountPath: '/etc/app', readOnly: true },
  ]);
  assert.ok((await stat(join(cache, 'logs/web-1'))).isDirectory());
  assert.equal(await mode(join(cache, 'a/b')), 0o777);

  await symlink('/etc', join(cache, 'escape'));
  const fails = (subPath: { subPath?: string; subPathExpr?: string }, pattern: RegExp) =>
    assert.rejects(volumeBindings('app', [{ name: 'cache', mountPath: '/x', ...subPath }], volumes, env), configError(pattern));
  await fails({ subPath: 'escape' }, /^failed to prepare subPath for volumeMount "cache" of container "app"$/);
  await fails({ subPath: 'escape/new-dir' }, /failed to prepare subPath/);
  await assert.rejects(lstat('/etc/new-dir'), { code: 'ENOENT' });
  await fails({ subPath: '/abs' }, /^error SubPath `\/abs` must not be an absolute path$/);
  await fails({ subPath: 'a/../../x' }, /must not contain '\.\.'/);
  await fails({ subPathExpr: '$(NOPE)/../..' }, /must not contain '\.\.'/);
});
