// Private directories: the node's per-pod state (other pods' volumes, tmpfs mounts, logs) stays out of every
// container, while a container's own volumes inside it still work. Real processes and real tmpfs mounts
// on the host, outside /tmp (the container's /tmp is its own, which would hide anything there anyway).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { planMounts } from '../../src/node/sandbox/mount-plan.ts';
import { parseMountInfo, readMountInfo, type MountEntry } from '../../src/node/sandbox/mountinfo.ts';
import { resolvePrivateDirs } from '../../src/node/sandbox/private-dirs.ts';
import type { Sandbox } from '../../src/node/sandbox/sandbox.ts';
import type { ContainerSpec, PodFacts } from '../../src/node/sandbox/types.ts';
import { logContents, openSandboxHarness, type SandboxHarness } from './harness.ts';

const run = promisify(execFile);

let h: SandboxHarness;
/** The same host without private directories: what the tests would see before the option existed. */
let open: Sandbox;
/** Stands for the agent's data directory. */
let dataDir: string;
/** Another pod's state in the data directory: a file, and a secret volume on its own tmpfs. */
let otherPod: { file: string; secretMount: string };

before(async () => {
  dataDir = await mkdtemp('/var/lib/bosun-sandbox-private-');
  otherPod = { file: join(dataDir, 'logs', 'other-pod', 'main', '0.log'), secretMount: join(dataDir, 'pods', 'other-pod', 'volumes', 'secret') };
  await mkdir(join(otherPod.file, '..'), { recursive: true });
  await writeFile(otherPod.file, 'other pod log\n', { mode: 0o644 });
  await mkdir(otherPod.secretMount, { recursive: true });
  await mountTmpfs(otherPod.secretMount);
  await writeFile(join(otherPod.secretMount, 'token'), 'other pod secret\n', { mode: 0o644 });
  h = await openSandboxHarness({ privateDirs: [dataDir] });
  open = await h.reopen({ privateDirs: [] });
});

after(async () => {
  try {
    await unmountBelow(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  } finally {
    await h.close();
  }
});

async function mountTmpfs(path: string): Promise<void> {
  await run('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=755', 'bosun-test', path]);
}

async function mountsBelow(dir: string): Promise<MountEntry[]> {
  return (await readMountInfo()).filter((m) => m.mountPoint.startsWith(`${dir}/`));
}

async function unmountBelow(dir: string): Promise<void> {
  for (const m of (await mountsBelow(dir)).reverse()) await run('umount', [m.mountPoint]);
}

function sh(script: string, extra: Partial<ContainerSpec> = {}): ContainerSpec {
  return { name: 'main', argv: ['sh', '-c', script], securityContext: { runAsUser: 0 }, ...extra };
}

/** Runs a container to completion with its pod directory in the data directory, as the agent places it. */
async function runIn(sandbox: Sandbox, podName: string, container: ContainerSpec, pod: Partial<PodFacts> = {}) {
  const request = h.request(podName, container, pod);
  request.pod.podDir = join(dataDir, 'pods', request.pod.uid);
  const exit = await (await sandbox.start(request)).exited;
  const lines = await logContents(request.logPath);
  assert.equal(exit.reason, 'Completed', lines.join('\n'));
  await sandbox.destroyPod(request.pod.uid);
  return { lines, request };
}

/** The container's mount points at or below the data directory. */
const MOUNTS_IN_DATA_DIR = () => `awk -v d="${dataDir}" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo`;

test('a file and a tmpfs volume of another pod are invisible, even to root; without privateDirs they are not', async () => {
  const script = `cat ${otherPod.file} ${otherPod.secretMount}/token 2>/dev/null; ls -A ${dataDir}; echo end`;
  const exposed = await runIn(open, 'exposed', sh(script));
  assert.deepEqual(exposed.lines, ['other pod log', 'other pod secret', 'logs', 'pods', 'end']);
  const hidden = await runIn(h.sandbox, 'hidden', sh(script));
  assert.deepEqual(hidden.lines, ['end']);
});

test('a tmpfs under a private directory is not in the container\'s mountinfo, and mounts do not grow with pods', async () => {
  const { lines: few } = await runIn(h.sandbox, 'mounts-few', sh(`${MOUNTS_IN_DATA_DIR()}; wc -l < /proc/self/mountinfo`));
  // The cover is the only mount there; the other pod's secret tmpfs is absent.
  assert.deepEqual(few.slice(0, -1), [dataDir]);
  const extra = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const path = join(dataDir, 'pods', `pod-${i}`, 'volumes', 'secret');
    await mkdir(path, { recursive: true });
    return path;
  }));
  for (const path of extra) await mountTmpfs(path);
  const { lines: many } = await runIn(h.sandbox, 'mounts-many', sh(`${MOUNTS_IN_DATA_DIR()}; wc -l < /proc/self/mountinfo`));
  assert.deepEqual(many, few);
  // Without the option each of them is one more read-only bind in every container.
  const { lines: exposed } = await runIn(open, 'mounts-open', sh(MOUNTS_IN_DATA_DIR()));
  assert.deepEqual(new Set(exposed), new Set([otherPod.secretMount, ...extra]));
  for (const path of extra.reverse()) await run('umount', [path]);
});

