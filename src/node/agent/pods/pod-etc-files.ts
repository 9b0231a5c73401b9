// The /etc/hosts and /etc/resolv.conf kubelet writes for a pod. A pod on its own network gets kubelet's
// managed hosts file (localhost entries, then the pod's address and hostname); a host-network pod gets the
// host's file. There is no cluster DNS service, so resolv.conf starts from the host's (kubelet's answer to
// ClusterFirst without clusterDNS), with dnsConfig merged as kubelet merges it.
import { readFile } from 'node:fs/promises';
import type { Pod } from '../../../apimachinery/api/index.ts';

const MANAGED_HEADER = '# Kubernetes-managed hosts file.\n';
const LOCALHOST_ENTRIES = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters'];

/** spec.hostname or the pod name, as kubelet chooses it (truncated to 63 characters). */
export function podHostname(pod: Pod): string {
  return (pod.spec.hostname ?? pod.metadata.name ?? '').slice(0, 63).replace(/[-.]+$/, '');
}

function hostAliases(pod: Pod): string {
  const aliases = pod.spec.hostAliases ?? [];
  if (aliases.length === 0) return '';
  return `\n# Entries added by HostAliases.\n${aliases.map((a) => `${a.ip}\t${(a.hostnames ?? []).join('\t')}`).join('\n')}\n`;
}

export async function etcHosts(pod: Pod, podIP: string): Promise<string> {
  if (pod.spec.hostNetwork === true) {
    const host = await readFile('/etc/hosts', 'utf8').catch(() => `${LOCALHOST_ENTRIES.join('\n')}\n`);
    return `# Kubernetes-managed hosts file (host network).\n${host}${hostAliases(pod)}`;
  }
  const hostname = podHostname(pod);
  const fqdn = pod.spec.subdomain ? `${hostname}.${pod.spec.subdomain}.${pod.metadata.namespace ?? 'default'}.svc.cluster.local\t` : '';
  return `${MANAGED_HEADER}${LOCALHOST_ENTRIES.join('\n')}\n${podIP}\t${fqdn}${hostname}\n${hostAliases(pod)}`;
}

interface Resolv {
  nameservers: string[];
  searches: string[];
  options: string[];
}

function parseResolv(text: string): Resolv {
  const resolv: Resolv = { nameservers: [], searches: [], options: [] };
  for (const line of text.split('\n')) {
    const [keyword, ...values] = line.trim().split(/\s+/);
    if (keyword === 'nameserver') resolv.nameservers.push(...values.slice(0, 1));
    else if (keyword === 'search' || keyword === 'domain') resolv.searches = values;
    else if (keyword === 'options') resolv.options.push(...values);
  }
  return resolv;
}

export async function resolvConf(pod: Pod): Promise<string> {
  const base = pod.spec.dnsPolicy === 'None' ? parseResolv('') : parseResolv(await readFile('/etc/resolv.conf', 'utf8').catch(() => ''));
  const config = pod.spec.dnsConfig ?? {};
  const nameservers = [...new Set([...base.nameservers, ...(config.nameservers ?? [])])].slice(0, 3);
  const searches = [...new Set([...base.searches, ...(config.searches ?? [])])].slice(0, 32);
  // A dnsConfig option replaces the host's option of the same name.
  const options = new Map(base.options.map((o) => [o.split(':')[0] ?? o, o]));
  for (const o of config.options ?? []) options.set(o.name, o.value === undefined ? o.name : `${o.name}:${o.value}`);
  const lines = [...nameservers.map((n) => `nameserver ${n}`), ...(searches.length > 0 ? [`search ${searches.join(' ')}`] : []), ...(options.size > 0 ? [`options ${[...options.values()].join(' ')}`] : [])];
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
