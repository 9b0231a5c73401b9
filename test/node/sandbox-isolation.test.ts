// What a container sees: its user, hostname, files, PID namespace and capabilities. Real processes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { text } from 'node:stream/consumers';
import { DEFAULT_CAPABILITIES } from '../../src/node/sandbox/capabilities.ts';
import type { ContainerSpec, PodFacts } from '../../src/node/sandbox/types.ts';
import { logContents, openSandboxHarness, type SandboxHarness } from './harness.ts';

let h: SandboxHarness;
before(async () => {
  h = await openSandboxHarness();
});
after(async () => {
  await h.close();
});

/** Runs a container to completion and returns its exit and output lines. */
async function run(podName: string, container: ContainerSpec, pod: Partial<PodFacts> = {}) {
  const request = h.request(podName, container, pod);
  const handle = await h.sandbox.start(request);
  const exit = await handle.exited;
  return { exit, lines: await logContents(request.logPath), handle, request };
}

function sh(script: string, extra: Partial<ContainerSpec> = {}): ContainerSpec {
  return { name: 'main', argv: ['sh', '-c', script], ...extra };
}

test('runAsUser and runAsGroup are the process ids; no user means nobody, not root', async () => {
  const given = await run('ids', sh('id -u; id -g; id -G', { securityContext: { runAsUser: 1000, runAsGroup: 3000 } }), { supplementalGroups: [4000] });
  assert.equal(given.exit.reason, 'Completed');
  assert.deepEqual(given.lines, ['1000', '3000', '3000 4000']);
  const unset = await run('nobody', sh('id -u; id -g'));
  assert.deepEqual(unset.lines, ['65534', '65534']);
});

test('the hostname and /etc/hostname, /etc/hosts, /etc/resolv.conf are the pod\'s', async () => {
  const { exit, lines, request } = await run('web-0', sh('hostname; cat /etc/hostname; cat /etc/hosts; cat /etc/resolv.conf'));
  assert.equal(exit.reason, 'Completed', exit.message);
  assert.deepEqual(lines, ['web-0', 'web-0', ...request.pod.etcHosts.trim().split('\n'), ...request.pod.resolvConf.trim().split('\n')]);
});

test('volumes appear at their mountPath, read-only ones refuse writes', async () => {
  const config = join(h.dir, 'config-volume');
  const data = join(h.dir, 'data-volume');
  await mkdir(config, { recursive: true });
  await mkdir(data, { recursive: true });
  await writeFile(join(config, 'app.properties'), 'color=blue\n');
  const script = 'cat /etc/app/config/app.properties; touch /etc/app/config/x 2>/dev/null || echo ro-refused; echo written > /srv/data/out; echo ok';
  const { exit, lines } = await run('volumes', sh(script, {
    securityContext: { runAsUser: 0 },
    volumeMounts: [
      { hostPath: config, mountPath: '/etc/app/config', readOnly: true },
      { hostPath: data, mountPath: '/srv/data' },
    ],
  }));
  assert.equal(exit.reason, 'Completed', lines.join('\n'));
  assert.deepEqual(lines, ['color=blue', 'ro-refused', 'ok']);
  assert.equal(await readFile(join(data, 'out'), 'utf8'), 'written\n');
  // The mount points the host lacked were made in the container's skeleton, not on the host.
  assert.equal(existsSync('/etc/app'), false);
  assert.equal(existsSync('/srv/data'), false);
});

test('the host root is read-only; /tmp is private and writable; the host\'s /tmp is untouched', async () => {
  const marker = `bosun-sandbox-marker-${process.pid}`;
  const script = `touch /usr/${marker} 2>/dev/null || echo usr-refused; touch /etc/${marker} 2>/dev/null || echo etc-refused; echo kept > /tmp/${marker} && cat /tmp/${marker}; ls /tmp | wc -l`;
  const { exit, lines } = await run('readonly', sh(script, { securityContext: { runAsUser: 0 } }));
  assert.equal(exit.reason, 'Completed', exit.message);
  assert.deepEqual(lines, ['usr-refused', 'etc-refused', 'kept', '1']);
  assert.equal(existsSync(`/tmp/${marker}`), false);
  assert.equal(existsSync(`/usr/${marker}`), false);
});