test('the container\'s own volumes inside the private directory work: a read-only tmpfs secret and a writable emptyDir', async () => {
  const uid = 'own-volumes';
  const volumes = join(dataDir, 'pods', uid, 'volumes');
  const secret = join(volumes, 'kubernetes.io~secret', 'creds');
  const scratch = join(volumes, 'kubernetes.io~empty-dir', 'work');
  await mkdir(secret, { recursive: true });
  await mkdir(scratch, { recursive: true });
  await chmod(scratch, 0o777);
  await mountTmpfs(secret);
  try {
    await writeFile(join(secret, 'password'), 's3cret\n', { mode: 0o644 });
    const script = 'cat /etc/creds/password; { echo x > /etc/creds/new; } 2>/dev/null || echo ro-refused; echo written > /work/out; cat /work/out; id -u; hostname';
    const { lines } = await runIn(h.sandbox, 'own', sh(script, {
      securityContext: { runAsUser: 1000 },
      volumeMounts: [{ hostPath: secret, mountPath: '/etc/creds', readOnly: true }, { hostPath: scratch, mountPath: '/work' }],
    }), { uid });
    assert.deepEqual(lines, ['s3cret', 'ro-refused', 'written', '1000', 'own']);
    assert.equal(await readFile(join(scratch, 'out'), 'utf8'), 'written\n');
  } finally {
    await run('umount', [secret]);
  }
});

test('privileged and hostPID containers do not see the private directory either', async () => {
  const script = `cat ${otherPod.secretMount}/token 2>/dev/null; ls -A ${dataDir}; echo end`;
  const privileged = await runIn(h.sandbox, 'privileged', sh(script, { securityContext: { runAsUser: 0, privileged: true } }));
  assert.deepEqual(privileged.lines, ['end']);
  const hostPid = await runIn(h.sandbox, 'hostpid', sh(script), { hostPID: true });
  assert.deepEqual(hostPid.lines, ['end']);
});

test('paths into the private directory are refused in the container\'s view: a working directory or a mount point there', async () => {
  const request = h.request('workdir', sh('true', { workingDir: join(dataDir, 'pods') }));
  await assert.rejects(h.sandbox.start(request), {
    name: 'SandboxSpecError',
    reason: 'CreateContainerError',
    message: `cannot create the mount point ${join(dataDir, 'pods')}: it lies in the node's private directory ${dataDir}, which the sandbox does not let containers add to`,
  });
  await h.sandbox.destroyPod(request.pod.uid);
});

test('private directories are resolved: canonical, nested ones folded, bad ones refused', async () => {
  const link = `${dataDir}-link`;
  await symlink(dataDir, link);
  try {
    assert.deepEqual(await resolvePrivateDirs([link, join(dataDir, 'pods'), dataDir]), [dataDir]);
    await assert.rejects(resolvePrivateDirs(['relative/dir']), { name: 'SandboxHostError', message: 'privateDirs: "relative/dir" must be an absolute path' });
    await assert.rejects(resolvePrivateDirs([join(dataDir, 'missing')]), { name: 'SandboxHostError', message: `privateDirs: "${join(dataDir, 'missing')}" cannot be resolved: ENOENT` });
    await assert.rejects(resolvePrivateDirs([otherPod.file]), { name: 'SandboxHostError', message: `privateDirs: "${otherPod.file}" is not a directory` });
    await assert.rejects(resolvePrivateDirs(['/']), { name: 'SandboxHostError', message: 'privateDirs: "/" is the root directory; containers could not see the host\'s programs' });
  } finally {
    await rm(link);
  }
});

test('the mount plan does not grow with the host mounts inside a private directory', async () => {
  const host = parseMountInfo([
    '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
    '28 27 0:25 / /mnt/disk ro,nosuid,relatime - ext4 /dev/vdb ro',
    ...Array.from({ length: 200 }, (_, i) => `${100 + i} 27 0:${100 + i} / /var/lib/bosun/pods/p${i}/volumes/secret rw,relatime - tmpfs tmpfs rw`),
  ].join('\n'));
  const plan = (privateDirs: string[]) => planMounts({
    hostMounts: host,
    protectedPaths: { readOnly: [], maskedFiles: [], maskedDirs: [] },
    skeletonDir: '/nonexistent/skeleton',
    scratch: { tmp: '/nonexistent/tmp', varTmp: '/nonexistent/var-tmp', run: '/nonexistent/run', dev: '/nonexistent/dev', root: '/nonexistent/root' },
    podFiles: { hosts: '/nonexistent/hosts', hostname: '/nonexistent/hostname', resolvConf: '/nonexistent/resolv.conf' },
    cgroups: { version: 1, dirs: [] },
    volumes: [],
    privateDirs,
    workingDir: '/',
    privileged: false,
    readOnlyRootFilesystem: false,
  });
  const targets = async (privateDirs: string[]) => (await plan(privateDirs)).mounts.map((m) => m.target).filter((t) => t.startsWith('/var/lib/bosun') || t === '/mnt/disk');
  assert.equal((await targets([])).length, 201);
  assert.deepEqual(await targets(['/var/lib/bosun']), ['/mnt/disk', '/var/lib/bosun']);
  const cover = (await plan(['/var/lib/bosun'])).mounts.find((m) => m.target === '/var/lib/bosun');
  assert.deepEqual(cover, { source: 'bosun-private', target: '/var/lib/bosun', fsType: 'tmpfs', options: ['ro', 'nosuid', 'nodev', 'noexec', 'mode=755', 'size=4k'] });
  // A private directory inside a tree the container gets its own copy of (its /tmp) needs no cover.
  assert.equal((await plan(['/tmp/bosun'])).mounts.some((m) => m.target.startsWith('/tmp/bosun')), false);
});

test('nothing is left behind: no mounts, no run directories, no pods', async () => {
  assert.deepEqual((await mountsBelow(dataDir)).map((m) => m.mountPoint), [otherPod.secretMount]);
  const pods = await readdir(join(dataDir, 'pods'));
  for (const pod of pods) assert.equal(existsSync(join(dataDir, 'pods', pod, 'containers', 'main')), false, pod);
  assert.deepEqual(await h.sandbox.listPods(), []);
});
