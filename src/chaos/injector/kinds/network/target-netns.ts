// Commands inside the target's network namespace: `nsenter --net=/proc/PID/ns/net …` (upstream enters it with
// setns in-process). Reading its links and default routes goes through `ip -j` as a read.
import type { HostReads } from '../../host/host-reads.ts';
import { procPath } from '../mounts.ts';
import type { DefaultRoute, Link } from './plan.ts';

export class TargetNetnsError extends Error {
  override readonly name = 'TargetNetnsError' as const;
}

export const inNetns = (pid: number, argv: readonly string[]): string[] => ['nsenter', `--net=${procPath(pid, 'ns/net')}`, ...argv];

/** upstream's LinkList: local ethernet names of the systemd/udev scheme, plus lo at pod level. */
export function disruptedLink(name: string, useLocalhost: boolean): boolean {
  if (name.startsWith('lo')) return useLocalhost;
  return ['eno', 'ens', 'enp', 'enx', 'eth'].some((prefix) => name.startsWith(prefix));
}

async function ipJson(reads: HostReads, pid: number, args: string[]): Promise<unknown[]> {
  const result = await reads.run(inNetns(pid, ['ip', '-j', ...args]));
  if (result.code !== 0) throw new TargetNetnsError(`ip ${args.join(' ')} in the netns of pid ${pid} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  const parsed: unknown = JSON.parse(result.stdout || '[]');
  return Array.isArray(parsed) ? parsed : [];
}

export async function listLinks(reads: HostReads, pid: number, useLocalhost: boolean): Promise<Link[]> {
  const links = (await ipJson(reads, pid, ['link', 'show'])) as { ifname?: string; txqlen?: number }[];
  return links.flatMap((l) => (l.ifname && disruptedLink(l.ifname.split('@')[0] ?? l.ifname, useLocalhost) ? [{ name: l.ifname.split('@')[0] ?? l.ifname, txqlen: l.txqlen ?? 0 }] : []));
}

export async function defaultRoutes(reads: HostReads, pid: number): Promise<DefaultRoute[]> {
  const routes = (await ipJson(reads, pid, ['-4', 'route', 'show', 'default'])) as { gateway?: string; dev?: string }[];
  return routes.flatMap((r) => (r.gateway && r.dev ? [{ gateway: r.gateway, dev: r.dev }] : []));
}
