// The sandbox's pure parts: quantities, cgroup settings (v1 and v2), layout detection, capabilities,
// credentials, CRI log records, fstab escaping, mountinfo parsing. No processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundingSet, DEFAULT_CAPABILITIES } from '../../src/node/sandbox/capabilities.ts';
import { planCgroupLayout } from '../../src/node/sandbox/cgroup-layout.ts';
import { identityCommand, resolveCredentials } from '../../src/node/sandbox/credentials.ts';
import { CriLogWriter, MAX_LOG_LINE_BYTES, rfc3339Nano } from '../../src/node/sandbox/cri-log.ts';
import { renderFstab } from '../../src/node/sandbox/fstab.ts';
import { parseMountInfo, readMountInfo } from '../../src/node/sandbox/mountinfo.ts';
import { runHostCommand } from '../../src/node/host-commands/host-command.ts';
import { parseBytes, parseMilliCpu } from '../../src/node/sandbox/quantity.ts';
import { containerLimitWrites, limitsFor, parseOomKills } from '../../src/node/sandbox/resource-limits.ts';
import type { PodFacts } from '../../src/node/sandbox/types.ts';

test('quantities: CPU in millicores and memory in bytes, rounded up; negatives and garbage refused', () => {
  assert.equal(parseMilliCpu('cpu', '500m'), 500);
  assert.equal(parseMilliCpu('cpu', '1.5'), 1500);
  assert.equal(parseMilliCpu('cpu', '0.1m'), 1);
  assert.equal(parseMilliCpu('cpu', '2'), 2000);
  assert.equal(parseBytes('memory', '32Mi'), 32 * 2 ** 20);
  assert.equal(parseBytes('memory', '1G'), 1e9);
  assert.equal(parseBytes('memory', '129e6'), 129e6);
  assert.equal(parseBytes('memory', '1.5'), 2);
  assert.throws(() => parseBytes('limits.memory', '-1'), { name: 'SandboxSpecError', message: 'limits.memory: Invalid value: "-1": must be greater than or equal to 0' });
  assert.throws(() => parseMilliCpu('limits.cpu', 'lots'), { name: 'SandboxSpecError', reason: 'CreateContainerConfigError' });
});

test('limits become kubelet\'s cgroup values, in v1 and in v2 files', () => {
  const limits = limitsFor({ name: 'c', argv: ['x'], resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '250m' } } });
  assert.deepEqual(limits, { cpuQuotaUs: 50_000, cpuShares: 256, memoryBytes: 64 * 2 ** 20 });
  assert.deepEqual(limitsFor({ name: 'c', argv: ['x'], resources: { limits: { cpu: '1m' } } }), { cpuQuotaUs: 1000, cpuShares: 2 });
  assert.deepEqual(limitsFor({ name: 'c', argv: ['x'], resources: { limits: { memory: '0' } } }), {});
  assert.deepEqual(containerLimitWrites(1, limits).map((w) => `${w.controller}/${w.file}=${w.value}`), [
    'cpu/cpu.cfs_period_us=100000', 'cpu/cpu.cfs_quota_us=50000', 'cpu/cpu.shares=256', 'memory/memory.limit_in_bytes=67108864',
  ]);
  assert.deepEqual(containerLimitWrites(2, limits).map((w) => `${w.controller}/${w.file}=${w.value}`), [
    'cpu/cpu.max=50000 100000', 'cpu/cpu.weight=10', 'memory/memory.max=67108864', 'memory/memory.oom.group=1',
  ]);
  assert.equal(parseOomKills('oom_kill_disable 0\nunder_oom 0\noom_kill 2\n'), 2);
  assert.equal(parseOomKills('low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n'), 1);
  assert.equal(parseOomKills('oom_kill_disable 0\nunder_oom 0\n'), 0);
});

const V1_MOUNTINFO = `\
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
31 23 0:28 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,memory
38 31 0:35 / /sys/fs/cgroup/blkio rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,blkio
39 31 0:36 / /sys/fs/cgroup/pids rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,xattr,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw
`;
const V1_SELF = '9:name=systemd:/user.slice\n8:pids:/user.slice\n5:memory:/user.slice/session-3.scope\n2:cpu,cpuacct:/\n0::/user.slice\n';

