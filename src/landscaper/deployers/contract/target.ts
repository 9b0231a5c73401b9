// Target resolution (upstream lib checkTargetResponsibility + targetresolver): the deploy item's Target lives in
// its namespace; its content is spec.config, or the YAML/JSON value of spec.secretRef's key in a Secret of the
// Target's namespace. For kubernetes-cluster targets the content is {kubeconfig: string | {secretRef}}.
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { TARGET_TYPE_KUBERNETES_CLUSTER } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { AnyJSON } from '../../api/shared.ts';
import type { Target } from '../../api/target.ts';
import { parseYaml } from '../../yaml.ts';
import { checkKubeconfig } from './kubeconfig.ts';
import { secretsResource } from '../../../apimachinery/builtin-resources.ts';
import type { Secret } from '../../../apimachinery/api/index.ts';
import { targetsResource } from '../../api/resources.ts';
import { ConfigurationError } from '../../ls-error.ts';

export const NO_TARGET_FOUND_REASON = 'NoTargetFound';
const DEFAULT_KUBECONFIG_KEY = 'kubeconfig';

/** The deploy item's Target; undefined when it names none. Throws NoTargetFound (unrecoverable) when missing. */
export async function getTarget(client: KubeClient, item: DeployItem, signal?: AbortSignal): Promise<Target | undefined> {
  const ref = item.spec.target;
  if (!ref?.name) return undefined;
  const namespace = item.metadata.namespace ?? '';
  try {
    return await client.get<Target>(targetsResource, ref.name, { namespace, ...(signal ? { signal } : {}) });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new ConfigurationError('Reconcile', NO_TARGET_FOUND_REASON, `target ${namespace}/${ref.name} of deploy item ${namespace}/${item.metadata.name} not found`, undefined, { cause: err });
    }
    throw err;
  }
}

async function secretValue(client: KubeClient, namespace: string, name: string, key: string, what: string): Promise<string> {
  let secret: Secret;
  try {
    secret = await client.get<Secret>(secretsResource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) throw new ConfigurationError('ResolveTarget', 'SecretNotFound', `${what}: secret ${namespace}/${name} not found`, undefined, { cause: err });
    throw err;
  }
  const raw = secret.data?.[key];
  if (raw === undefined) throw new ConfigurationError('ResolveTarget', 'SecretKeyNotFound', `${what}: secret ${namespace}/${name} has no key "${key}"`);
  return Buffer.from(raw, 'base64').toString('utf8');
}

/** The resolved content of a Target (upstream ResolvedTarget.Content). */
export async function resolveTargetContent(client: KubeClient, target: Target): Promise<AnyJSON> {
  const namespace = target.metadata.namespace ?? '';
  const what = `target ${namespace}/${target.metadata.name}`;
  if (target.spec.secretRef) {
    const ref = target.spec.secretRef;
    const text = await secretValue(client, namespace, ref.name, ref.key ?? DEFAULT_KUBECONFIG_KEY, what);
    try {
      return parseYaml(text);
    } catch (err) {
      throw new ConfigurationError('ResolveTarget', 'InvalidTargetContent', `${what}: secret content is not YAML/JSON`, undefined, { cause: err });
    }
  }
  return target.spec.config ?? null;
}

/**
 * The kubeconfig text of a kubernetes-cluster Target, checked to be usable. Never log the result: it holds
 * credentials.
 */
export async function targetKubeconfig(client: KubeClient, target: Target): Promise<string> {
  const namespace = target.metadata.namespace ?? '';
  const what = `target ${namespace}/${target.metadata.name}`;
  if (target.spec.type !== TARGET_TYPE_KUBERNETES_CLUSTER) {
    throw new ConfigurationError('ResolveTarget', 'UnsupportedTargetType', `${what} has type "${target.spec.type}", expected "${TARGET_TYPE_KUBERNETES_CLUSTER}"`);
  }
  const content = await resolveTargetContent(client, target);
  const text = await kubeconfigText(client, content, namespace, what);
  checkKubeconfig(text, what);
  return text;
}

async function kubeconfigText(client: KubeClient, content: AnyJSON, namespace: string, what: string): Promise<string> {
  const kubeconfig = typeof content === 'object' && content !== null && !Array.isArray(content) ? content['kubeconfig'] : undefined;
  if (typeof kubeconfig === 'string' && kubeconfig !== '') return kubeconfig;
  if (typeof kubeconfig === 'object' && kubeconfig !== null && !Array.isArray(kubeconfig)) {
    const ref = kubeconfig['secretRef'];
    if (typeof ref === 'object' && ref !== null && !Array.isArray(ref) && typeof ref['name'] === 'string') {
      const ns = typeof ref['namespace'] === 'string' && ref['namespace'] !== '' ? ref['namespace'] : namespace;
      const key = typeof ref['key'] === 'string' && ref['key'] !== '' ? ref['key'] : DEFAULT_KUBECONFIG_KEY;
      return secretValue(client, ns, ref['name'], key, what);
    }
  }
  throw new ConfigurationError('ResolveTarget', 'InvalidTargetContent', `${what} has no kubeconfig (config.kubeconfig as text or {secretRef})`);
}
