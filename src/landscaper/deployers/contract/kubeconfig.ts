// A Target's kubeconfig checked before any client is built from it: a kubeconfig that cannot work is the
// user's configuration to fix, so it fails the deploy item at once (ERR_CONFIGURATION_PROBLEM) with a message
// that names the Target and what is wrong, instead of a parser's message retried until the progressing
// timeout. Messages never quote the text: it holds credentials.
import type { AnyJSON } from '../../api/shared.ts';
import { isObject, parseYaml, YamlError } from '../../yaml.ts';
import { ConfigurationError } from '../../ls-error.ts';

export const INVALID_KUBECONFIG_REASON = 'InvalidKubeconfig';

/** The entry of a kubeconfig list (`clusters`, `contexts`, `users`) with that name, or undefined. */
function entry(config: { [key: string]: AnyJSON }, list: string, name: string): { [key: string]: AnyJSON } | undefined {
  const items = config[list];
  if (!Array.isArray(items)) return undefined;
  const found = items.find((i) => isObject(i) && i['name'] === name);
  return isObject(found) ? found : undefined;
}

function field(obj: { [key: string]: AnyJSON } | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** What is wrong with the kubeconfig, or undefined when a client can be built from it. */
export function kubeconfigProblem(text: string): string | undefined {
  let config: AnyJSON;
  try {
    config = parseYaml(text);
  } catch (err) {
    if (err instanceof YamlError) return `is not valid YAML (${err.message})`;
    throw err;
  }
  if (!isObject(config) || (config['clusters'] === undefined && config['contexts'] === undefined)) {
    return 'is not a kubeconfig: it has no clusters and no contexts';
  }
  const current = field(config, 'current-context');
  if (current === undefined) return 'has no current-context';
  const context = entry(config, 'contexts', current)?.['context'];
  if (!isObject(context)) return `names current-context "${current}", which is not among its contexts`;
  const clusterName = field(context, 'cluster');
  if (clusterName === undefined) return `has a context "${current}" that names no cluster`;
  const cluster = entry(config, 'clusters', clusterName)?.['cluster'];
  if (!isObject(cluster)) return `has a context "${current}" that names cluster "${clusterName}", which is not among its clusters`;
  const server = field(cluster, 'server');
  if (server === undefined) return `has a cluster "${clusterName}" without a server`;
  if (!/^https?:\/\/./.test(server)) return `has a cluster "${clusterName}" whose server is not an http(s) URL`;
  const user = field(context, 'user');
  if (user !== undefined && entry(config, 'users', user) === undefined) return `has a context "${current}" that names user "${user}", which is not among its users`;
  return undefined;
}

/** Throws the unrecoverable InvalidKubeconfig error for `what` ("target ns/name") when the kubeconfig cannot work. */
export function checkKubeconfig(text: string, what: string): void {
  const problem = kubeconfigProblem(text);
  if (problem !== undefined) throw new ConfigurationError('ResolveTarget', INVALID_KUBECONFIG_REASON, `${what}: its kubeconfig ${problem}`);
}
