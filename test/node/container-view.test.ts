// The container view over a fake host tree: symbolic links resolve inside the container's view (an
// absolute link into a volume lands in the volume), missing mount points go to the skeleton or the volume,
// layers that must not grow refuse, and executable lookup speaks runc's messages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerView } from '../../src/node/sandbox/container-view.ts';

let host: string;
let volume: string;
before(async () => {
  host = await mkdtemp(join(tmpdir(), 'bosun-view-'));
  volume = join(host, '..', `${host.split('/').pop()}-volume`);
  await mkdir(join(host, 'usr', 'bin'), { recursive: true });
  await mkdir(join(host, 'run'), { recursive: true });
  await mkdir(join(host, 'var'), { recursive: true });
  await mkdir(join(host, 'mnt', 'disk'), { recursive: true });
  await symlink('../run', join(host, 'var', 'run'));
  await symlink('/data/app', join(host, 'app'));
  await writeFile(join(host, 'usr', 'bin', 'tool'), '#!/bin/sh\n');
  await chmod(join(host, 'usr', 'bin', 'tool'), 0o755);
  await writeFile(join(host, 'usr', 'bin', 'plain'), 'data');
  await mkdir(join(volume, 'app'), { recursive: true });
  await writeFile(join(volume, 'app', 'run.sh'), '#!/bin/sh\n');
  await chmod(join(volume, 'app', 'run.sh'), 0o700);
});
after(async () => {
  await rm(host, { recursive: true, force: true });
  await rm(volume, { recursive: true, force: true });
});

function view(): ContainerView {
  const v = new ContainerView({ containerPath: '/', source: host, create: 'skeleton', description: 'the host root' });
  v.addLayer({ containerPath: '/mnt/disk', source: join(host, 'mnt', 'disk'), create: 'never', description: 'the host mount /mnt/disk' });
  v.addLayer({ containerPath: '/data', source: volume, create: 'source', description: 'the volume at /data' });
  return v;
}

test('links resolve in the container\'s view: relative ones by their directory, absolute ones from its root', async () => {
  const v = view();
  assert.deepEqual(await v.resolve('/var/run/secrets/token'), { path: '/run/secrets/token', layer: (await v.resolve('/')).layer, exists: false });
  const throughVolume = await v.resolve('/app/run.sh');
  assert.equal(throughVolume.path, '/data/app/run.sh');
  assert.equal(throughVolume.exists, true);
  assert.equal(throughVolume.layer.description, 'the volume at /data');
});

test('missing mount points: skeleton under the root, created inside volumes, refused in read-only host mounts', async () => {
  const v = view();
  assert.equal(await v.ensureMountPoint('/var/run/secrets/kubernetes.io', 'dir'), '/run/secrets/kubernetes.io');
  assert.equal(await v.ensureMountPoint('/etc/hostname', 'file'), '/etc/hostname');
  assert.deepEqual([...v.skeletonDirs].sort(), ['/etc', '/run', '/run/secrets', '/run/secrets/kubernetes.io']);
  assert.deepEqual([...v.skeletonFiles], ['/etc/hostname']);
  assert.equal(await v.ensureMountPoint('/data/cache/x', 'dir'), '/data/cache/x');
  assert.ok((await stat(join(volume, 'cache', 'x'))).isDirectory());
  await assert.rejects(v.ensureMountPoint('/mnt/disk/new', 'dir'), { name: 'SandboxSpecError', message: /lies in the host mount \/mnt\/disk/ });
  // A directory the skeleton will hold counts as existing for later mounts.
  assert.equal((await v.resolve('/run/secrets')).exists, true);
});

test('lookPath: PATH search, explicit paths, and runc\'s three messages', async () => {
  const v = view();
  await v.lookPath('tool', '/nowhere:/usr/bin', '/');
  await v.lookPath('/app/run.sh', '', '/');
  await v.lookPath('./run.sh', '', '/data/app');
  await assert.rejects(v.lookPath('missing', '/usr/bin', '/'), { name: 'ExecStartError', message: 'exec: "missing": executable file not found in $PATH' });
  await assert.rejects(v.lookPath('plain', '/usr/bin', '/'), { message: 'exec: "plain": executable file not found in $PATH' });
  await assert.rejects(v.lookPath('/usr/bin/plain', '', '/'), { message: 'exec: "/usr/bin/plain": permission denied' });
  await assert.rejects(v.lookPath('/usr/bin', '', '/'), { message: 'exec: "/usr/bin": permission denied' });
  await assert.rejects(v.lookPath('/opt/none', '', '/'), { message: 'exec: "/opt/none": stat /opt/none: no such file or directory' });
});
