// --records as upstream's cli/injector/dns_disruption.go parses it: `hostname:type:value:ttl;…`, split on the
// first two colons and the last one, so that IPv6 values keep theirs.
import { InjectorOptionError } from '../option-values.ts';

export interface DnsRecord {
  hostname: string;
  /** Upper-cased, as the responder matches it. */
  type: string;
  value: string;
  ttl: number;
}

export function parseDnsRecords(raw: string): DnsRecord[] {
  if (raw === '') throw new InjectorOptionError('--records flag is required and cannot be empty');
  return raw.split(';').map((entry) => {
    const invalid = () => new InjectorOptionError(`invalid record format: ${entry} (expected hostname:type:value:ttl)`);
    const first = entry.indexOf(':');
    if (first < 0) throw invalid();
    const hostname = entry.slice(0, first);
    const remainder = entry.slice(first + 1);
    const second = remainder.indexOf(':');
    if (second < 0) throw invalid();
    const type = remainder.slice(0, second);
    const valueAndTtl = remainder.slice(second + 1);
    const last = valueAndTtl.lastIndexOf(':');
    if (last < 0) throw invalid();
    const ttlText = valueAndTtl.slice(last + 1);
    if (!/^\d+$/.test(ttlText) || Number(ttlText) > 0xffffffff) throw new InjectorOptionError(`invalid TTL value for ${hostname}: ${ttlText}`);
    return { hostname, type: type.trim().toUpperCase(), value: valueAndTtl.slice(0, last), ttl: Number(ttlText) };
  });
}

/** upstream's getUpstreamDNSFromResolvConf: the target's nameservers as host:port, else 8.8.8.8:53. */
export function upstreamNameservers(resolvConf: string | undefined): string[] {
  const servers: string[] = [];
  for (const line of (resolvConf ?? '').split('\n').map((l) => l.trim())) {
    if (!line.startsWith('nameserver')) continue;
    const server = line.split(/\s+/)[1];
    if (!server) continue;
    if (server.startsWith('[')) servers.push(server);
    else if (server.includes(':') && !/^[\d.]+:\d+$/.test(server)) servers.push(`[${server}]:53`); // IPv6
    else servers.push(server.includes(':') ? server : `${server}:53`);
  }
  return servers.length > 0 ? servers : ['8.8.8.8:53'];
}
