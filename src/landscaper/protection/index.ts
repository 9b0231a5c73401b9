// In-use protection of Targets and Contexts (see ./in-use.ts): the deployer contract reads both when it
// uninstalls a deploy item, so neither goes before the items that use it.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Manager } from '../../runtime/manager.ts';
import { DEFAULT_CONTEXT_NAME, KIND_INSTALLATION } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { contextsResource, targetsResource } from '../api/resources.ts';
import { registerInUseProtection } from './in-use.ts';

export { registerInUseProtection, type InUseKind } from './in-use.ts';

/** The deployers look the Target and the Context up in the deploy item's own namespace. */
const inItemNamespace = (item: DeployItem, name: string | undefined): string | undefined =>
  name ? `${item.metadata.namespace ?? ''}/${name}` : undefined;

/** Import copies and exports the installations write: their deletion is ordered by the installations. */
const ownedByInstallation = (obj: KubeObject): boolean => (obj.metadata.ownerReferences ?? []).some((r) => r.kind === KIND_INSTALLATION);

export function registerProtection(mgr: Manager): void {
  registerInUseProtection(mgr, {
    name: 'landscaper-target-protection',
    kind: 'Target',
    resource: targetsResource,
    usedBy: (item) => inItemNamespace(item, item.spec.target?.name),
    managed: ownedByInstallation,
  });
  registerInUseProtection(mgr, {
    name: 'landscaper-context-protection',
    kind: 'Context',
    resource: contextsResource,
    usedBy: (item) => inItemNamespace(item, item.spec.context || DEFAULT_CONTEXT_NAME),
  });
}
