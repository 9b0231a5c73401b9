// The resolv.conf format as kubelet reads it (pkg/kubelet/network/dns parseResolvConf) and as containerd
// writes a pod's file: the host's file is where pods on the Default policy get their resolvers, and where the
// node's DNS server finds the upstreams it forwards names outside the cluster to.
import { readFile } from 'node:fs/promises';

export interface ResolvConfig {
  nameservers: string[];
  searches: string[];
  /** `name` or `name:value`, in order; one entry per name. */
  options: string[];
}

export const HOST_RESOLV_CONF = '/etc/resolv.conf';

function optionName(option: string): string {
  return option.split(':')[0] ?? option;
}

/** Appends options; a later option replaces an earlier one of the same name, in its place (kubelet's appendOptions). */
export function mergeOptions(options: readonly string[], more: readonly string[]): string[] {
  const byName = new Map(options.map((o) => [optionName(o), o]));
  for (const option of more) byName.set(optionName(option), option);
  return [...byName.values()];
}

/**
 * kubelet's reading: the first address of each `nameserver` line, the last `search` line (trailing dots dropped,
 * "." skipped), every `options` line; comments and other keywords (`domain` too) ignored.
 */
export function parseResolvConf(text: string): ResolvConfig {
  const config: ResolvConfig = { nameservers: [], searches: [], options: [] };
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.startsWith(';')) continue;
    const [keyword, ...fields] = line.trim().split(/\s+/);
    if (keyword === 'nameserver' && fields[0] !== undefined) config.nameservers.push(fields[0]);
    else if (keyword === 'search') config.searches = fields.filter((s) => s !== '.').map((s) => s.replace(/\.$/, ''));
    else if (keyword === 'options') config.options = mergeOptions(config.options, fields);
  }
  return config;
}

/** containerd's layout: search, then nameservers, then options; an empty config is an empty file. */
export function formatResolvConf(config: ResolvConfig): string {
  const lines = [
    ...(config.searches.length > 0 ? [`search ${config.searches.join(' ')}`] : []),
    ...config.nameservers.map((n) => `nameserver ${n}`),
    ...(config.options.length > 0 ? [`options ${config.options.join(' ')}`] : []),
  ];
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The host's file, read afresh; a missing file is an empty config (kubelet's answer to an unreadable --resolv-conf is an error it logs). */
export async function readHostResolvConf(path = HOST_RESOLV_CONF): Promise<ResolvConfig> {
  return parseResolvConf(await readFile(path, 'utf8').catch(() => ''));
}
