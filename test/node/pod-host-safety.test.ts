// Issue 27, finding 1: a pod outside a trusted namespace cannot harm the host. The exact attack of the
// report (root, CAP_SYS_ADMIN, a tmpfs, mknod of the host's disk, mount it) must not reach the host's root
// filesystem, and root in a pod must not read the host's root-only files.
import assert from 'node:assert/strict';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { namespacesResource } from '../../src/apimachinery/builtin-resources.ts';
import { extraCapabilities } from '../../src/node/agent/pods/capability-policy.ts';
import { logContents } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
let secretDir: string;
before(async () => {
  // Admission would refuse most of these pods first (baseline): the node's own defence is what is tested here.
  h = await startPodHarness({}, { podSecurity: 'privileged' });
  // Outside /tmp, which every container has its own of: a root-only file as the API server's token is.
  secretDir = await mkdtemp('/var/lib/bosun-host-safety-');
  await writeFile(join(secretDir, 'token'), 'admin-token\n', { mode: 0o600 });
  await h.client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'trusted-by-label', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } } });
});
after(async () => {
  await h.close();
  await rm(secretDir, { recursive: true, force: true });
});

const phase = (name: string, namespace = 'default') => h.pod(name, namespace)?.status?.phase;
const logOf = async (name: string, namespace = 'default') => logContents(h.agent.containers.logPath({ namespace, pod: name, container: 'main' }, false) ?? '');

/** The host root filesystem's device numbers (the disk the attack makes a node of). */
async function rootDevice(): Promise<[string, string]> {
  const line = (await readFile('/proc/self/mountinfo', 'utf8')).split('\n').find((l) => l.split(' ')[4] === '/');
  const [major = '', minor = ''] = line?.split(' ')[2]?.split(':') ?? [];
  return [major, minor];
}

async function attackScript(marker: string): Promise<string> {
  const [major, minor] = await rootDevice();
  return [
    'mkdir -p /tmp/m /tmp/h',
    'mount -t tmpfs none /tmp/m || echo tmpfs-refused',
    `mknod /tmp/m/vda b ${major} ${minor} || echo mknod-refused`,
    `if mount /tmp/m/vda /tmp/h; then touch /tmp/h/${marker} && echo host-root-writable; else echo mount-refused; fi`,
    // Where the machine itself forbids opening its disk (this one does), a loop device shows the same hole.
    'mknod /tmp/m/loop b 7 0 2>/dev/null; dd if=/tmp/m/loop of=/dev/null count=0 2>/dev/null && echo block-device-opened || echo block-device-refused',
  ].join('; ');
}

const exists = (path: string) => access(path).then(() => true, () => false);

test('the reported attack in default: adding SYS_ADMIN is refused with a reason naming it and the trusted label', { timeout: 30_000 }, async () => {
  const marker = `bosun-attack-${process.pid}-default`;
  try {
    await h.create('attack', {
      restartPolicy: 'Never',
      containers: [busybox('main', await attackScript(marker), { securityContext: { runAsUser: 0, capabilities: { add: ['SYS_ADMIN'] } } })],
    });
    await h.until(() => {
      const main = h.container('attack', 'main');
      return phase('attack') === 'Succeeded' || phase('attack') === 'Failed' || main?.state?.waiting?.reason === 'CreateContainerError';
    }, 'attack refused or finished');
    const output = await logOf('attack');
    assert.equal(await exists(`/${marker}`), false, `the pod wrote /${marker} on the host's root filesystem: ${output.join(' | ')}`);
    assert.ok(!output.includes('block-device-opened'), `the pod opened a host block device: ${output.join(' | ')}`);
    const main = h.container('attack', 'main');
    assert.equal(main?.state?.waiting?.reason, 'CreateContainerError');
    assert.match(main?.state?.waiting?.message ?? '', /adds capabilities beyond the runtime's default set \(SYS_ADMIN\).*pod-security\.kubernetes\.io\/enforce=privileged; namespace "default" is neither/);
  } finally {
    await rm(`/${marker}`, { force: true });
  }
});

test('in a trusted namespace SYS_ADMIN is allowed, and the devices cgroup still refuses the host disk', { timeout: 30_000 }, async () => {
  const marker = `bosun-attack-${process.pid}-trusted`;
  try {
    await h.create('attack', {
      restartPolicy: 'Never',
      containers: [busybox('main', await attackScript(marker), { securityContext: { runAsUser: 0, capabilities: { add: ['SYS_ADMIN'] } } })],
    }, 'trusted-by-label');
    await h.until(() => phase('attack', 'trusted-by-label') === 'Succeeded', 'trusted attack pod ran');
    const output = await logOf('attack', 'trusted-by-label');
    assert.equal(await exists(`/${marker}`), false, `the pod wrote /${marker} on the host's root filesystem: ${output.join(' | ')}`);
    assert.ok(output.includes('mount-refused') && output.includes('block-device-refused'), output.join(' | '));
    assert.ok(!output.includes('tmpfs-refused'), 'SYS_ADMIN was granted in the trusted namespace');
  } finally {
    await rm(`/${marker}`, { force: true });
  }
});

test('root in a default pod is root in a user namespace: host root-only files stay unreadable', { timeout: 30_000 }, async () => {
  const script = `id -u; cat /etc/shadow >/dev/null 2>&1 && wc -c < /etc/shadow || echo shadow-unreadable; cat ${secretDir}/token 2>/dev/null || echo token-unreadable; ls -A /root | wc -l`;
  await h.create('root-reads', { restartPolicy: 'Never', containers: [busybox('main', script, { securityContext: { runAsUser: 0 } })] });
  await h.until(() => phase('root-reads') === 'Succeeded', 'root-reads Succeeded');
  const output = await logOf('root-reads');
  assert.equal(output[0], '0', 'the container still sees itself as root');
  assert.ok(!output.includes('admin-token'), `a root pod read a root-only host file: ${output.join(' | ')}`);
  assert.ok(output.includes('token-unreadable'));
  assert.ok(output[1] === '0' || output[1] === 'shadow-unreadable', `a root pod read /etc/shadow: ${output.join(' | ')}`);
  assert.equal(output.at(-1), '0', "the host's /root is not the container's");
});

test('a privileged pod in a namespace trusted by its label runs as root on the host', { timeout: 30_000 }, async () => {
  await h.create('privileged', { restartPolicy: 'Never', containers: [busybox('main', `cat ${secretDir}/token`, { securityContext: { privileged: true, runAsUser: 0 } })] }, 'trusted-by-label');
  await h.until(() => phase('privileged', 'trusted-by-label') === 'Succeeded', 'privileged Succeeded');
  assert.deepEqual(await logOf('privileged', 'trusted-by-label'), ['admin-token']);
});

test('capabilities beyond the default set are told apart from those in it, prefix and case aside', () => {
  assert.deepEqual(extraCapabilities({ name: 'c', securityContext: { capabilities: { add: ['NET_BIND_SERVICE', 'cap_chown', 'KILL'], drop: ['ALL'] } } }), []);
  assert.deepEqual(extraCapabilities({ name: 'c', securityContext: { capabilities: { add: ['SYS_ADMIN', 'CAP_NET_ADMIN', 'ALL'] } } }), ['SYS_ADMIN', 'CAP_NET_ADMIN', 'ALL']);
  assert.deepEqual(extraCapabilities({ name: 'c' }), []);
});
