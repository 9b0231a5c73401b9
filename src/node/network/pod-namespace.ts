// A pod's network plumbing: a network namespace kept alive by a bind mount of its nsfs file under the state
// directory (found again after an agent restart in /proc/self/mountinfo), and a veth pair whose pod end is eth0
// in the namespace and whose host end is a port of the bridge. One process per pod: `unshare --net=FILE`
// makes and binds the namespace and runs `ip -batch` inside it, which creates the veth pair, sending the host
// end to the agent's namespace, and configures the pod's side; the agent's batched `ip` then puts the host end
// on the bridge (a veth's peer cannot be given a master in another namespace).
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMountInfo } from '../sandbox/mountinfo.ts';
import { ipBatchScript, isAlreadyGone, runHostCommand } from './host-command.ts';
import type { IpBatcher } from './ip-batcher.ts';

export interface PodPlumbing {
  /** The namespace's file. */
  path: string;
  /** The host end of the veth pair. */
  veth: string;
  /** The pod's address with the cluster-wide prefix length, e.g. 10.244.1.7/16. */
  addressWithPrefix: string;
  gateway: string;
  mtu: number;
  bridge: string;
}

// Kubernetes uids are UUIDs; anything else that is file-name safe is accepted (tests, other API servers).
const UID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeUid(uid: string): boolean {
  return UID.test(uid) && uid !== '.' && uid !== '..';
}

export function namespacePath(directory: string, uid: string): string {
  return join(directory, uid);
}

/** The host end's name: IFNAMSIZ allows 15 characters, so a hash of the uid; uids are unique in a cluster. */
export function vethName(uid: string): string {
  return `bsn${createHash('sha256').update(uid).digest('hex').slice(0, 12)}`;
}

export async function createPodNamespace(plumbing: PodPlumbing, hostIp: IpBatcher): Promise<void> {
  const mtu = String(plumbing.mtu);
  // unshare binds the new namespace onto an existing file.
  await writeFile(plumbing.path, '', { mode: 0o600 });
  const podSide = ipBatchScript([
    ['link', 'set', 'lo', 'up'],
    ['link', 'add', 'eth0', 'mtu', mtu, 'type', 'veth', 'peer', 'name', plumbing.veth, 'mtu', mtu, 'netns', `/proc/${process.pid}/ns/net`],
    ['addr', 'add', plumbing.addressWithPrefix, 'dev', 'eth0'],
    ['link', 'set', 'eth0', 'up'],
    ['route', 'add', 'default', 'via', plumbing.gateway, 'dev', 'eth0'],
  ]);
  await runHostCommand(['unshare', `--net=${plumbing.path}`, 'ip', '-batch', '-'], podSide);
  await hostIp.run(['link', 'set', plumbing.veth, 'master', plumbing.bridge, 'up']);
}

/** Removes what exists of a pod's plumbing; each step tolerates that its part is gone already. */
export async function removePodNamespace(path: string, veth: string, hostIp: IpBatcher): Promise<void> {
  // Deleting one end deletes the pair, even while a stray process still holds the namespace.
  try {
    await hostIp.run(['link', 'del', veth]);
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
  try {
    await runHostCommand(['umount', path]);
  } catch (error) {
    if (!isAlreadyGone(error)) throw error;
  }
  await rm(path, { force: true });
}

/** The names of the namespace files bound under a directory now. */
export async function mountedNamespaces(directory: string): Promise<Set<string>> {
  const prefix = `${directory}/`;
  const names = new Set<string>();
  for (const entry of await readMountInfo()) {
    if (entry.fsType === 'nsfs' && entry.mountPoint.startsWith(prefix)) names.add(entry.mountPoint.slice(prefix.length));
  }
  return names;
}

