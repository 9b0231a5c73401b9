// The Secrets a Target's content comes from (spec.secretRef, or config.kubeconfig.secretRef of a kubernetes-cluster
// Target), as the deployer contract reads them. A Target marks each with the label landscaper.gardener.cloud/in-use,
// so that the Secret protection watches only marked Secrets (never all of a cluster's Secrets) and keeps them
// while a Target needs them; an unused one is unmarked.
import type { KubeObject } from '../../apimachinery/object.ts';
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { removeFinalizer } from '../../runtime/index.ts';
import { IN_USE_FINALIZER, IN_USE_LABEL } from '../api/constants.ts';
import type { Target } from '../api/target.ts';
import { isObject } from '../yaml.ts';

/** "<namespace>/<name>" of the Secrets in the Target's own namespace that it reads. */
export function targetSecretKeys(target: Target): string[] {
  const ns = target.metadata.namespace ?? '';
  const names = new Set<string>();
  if (target.spec.secretRef?.name) names.add(target.spec.secretRef.name);
  const config = target.spec.config;
  const kubeconfig = isObject(config) ? config['kubeconfig'] : undefined;
  const ref = isObject(kubeconfig) ? kubeconfig['secretRef'] : undefined;
  if (isObject(ref) && typeof ref['name'] === 'string' && ref['name'] !== '') {
    // A Secret of another namespace is not deleted with this one; only the Target's own are held.
    const refNs = typeof ref['namespace'] === 'string' && ref['namespace'] !== '' ? ref['namespace'] : ns;
    if (refNs === ns) names.add(ref['name']);
  }
  return [...names].sort().map((name) => `${ns}/${name}`);
}

/** Marks a Secret for the Secret protection; a Secret that does not exist (yet) is left to the deployer's error. */
export async function markSecret(client: KubeClient, key: string): Promise<void> {
  const [namespace = '', name = ''] = key.split('/');
  try {
    await client.patch(secretsResource, name, { metadata: { labels: { [IN_USE_LABEL]: 'true' } } }, { type: 'merge', namespace });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/** No Target needs the Secret: its finalizer and mark go. */
export async function releaseSecret(secret: KubeObject, client: KubeClient): Promise<void> {
  await removeFinalizer(client, secretsResource, secret, IN_USE_FINALIZER);
  try {
    await client.patch(secretsResource, secret.metadata.name ?? '', { metadata: { labels: { [IN_USE_LABEL]: null } } }, { type: 'merge', namespace: secret.metadata.namespace ?? '' });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