test('readOnlyRootFilesystem makes the scratch layer read-only too; volumes stay writable', async () => {
  const data = join(h.dir, 'rorootfs-volume');
  await mkdir(data, { recursive: true });
  const { lines } = await run('rorootfs', sh('touch /tmp/x 2>/dev/null || echo tmp-refused; touch /data/x && echo volume-ok', {
    securityContext: { runAsUser: 0, readOnlyRootFilesystem: true },
    volumeMounts: [{ hostPath: data, mountPath: '/data' }],
  }));
  assert.deepEqual(lines, ['tmp-refused', 'volume-ok']);
});

test('the host\'s /run (its sockets) is not shown; /sys/fs/cgroup holds only the container\'s cgroups', async () => {
  const marker = `/run/bosun-sandbox-marker-${process.pid}`;
  await writeFile(marker, 'host only');
  try {
    const { exit, lines } = await run('hidden', sh(`test -e ${marker} && echo run-visible; ls /sys/fs/cgroup; touch /sys/kernel/x 2>/dev/null || echo sys-refused`, { securityContext: { runAsUser: 0 } }));
    assert.equal(exit.reason, 'Completed', exit.message);
    const expected = h.sandbox.cgroupLayout.version === 1 ? h.sandbox.cgroupLayout.hierarchies.map((x) => x.mountPoint.split('/').pop()).sort() : [];
    if (h.sandbox.cgroupLayout.version === 1) assert.deepEqual(lines.slice(0, -1), expected);
    assert.equal(lines.includes('run-visible'), false);
    assert.equal(lines.at(-1), 'sys-refused');
  } finally {
    await rm(marker, { force: true });
  }
});

test('the container is pid 1 of its own PID namespace with a fresh /proc', async () => {
  const { lines } = await run('pidns', sh('echo $$; ls /proc | grep -c "^[0-9]"'));
  assert.equal(lines[0], '1');
  // sh itself and the ls/grep pipeline: nothing of the host.
  assert.ok(Number(lines[1]) <= 4, `saw ${lines[1]} processes`);
});

test('hostPID shows the host\'s processes: the container knows its host pid', async () => {
  const request = h.request('hostpid', sh(`cd -P /proc/self && basename "$PWD"; test -d /proc/${process.pid} && echo agent-visible`), { hostPID: true });
  const handle = await h.sandbox.start(request);
  await handle.exited;
  // cd is a shell builtin, so /proc/self is the container's main process.
  assert.deepEqual(await logContents(request.logPath), [String(handle.pid), 'agent-visible']);
});

test('privileged: the host\'s PIDs and /dev, every capability, no no_new_privs', async () => {
  const script = 'cd -P /proc/self && basename "$PWD"; test -e /dev/kmsg && echo host-dev; grep -E "^(CapBnd|NoNewPrivs)" /proc/self/status';
  const request = h.request('privileged', sh(script, { securityContext: { privileged: true, runAsUser: 0 } }));
  const handle = await h.sandbox.start(request);
  await handle.exited;
  const lines = await logContents(request.logPath);
  // Every capability the agent itself may hold.
  const agentBounding = (await readFile('/proc/self/status', 'utf8')).match(/^CapBnd:\s+(\w+)$/m)?.[1];
  assert.deepEqual(lines.slice(0, 2), [String(handle.pid), 'host-dev']);
  assert.equal(lines[2]?.split(/\s+/)[1], agentBounding);
  assert.match(lines[3] ?? '', /^NoNewPrivs:\s+0$/);
  // An unprivileged container has neither.
  const plain = await run('unprivileged', sh('test -e /dev/kmsg && echo host-dev; echo done'));
  assert.deepEqual(plain.lines, ['done']);
});

