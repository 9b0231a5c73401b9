// Shared setup for the sandbox tests: a Sandbox whose root cgroup sits inside this test process's own
// cgroup (so nothing escapes whatever runs the tests), a scratch directory for pods and logs, and cleanup
// that kills and removes whatever a failed test left behind.
import { watch } from 'node:fs';
import { mkdtemp, readFile, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox, type SandboxOptions } from '../../src/node/sandbox/sandbox.ts';
import type { ContainerSpec, PodFacts, StartRequest } from '../../src/node/sandbox/types.ts';

export interface SandboxHarness {
  sandbox: Sandbox;
  dir: string;
  cgroupName: string;
  /** Another Sandbox on the same cgroup root, as an agent restarted with other options would open it. */
  reopen(options?: Partial<SandboxOptions>): Promise<Sandbox>;
  request(podName: string, container: ContainerSpec, pod?: Partial<PodFacts>): StartRequest;
  close(): Promise<void>;
}

let counter = 0;

export async function openSandboxHarness(options: Partial<SandboxOptions> = {}): Promise<SandboxHarness> {
  const cgroupName = `bosun-test-${process.pid}-${Date.now().toString(36)}`;
  const cgroup = { placement: 'agent' as const, name: cgroupName };
  const sandbox = await Sandbox.open({ cgroup, ...options });
  const dir = await mkdtemp(join(tmpdir(), 'bosun-sandbox-'));
  return {
    sandbox,
    dir,
    cgroupName,
    reopen: (more = {}) => Sandbox.open({ cgroup, ...options, ...more }),
    request(podName, container, pod = {}) {
      const uid = `${podName}-${process.pid}-${++counter}`;
      return {
        pod: {
          name: podName,
          namespace: 'default',
          uid,
          hostname: podName,
          etcHosts: `127.0.0.1\tlocalhost\n10.0.0.7\t${podName}\n`,
          resolvConf: 'nameserver 10.96.0.10\nsearch default.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n',
          podDir: join(dir, 'pods', uid),
          network: { kind: 'host' },
          ...pod,
        },
        container,
        logPath: join(dir, 'logs', uid, `${container.name}.log`),
      };
    },
    // Cleans up everything it can even when a step fails, then reports the first failure.
    async close() {
      const pods = await sandbox.listPods().catch(() => []);
      const results = await Promise.allSettled(pods.map((pod) => sandbox.destroyPod(pod.podUid)));
      await Promise.allSettled(sandbox.cgroupLayout.hierarchies.map((hierarchy) => rmdir(hierarchy.root)));
      await rm(dir, { recursive: true, force: true });
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
    },
  };
}

export async function readLog(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}

/** The CRI records' contents, in order. */
export async function logContents(path: string): Promise<string[]> {
  return (await readLog(path))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split(' ').slice(3).join(' '));
}

/** Resolves once the log contains text; woken by file-change events, not by polling. */
export async function waitForLog(path: string, text: string, timeoutMs = 5000): Promise<void> {
  const watcher = watch(join(path, '..'));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${path} did not show ${JSON.stringify(text)} within ${timeoutMs} ms`)), timeoutMs);
      const check = () =>
        void readLog(path).then((content) => {
          if (!content.includes(text)) return;
          clearTimeout(timer);
          resolve();
        });
      watcher.on('change', check);
      check();
    });
  } finally {
    watcher.close();
  }
}

/** Whether pid is a live process: gone and zombie (dead, not yet reaped by its parent) both count as dead. */
export async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The state follows the parenthesised command name, which may itself contain ") ".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return stat !== '' && state !== 'Z';
}
