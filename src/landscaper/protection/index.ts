// In-use protection (see ./in-use.ts) of what the deployer contract reads when it uninstalls a deploy item: the
// item's Target and Context, and the Secrets that Target's kubeconfig comes from. None goes before what uses it.
import type { KubeObject } from '../../apimachinery/object.ts';
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import type { Manager } from '../../runtime/index.ts';
import { hasFinalizer } from '../../runtime/index.ts';
import { DEFAULT_CONTEXT_NAME, IN_USE_FINALIZER, IN_USE_LABEL, KIND_INSTALLATION } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { contextsResource, deployItemsResource, targetsResource } from '../api/resources.ts';
import type { Target } from '../api/target.ts';
import { registerInUseProtection, type InUseUsers } from './in-use.ts';
import { markSecret, releaseSecret, targetSecretKeys } from './secrets.ts';

export { registerInUseProtection, type InUseKind, type InUseUsers } from './in-use.ts';

/** The deployers look the Target and the Context up in the deploy item's own namespace. */
const inItemNamespace = (item: DeployItem, name: string | undefined): string[] => (name ? [`${item.metadata.namespace ?? ''}/${name}`] : []);

/** Import copies and exports the installations write: their deletion is ordered by the installations. */
const ownedByInstallation = (obj: KubeObject): boolean => (obj.metadata.ownerReferences ?? []).some((r) => r.kind === KIND_INSTALLATION);

const deployItemsUsing = (name: (item: DeployItem) => string | undefined): InUseUsers<DeployItem> => ({
  resource: deployItemsResource,
  what: 'deploy items',
  uses: (item) => inItemNamespace(item, name(item)),
});

export function registerProtection(mgr: Manager): void {
  const marked = { labelSelector: `${IN_USE_LABEL}=true` };
  const markedSecrets = mgr.informer(secretsResource, marked);
  registerInUseProtection(mgr, {
    name: 'landscaper-target-protection',
    kind: 'Target',
    resource: targetsResource,
    users: deployItemsUsing((item) => item.spec.target?.name),
    managed: ownedByInstallation,
    protectAlso: async (target: KubeObject, client: KubeClient) => {
      for (const key of targetSecretKeys(target as Target)) {
        const cached = markedSecrets.store.get(key);
        if (cached === undefined || !hasFinalizer(cached, IN_USE_FINALIZER)) await markSecret(client, key);
      }
    },
  });
  registerInUseProtection(mgr, {
    name: 'landscaper-context-protection',
    kind: 'Context',
    resource: contextsResource,
    users: deployItemsUsing((item) => item.spec.context || DEFAULT_CONTEXT_NAME),
  });
  registerInUseProtection<Target>(mgr, {
    name: 'landscaper-secret-protection',
    kind: 'Secret',
    resource: secretsResource,
    filter: marked,
    users: { resource: targetsResource, what: 'Targets', uses: targetSecretKeys },
    release: releaseSecret,
  });
}