test('cgroup layout: v1 hierarchies (combined cpu,cpuacct), placed at the top or inside the agent\'s cgroup', () => {
  const mounts = parseMountInfo(V1_MOUNTINFO);
  const top = planCgroupLayout(mounts, V1_SELF, [], { placement: 'top', name: 'bosun' });
  assert.equal(top.version, 1);
  assert.deepEqual(top.hierarchies.map((h) => [h.controllers.join(','), h.root]), [
    ['cpu,cpuacct', '/sys/fs/cgroup/cpu,cpuacct/bosun'],
    ['memory', '/sys/fs/cgroup/memory/bosun'],
    ['blkio', '/sys/fs/cgroup/blkio/bosun'],
    ['pids', '/sys/fs/cgroup/pids/bosun'],
  ]);
  const nested = planCgroupLayout(mounts, V1_SELF, [], { placement: 'agent', name: 'bosun-test' });
  assert.equal(nested.hierarchies.find((h) => h.controllers.includes('memory'))?.root, '/sys/fs/cgroup/memory/user.slice/session-3.scope/bosun-test');
  assert.throws(() => planCgroupLayout(mounts, V1_SELF, [], { placement: 'top', name: '../escape' }), { name: 'SandboxHostError' });
});

test('cgroup layout: v2 when cpu and memory are not v1 controllers; beside the agent, never inside it', () => {
  const mounts = parseMountInfo('27 1 254:0 / / rw - ext4 /dev/vda rw\n30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n');
  const self = '0::/user.slice/user-1000.slice/session-2.scope\n';
  const layout = planCgroupLayout(mounts, self, ['cpuset', 'cpu', 'io', 'memory', 'hugetlb', 'pids'], { placement: 'agent', name: 'bosun' });
  assert.deepEqual(layout, { version: 2, hierarchies: [{ mountPoint: '/sys/fs/cgroup', controllers: ['cpu', 'memory', 'pids', 'io'], root: '/sys/fs/cgroup/user.slice/user-1000.slice/bosun' }] });
  assert.throws(() => planCgroupLayout(mounts, self, ['pids'], { placement: 'top', name: 'bosun' }), { name: 'SandboxHostError', message: /lacks the cpu and memory controller/ });
});

test('capabilities: containerd\'s defaults, ALL first, then single names, CAP_ prefix optional', () => {
  assert.deepEqual(boundingSet(undefined, 40).sort(), [...DEFAULT_CAPABILITIES].sort());
  assert.deepEqual(boundingSet({ drop: ['ALL'], add: ['cap_net_admin', 'NET_BIND_SERVICE'] }, 40), ['NET_BIND_SERVICE', 'NET_ADMIN']);
  assert.equal(boundingSet({ add: ['ALL'], drop: ['SYS_ADMIN'] }, 40).length, 40);
  assert.equal(boundingSet({ add: ['ALL'] }, 37).length, 38);
  assert.throws(() => boundingSet({ add: ['MAKE_COFFEE'] }, 40), { name: 'SandboxSpecError', message: 'unknown capability "MAKE_COFFEE"' });
});

const pod: PodFacts = { name: 'p', namespace: 'ns', uid: 'u-1', hostname: 'p', etcHosts: '', resolvConf: '', podDir: '/x', network: { kind: 'host' } };
const policy = { allowRootByDefault: false, defaultUser: { uid: 65534, gid: 65534 } };
const passwd = [{ uid: 1000, gid: 1001, home: '/home/dev' }, { uid: 0, gid: 0, home: '/root' }];

test('credentials: the group from passwd or the default; hardened no_new_privs; privileged keeps every capability', () => {
  const dev = resolveCredentials(pod, { name: 'c', argv: ['x'], securityContext: { runAsUser: 1000 } }, policy, passwd, 40);
  assert.deepEqual({ ...dev, bounding: undefined }, { uid: 1000, gid: 1001, groups: [], home: '/home/dev', noNewPrivs: true, bounding: undefined });
  const nobody = resolveCredentials(pod, { name: 'c', argv: ['x'] }, policy, passwd, 40);
  assert.deepEqual([nobody.uid, nobody.gid, nobody.home], [65534, 65534, '/']);
  const root = resolveCredentials(pod, { name: 'c', argv: ['x'] }, { ...policy, allowRootByDefault: true }, passwd, 40);
  assert.deepEqual([root.uid, root.gid, root.home], [0, 0, '/root']);
  const privileged = resolveCredentials(pod, { name: 'c', argv: ['x'], securityContext: { privileged: true, runAsUser: 0 } }, policy, passwd, 40);
  assert.equal(privileged.bounding, 'all');
  assert.equal(privileged.noNewPrivs, false);
  const tools = { setpriv: 'setpriv', unshare: 'unshare' };
  assert.deepEqual(identityCommand(tools, { uid: 5, gid: 6, groups: [7, 8], home: '/', noNewPrivs: true, bounding: ['CHOWN', 'KILL'] }), [
    'setpriv', '--reuid', '5', '--regid', '6', '--groups', '7,8', '--inh-caps', '-all', '--bounding-set', '-all,+chown,+kill', '--nnp', '--',
  ]);
  const inUserNamespace = resolveCredentials(pod, { name: 'c', argv: ['x'], securityContext: { runAsUser: 0 }, hostUsers: false }, policy, passwd, 40);
  assert.deepEqual(inUserNamespace.userNamespace, { hostUid: 65534, hostGid: 65534 });
  assert.deepEqual(identityCommand(tools, { ...inUserNamespace, bounding: ['CHOWN'] }), [
    'setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', '--inh-caps', '-all', '--nnp', '--',
    'unshare', '--user', '--map-user=0', '--map-group=0', '--',
    'setpriv', '--inh-caps', '-all', '--bounding-set', '-all,+chown', '--',
  ]);
  assert.equal(resolveCredentials(pod, { name: 'c', argv: ['x'], securityContext: { runAsUser: 1000 }, hostUsers: false }, policy, passwd, 40).userNamespace, undefined);
  assert.throws(() => resolveCredentials(pod, { name: 'c', argv: ['x'], securityContext: { runAsUser: -1 } }, policy, passwd, 40), { name: 'SandboxSpecError' });
});

