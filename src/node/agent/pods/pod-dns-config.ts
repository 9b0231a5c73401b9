// The DNS configuration kubelet gives a pod (pkg/kubelet/network/dns): the policy picks cluster DNS, the host's
// resolvers or nothing, spec.dnsConfig is merged on top, and the result is cut to the resolver's limits with a
// DNSConfigForming Event saying what was left out.
import type { Pod } from '../../../apimachinery/api/index.ts';
import { mergeOptions, type ResolvConfig } from '../../dns/resolv-conf.ts';

/** kubelet's --cluster-dns and --cluster-domain. */
export interface ClusterDnsSettings {
  /** The cluster DNS Service's address(es); empty: no cluster DNS, ClusterFirst falls back to the host's resolvers. */
  nameservers: readonly string[];
  domain: string;
}

export interface PodDnsWarning {
  reason: 'DNSConfigForming';
  message: string;
}

/** Limits from the API's validation (MaxDNSNameservers, MaxDNSSearchPaths, MaxDNSSearchListChars) and glibc's name length. */
const MAX_NAMESERVERS = 3;
const MAX_SEARCH_PATHS = 32;
const MAX_SEARCH_LINE_CHARS = 2048;
const MAX_SEARCH_PATH_LENGTH = 253;

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** Which configuration the policy starts from: ClusterFirst on the host network is Default, as in kubelet. */
function dnsType(pod: Pod): 'cluster' | 'host' | 'none' {
  switch (pod.spec.dnsPolicy) {
    case 'None':
      return 'none';
    case 'ClusterFirstWithHostNet':
      return 'cluster';
    case 'Default':
      return 'host';
    default:
      return pod.spec.hostNetwork === true ? 'host' : 'cluster';
  }
}

function clusterSearches(namespace: string, domain: string, hostSearches: readonly string[]): string[] {
  return unique([`${namespace}.svc.${domain}`, `svc.${domain}`, domain, ...hostSearches]);
}

/** kubelet's formDNSSearchFitsLimits: at most 32 paths, none longer than 253, the line at most 2048 characters. */
function fitSearches(searches: readonly string[]): { searches: string[]; exceeded: boolean } {
  let fitted = searches.slice(0, MAX_SEARCH_PATHS);
  let exceeded = fitted.length < searches.length;
  const short = fitted.filter((s) => s.length <= MAX_SEARCH_PATH_LENGTH);
  exceeded ||= short.length < fitted.length;
  fitted = short;
  while (fitted.join(' ').length > MAX_SEARCH_LINE_CHARS) {
    fitted = fitted.slice(0, -1);
    exceeded = true;
  }
  return { searches: fitted, exceeded };
}

/** The pod's resolv.conf content as a config, and the Warning Events kubelet records while forming it. */
export function podDnsConfig(pod: Pod, host: ResolvConfig, cluster: ClusterDnsSettings | undefined): { config: ResolvConfig; warnings: PodDnsWarning[] } {
  let type = dnsType(pod);
  // Without a cluster DNS address kubelet falls back to the host's resolvers (and says so in a MissingClusterDNS
  // Event; here the node without cluster DNS is a documented mode, so nothing is recorded).
  if (type === 'cluster' && (cluster === undefined || cluster.nameservers.length === 0)) type = 'host';
  let config: ResolvConfig;
  if (type === 'cluster' && cluster !== undefined) {
    config = { nameservers: [...cluster.nameservers], searches: clusterSearches(pod.metadata.namespace ?? 'default', cluster.domain, host.searches), options: ['ndots:5'] };
  } else if (type === 'host') {
    config = { nameservers: [...host.nameservers], searches: [...host.searches], options: [...host.options] };
  } else {
    config = { nameservers: [], searches: [], options: [] };
  }
  const extra = pod.spec.dnsConfig;
  if (extra !== undefined) {
    config = {
      nameservers: unique([...config.nameservers, ...(extra.nameservers ?? [])]),
      searches: unique([...config.searches, ...(extra.searches ?? [])]),
      options: mergeOptions(config.options, (extra.options ?? []).map((o) => (o.value === undefined ? o.name : `${o.name}:${o.value}`))),
    };
  }
  const warnings: PodDnsWarning[] = [];
  if (config.nameservers.length > MAX_NAMESERVERS) {
    config.nameservers = config.nameservers.slice(0, MAX_NAMESERVERS);
    warnings.push({ reason: 'DNSConfigForming', message: `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${config.nameservers.join(' ')}` });
  }
  const fitted = fitSearches(config.searches);
  config.searches = fitted.searches;
  if (fitted.exceeded) warnings.push({ reason: 'DNSConfigForming', message: `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${fitted.searches.join(' ')}` });
  return { config, warnings };
}
