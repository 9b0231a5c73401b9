// The /etc/hosts and /etc/resolv.conf kubelet writes for a pod. A pod on its own network gets kubelet's
// managed hosts file (localhost entries, then the pod's address and hostname); a host-network pod gets the
// host's file. resolv.conf follows the pod's dnsPolicy and dnsConfig (pod-dns-config.ts).
import { readFile } from 'node:fs/promises';
import type { Pod } from '../../../apimachinery/api/index.ts';
import { formatResolvConf, readHostResolvConf } from '../../dns/resolv-conf.ts';
import { podDnsConfig, type ClusterDnsSettings, type PodDnsWarning } from './pod-dns-config.ts';

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

/** The pod's resolv.conf, from the host's file read afresh, and the Warning Events forming it gave. */
export async function resolvConf(pod: Pod, cluster: ClusterDnsSettings | undefined): Promise<{ content: string; warnings: PodDnsWarning[] }> {
  const { config, warnings } = podDnsConfig(pod, await readHostResolvConf(), cluster);
  return { content: formatResolvConf(config), warnings };
}