test('CRI log: RFC3339Nano like Go, lines split at 16 KiB into P records, an unterminated tail is F', async () => {
  assert.equal(rfc3339Nano(1_700_000_000_123_456_789n), '2023-11-14T22:13:20.123456789Z');
  assert.equal(rfc3339Nano(1_700_000_000_120_000_000n), '2023-11-14T22:13:20.12Z');
  assert.equal(rfc3339Nano(1_700_000_000_000_000_000n), '2023-11-14T22:13:20Z');
  const dir = await mkdtemp(join(tmpdir(), 'bosun-cri-'));
  try {
    const path = join(dir, '0.log');
    const log = new CriLogWriter(path);
    const ns = 1_700_000_000_000_000_001n;
    log.write('stdout', Buffer.from('one\ntw'), ns);
    log.write('stderr', Buffer.from('err\n'), ns);
    log.write('stdout', Buffer.from('o\n'), ns);
    log.write('stdout', Buffer.from(`${'x'.repeat(MAX_LOG_LINE_BYTES + 10)}\ntail`), ns);
    log.endStream('stdout');
    log.endStream('stderr');
    await log.close();
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
    const records = lines.map((l, i) => {
      const [time, stream, tag, ...content] = l.split(' ');
      // Records carry the time their chunk was read; the tail is flushed when the stream ends.
      if (i < lines.length - 1) assert.equal(time, '2023-11-14T22:13:20.000000001Z');
      return `${stream} ${tag} ${content.join(' ').length > 20 ? `<${content.join(' ').length}>` : content.join(' ')}`;
    });
    assert.deepEqual(records.slice(0, 3), ['stdout F one', 'stderr F err', 'stdout F two']);
    assert.deepEqual(records.slice(3), [`stdout P <${MAX_LOG_LINE_BYTES}>`, 'stdout F xxxxxxxxxx', 'stdout F tail']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('fstab fields escape whitespace and backslashes; mountinfo unescapes them', () => {
  const fstab = renderFstab([{ source: '/srv/my data', target: '/mnt/a\\b', fsType: 'none', options: ['bind', 'ro'] }, { source: '/proc/sys', sourceInRoot: true, target: '/proc/sys', fsType: 'none', options: ['bind'] }], '/run/root');
  assert.equal(fstab, '/srv/my\\040data /run/root/mnt/a\\134b none bind,ro 0 0\n/run/root/proc/sys /run/root/proc/sys none bind 0 0\n');
  const [entry] = parseMountInfo('50 27 0:40 / /media/usb\\040disk rw,nosuid,relatime shared:5 - vfat /dev/sdb1 rw,fmask=0022\n');
  assert.deepEqual(entry, { mountPoint: '/media/usb disk', mountOptions: ['rw', 'nosuid', 'relatime'], fsType: 'vfat', source: '/dev/sdb1', superOptions: ['rw', 'fmask=0022'] });
});

test('reads of the mount table that arrive while one runs share the next, which still sees every mount made before them', { skip: process.getuid?.() !== 0 && 'mounting a tmpfs needs root' }, async (t) => {
  const first = readMountInfo();
  const during = [readMountInfo(), readMountInfo(), readMountInfo()];
  const [a, b, c, d] = await Promise.all([first, ...during]);
  assert.notEqual(a, b, 'a call during a read gets the next read');
  assert.equal(b, c);
  assert.equal(c, d);
  const dir = await mkdtemp(join(tmpdir(), 'bosun-mountinfo-'));
  let mounted = false;
  t.after(async () => {
    if (mounted) await runHostCommand(['umount', dir]);
    await rm(dir, { recursive: true, force: true });
  });
  const running = readMountInfo();
  await runHostCommand(['mount', '-t', 'tmpfs', '-o', 'size=4k', 'bosun-mountinfo-test', dir]);
  mounted = true;
  const after = await readMountInfo();
  await running;
  assert.ok(after.some((entry) => entry.mountPoint === dir && entry.source === 'bosun-mountinfo-test'), 'a read asked for after the mount sees it');
});