test('capabilities: a root container has the default bounding set, drop ALL leaves none, no_new_privs by default', async () => {
  const status = 'grep -E "^(CapEff|CapBnd|NoNewPrivs)" /proc/self/status';
  const root = await run('caps', sh(status, { securityContext: { runAsUser: 0 } }));
  const expected = DEFAULT_CAPABILITIES.map((name) => CAP_NUMBERS[name] as number).reduce((mask, bit) => mask | (1n << BigInt(bit)), 0n);
  const field = (lines: string[], name: string) => lines.find((l) => l.startsWith(name))?.split(/\s+/)[1];
  assert.equal(BigInt(`0x${field(root.lines, 'CapBnd:')}`), expected);
  assert.equal(BigInt(`0x${field(root.lines, 'CapEff:')}`), expected);
  assert.equal(field(root.lines, 'NoNewPrivs:'), '1');
  const dropped = await run('caps-drop', sh(status, { securityContext: { runAsUser: 0, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }, allowPrivilegeEscalation: true } }));
  assert.equal(BigInt(`0x${field(dropped.lines, 'CapEff:')}`), 1n << 10n);
  assert.equal(field(dropped.lines, 'NoNewPrivs:'), '0');
});

test('a pod network namespace is joined; otherwise the host network is shared', async () => {
  // The holder prints its namespace once it is in it, then keeps it alive.
  const holder = spawn('unshare', ['--net', 'sh', '-c', 'readlink /proc/self/ns/net; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const [holderNet] = (await once(createInterface({ input: holder.stdout }), 'line')) as [string];
    const joined = await run('netns', sh('readlink /proc/self/ns/net'), { network: { kind: 'namespace', path: `/proc/${holder.pid}/ns/net` } });
    assert.deepEqual(joined.lines, [holderNet]);
    const host = await run('hostnet', sh('readlink /proc/self/ns/net'));
    assert.deepEqual(host.lines, [await readlinkNs('self')]);
  } finally {
    holder.kill('SIGKILL');
  }
});

test('descriptors the agent inherited reach neither containers nor exec\'d processes', async () => {
  // An agent whose fd 9 is inherited from its parent, as a CI runner's pipes are.
  const agent = `
    import { openSandboxHarness } from ${JSON.stringify(new URL('./harness.ts', import.meta.url).pathname)};
    const h = await openSandboxHarness();
    try {
      const request = h.request('fds', { name: 'main', argv: ['sh', '-c', 'ls /proc/self/fd; exec sleep 30'] });
      const handle = await h.sandbox.start(request);
      const exec = await handle.exec(['ls', '/proc/self/fd']);
      const chunks = [];
      for await (const chunk of exec.stdout) chunks.push(chunk);
      const { logContents, waitForLog } = await import(${JSON.stringify(new URL('./harness.ts', import.meta.url).pathname)});
      // The container's ls may not have run yet on a loaded machine: stop once its last line (fd 3, CRI format
      // "<time> stdout F 3") is in the log, not before.
      await waitForLog(request.logPath, ' F 3\\n', 30_000);
      await handle.stop(0);
      console.log(JSON.stringify({ container: await logContents(request.logPath), exec: Buffer.concat(chunks).toString().trim().split('\\n') }));
    } finally {
      await h.close();
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', agent], { stdio: ['ignore', 'pipe', 'inherit', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'pipe'] });
  assert.ok(child.stdout);
  const output = await text(child.stdout);
  const seen = JSON.parse(output) as { container: string[]; exec: string[] };
  // 0-2 and ls's own directory descriptor (3), nothing else.
  assert.deepEqual(seen.container, ['0', '1', '2', '3']);
  assert.deepEqual(seen.exec, ['0', '1', '2', '3']);
});

const CAP_NUMBERS: Record<string, number> = {
  CHOWN: 0, DAC_OVERRIDE: 1, FOWNER: 3, FSETID: 4, KILL: 5, SETGID: 6, SETUID: 7, SETPCAP: 8, NET_BIND_SERVICE: 10,
  NET_RAW: 13, SYS_CHROOT: 18, MKNOD: 27, AUDIT_WRITE: 29, SETFCAP: 31,
};

function readlinkNs(pid: string): Promise<string> {
  return readlink(`/proc/${pid}/ns/net`);
}
