// Shared by the node runtime API tests: the pods they run (a plain sleep, a privileged hostPID sleep in the
// trusted chaos namespace) and small readers of /proc and of the pods' statuses in any namespace.
import { readFile } from 'node:fs/promises';
import { namespacesResource } from '../../src/apimachinery/builtin-resources.ts';
import { TRUSTED_NAMESPACE_LABELS } from '../../src/apimachinery/pod-security-labels.ts';
import { AlreadyExistsError } from '../../src/client/errors.ts';
import type { ContainerStatus } from '../../src/apimachinery/api/index.ts';
import type { PodHarness } from './pod-harness.ts';

export const CHAOS_NAMESPACE = 'chaos-engineering';

/** A trusted namespace (labelled privileged for Pod Security), as the chaos family makes its own. */
export async function ensureTrustedNamespace(h: PodHarness, name: string): Promise<void> {
  try {
    await h.client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: TRUSTED_NAMESPACE_LABELS } });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
  }
}

export function containerStatus(h: PodHarness, namespace: string, pod: string, container: string): ContainerStatus | undefined {
  return h.pod(pod, namespace)?.status?.containerStatuses?.find((c) => c.name === container);
}

export function isRunning(status: ContainerStatus | undefined): boolean {
  return status?.state?.running !== undefined;
}

export async function cmdline(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((word) => word !== '');
}

export async function environ(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').filter((word) => word !== '');
}

/** The pid's NSpid line: its pid in each PID namespace, the host's first. */
export async function nsPids(pid: number): Promise<number[]> {
  const line = (await readFile(`/proc/${pid}/status`, 'utf8')).split('\n').find((l) => l.startsWith('NSpid:')) ?? '';
  return line.slice('NSpid:'.length).trim().split(/\s+/).map(Number);
}

/** /proc/<pid>/cgroup as controller → path (v1: one line per hierarchy, its controllers comma-separated). */
export async function procCgroups(pid: number): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  for (const line of (await readFile(`/proc/${pid}/cgroup`, 'utf8')).split('\n')) {
    const [, controllers = '', ...path] = line.split(':');
    for (const controller of controllers.split(',')) paths.set(controller, path.join(':'));
  }
  return paths;
}
