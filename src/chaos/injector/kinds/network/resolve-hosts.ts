// From host specs to the addresses their filters match: an IP or CIDR as given (an IP becomes /32), a name
// through a resolver (IPv4, as upstream's filters), then upstream's stable percentage selection
// (network.SelectIPsByPercentage: the addresses with the smallest sha256(ip + seed), seeded by the host and
// the disruption UID, so that every chaos pod of a disruption picks the same ones).
import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import type { HostSpec } from './network-spec.ts';
import type { ResolvedHost } from './plan.ts';

export type HostResolver = (name: string) => Promise<string[]>;

export class HostResolutionError extends Error {
  override readonly name = 'HostResolutionError' as const;
}

export const systemResolver: HostResolver = async (name) => (await lookup(name, { all: true, family: 4 })).map((a) => a.address);

async function addressesOf(host: string, resolve: HostResolver): Promise<string[]> {
  if (host === '') return ['0.0.0.0/0'];
  const [ip, bits] = host.split('/');
  if (ip !== undefined && isIPv4(ip)) return [bits === undefined ? `${ip}/32` : host];
  try {
    return [...new Set(await resolve(host))].map((a) => `${a}/32`);
  } catch (err) {
    throw new HostResolutionError(`error resolving given host ${host}: ${(err as Error).message}`);
  }
}

const hashWithSeed = (ip: string, seed: string): bigint => createHash('sha256').update(ip).update(seed).digest().readBigUInt64BE(0);

export function selectByPercentage(ips: readonly string[], percentage: number, seed: string): string[] {
  if (percentage <= 0 || percentage >= 100 || ips.length === 0) return [...ips];
  const count = Math.ceil((ips.length * percentage) / 100);
  if (count >= ips.length) return [...ips];
  return ips
    .map((ip) => ({ ip, hash: hashWithSeed(ip, seed) }))
    .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
    .slice(0, count)
    .map((h) => h.ip);
}

export async function resolveHosts(hosts: readonly HostSpec[], resolve: HostResolver, disruptionUid: string): Promise<ResolvedHost[]> {
  const resolved: ResolvedHost[] = [];
  for (const host of hosts) {
    let ips = await addressesOf(host.host, resolve);
    if (host.percentage !== undefined) ips = selectByPercentage(ips, host.percentage, `${host.host}-${disruptionUid}`);
    resolved.push({ port: host.port, protocol: host.protocol, flow: host.flow, connState: host.connState, ips });
  }
  return resolved;
}
