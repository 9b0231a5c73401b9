// A pod's network plumbing: a network namespace kept alive by a bind mount of its nsfs file under the state
// directory (found again after an agent restart in /proc/self/mountinfo), and a veth pair whose pod end is eth0
// in the namespace and whose host end is a port of the bridge. `unshare --net=FILE` makes and binds the
// namespace and runs `ip -batch` inside it, which creates the veth pair, sending the host end to the agent's
// namespace, and configures the pod's side; an `ip` in the agent's namespace then puts the host end on the bridge
// (a veth's peer cannot be given a master in another namespace). Both steps are batched across the pods
// attaching at once: one shell starts the unshares of a whole batch, one `ip -batch` enslaves its host ends.
// Removal is batched too: one `umount` for the namespace files, and the veths are deleted as a group, which the
// kernel does with one RCU grace period for all instead of one each (about 20 ms a veth here).
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMountInfo } from '../sandbox/mountinfo.ts';
import { BatchQueue } from '../host-commands/batch-queue.ts';
import { HostCommandError, ipBatchScript, isAlreadyGone, runHostCommand } from './host-command.ts';
import { IpBatcher, runIpBatch } from './ip-batcher.ts';
import { isSpareName, spareVethName } from './spare-namespaces.ts';

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

/** A namespace file's name: a pod's uid, or a spare's name (which a pod keeps when it takes the spare). */
export function isNamespaceName(name: string): boolean {
  return isSafeUid(name) || isSpareName(name);
}

/** The host end of the veth pair whose pod end is in the namespace file of that name. */
export function hostEndOf(name: string): string {
  return spareVethName(name) ?? vethName(name);
}

interface NamespaceRequest {
  path: string;
  /** The ip batch run inside the new namespace. */
  commands: string;
}

// Arguments: pairs of (namespace file, ip batch). Each pair runs in the background; a failure is reported as
// one line "INDEX MESSAGE" on stdout (short lines from one write each, so they do not interleave).
const MAKE_NAMESPACES = `
i=0
while [ "$#" -ge 2 ]; do
  (
    if ! said=$(printf '%s' "$2" | unshare --net="$1" ip -batch - 2>&1 >/dev/null); then
      printf '%s %s\\n' "$i" "$(printf '%s' "$said" | tr '\\n' ' ')"
    fi
  ) &
  i=$((i + 1))
  shift 2
done
wait
`;

function unshareArgv(path: string): string[] {
  return ['unshare', `--net=${path}`, 'ip', '-batch', '-'];
}

async function makeNamespaces(requests: readonly NamespaceRequest[]): Promise<(Error | undefined)[]> {
  const [only] = requests;
  // A pod attaching alone (the usual case) saves the shell's processes.
  if (only && requests.length === 1) return [await runHostCommand(unshareArgv(only.path), only.commands).then(() => undefined, (error: Error) => error)];
  const argv = ['sh', '-c', MAKE_NAMESPACES, 'bosun-netns', ...requests.flatMap((request) => [request.path, request.commands])];
  let report: string;
  try {
    report = await runHostCommand(argv);
  } catch (error) {
    return requests.map(() => (error instanceof Error ? error : new Error(String(error))));
  }
  const results: (Error | undefined)[] = requests.map(() => undefined);
  for (const line of report.split('\n')) {
    const failure = /^(\d+) (.*)$/.exec(line);
    const request = failure ? requests[Number(failure[1])] : undefined;
    if (failure && request) results[Number(failure[1])] = new HostCommandError(unshareArgv(request.path), failure[2] ?? '');
  }
  return results;
}

/**
 * The interface group veths are moved to just before `ip link del group` deletes them all in one request. Any
 * device in it is being deleted, so agents sharing the machine may delete each other's: all want them gone.
 */
const DELETING_GROUP = '3187671';

async function deleteVeths(names: readonly string[]): Promise<(Error | undefined)[]> {
  const results = await runIpBatch([...names.map((name) => ['link', 'set', name, 'group', DELETING_GROUP]), ['link', 'del', 'group', DELETING_GROUP]]);
  const deletion = results[names.length];
  // Moving a veth that is gone already fails as "Cannot find device", which the caller takes as done.
  return names.map((_, i) => results[i] ?? (deletion && !isAlreadyGone(deletion) ? deletion : undefined));
}

async function unmount(paths: readonly string[]): Promise<(Error | undefined)[]> {
  try {
    await runHostCommand(['umount', ...paths]);
    return paths.map(() => undefined);
  } catch (error) {
    const failure = error instanceof HostCommandError ? error : new HostCommandError(['umount', ...paths], String(error));
    // umount goes on after a failure and says "umount: PATH: why." for each; without such lines, all failed.
    const lines = failure.stderr.split('\n');
    const said = paths.map((path) => lines.find((line) => line.startsWith(`umount: ${path}: `)));
    if (said.every((line) => line === undefined)) return paths.map(() => failure);
    return paths.map((path, i) => (said[i] === undefined ? undefined : new HostCommandError(['umount', path], said[i] ?? '')));
  }
}

export class PodPlumber {
  private readonly namespaces = new BatchQueue<NamespaceRequest>(makeNamespaces);
  private readonly hostIp = new IpBatcher();
  private readonly veths = new BatchQueue<string>(deleteVeths);
  private readonly mounts = new BatchQueue<string>(unmount);

  async create(plumbing: PodPlumbing): Promise<void> {
    const mtu = String(plumbing.mtu);
    // unshare binds the new namespace onto an existing file.
    await writeFile(plumbing.path, '', { mode: 0o600 });
    const commands = ipBatchScript([
      ['link', 'set', 'lo', 'up'],
      ['link', 'add', 'eth0', 'mtu', mtu, 'type', 'veth', 'peer', 'name', plumbing.veth, 'mtu', mtu, 'netns', `/proc/${process.pid}/ns/net`],
      ['addr', 'add', plumbing.addressWithPrefix, 'dev', 'eth0'],
      ['link', 'set', 'eth0', 'up'],
      ['route', 'add', 'default', 'via', plumbing.gateway, 'dev', 'eth0'],
    ]);
    await this.namespaces.run({ path: plumbing.path, commands });
    // Hairpin: with br_netfilter loaded, a pod's connection that the service proxy DNATs back to the pod itself
    // is bridged out of the port it came in on, which the bridge allows only in hairpin mode (as CNI's bridge).
    await Promise.all([
      this.hostIp.run(['link', 'set', plumbing.veth, 'master', plumbing.bridge, 'up']),
      this.hostIp.run(['link', 'set', plumbing.veth, 'type', 'bridge_slave', 'hairpin', 'on']),
    ]);
  }

  /** Removes what exists of a pod's plumbing; each step tolerates that its part is gone already. */
  async remove(path: string, veth: string): Promise<void> {
    // Deleting one end deletes the pair, even while a stray process still holds the namespace.
    try {
      await this.veths.run(veth);
    } catch (error) {
      if (!isAlreadyGone(error)) throw error;
    }
    try {
      await this.mounts.run(path);
    } catch (error) {
      if (!isAlreadyGone(error)) throw error;
    }
    await rm(path, { force: true });
  }
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
