// kube-controller-manager's clusterrole-aggregation controller: a ClusterRole with an aggregationRule holds the
// union of the rules of every other ClusterRole its selectors match, kept so as roles come, change and go.
import { fromLabelSelectorObject, matchesLabels } from '../../apimachinery/label-selector.ts';
import { CLUSTER_ROLES, type ClusterRole, type RbacPolicyRule } from '../../apimachinery/rbac.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

export class ClusterRoleAggregationController extends ServerController {
  constructor(parts: ServerParts) {
    super(parts);
    this.enqueueAggregated();
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    if (event.resource === CLUSTER_ROLES) this.enqueueAggregated();
  }

  private enqueueAggregated(): void {
    for (const stored of this.store.list(CLUSTER_ROLES)) if ((stored.object as ClusterRole).aggregationRule) this.queue.add(stored.object.metadata.name ?? '');
  }

  protected process(name: string): void {
    const type = this.registry.byStorageKey(CLUSTER_ROLES)!;
    const stored = this.objects.find(type, '', name);
    const selectors = (stored?.object as ClusterRole | undefined)?.aggregationRule?.clusterRoleSelectors;
    if (!stored || !selectors) return;
    const parsed = selectors.map((s) => fromLabelSelectorObject(s));
    const others = this.store
      .list(CLUSTER_ROLES)
      .map((s) => s.object as ClusterRole)
      .filter((role) => role.metadata.name !== name && parsed.some((selector) => matchesLabels(selector, role.metadata.labels)))
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    const seen = new Set<string>();
    const rules: RbacPolicyRule[] = [];
    for (const rule of others.flatMap((role) => role.rules ?? [])) {
      const key = JSON.stringify(rule);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(rule);
    }
    if (JSON.stringify((stored.object as ClusterRole).rules ?? []) === JSON.stringify(rules)) return;
    this.objects.mutate(type, stored, (o) => ((o as ClusterRole).rules = rules));
  }
}
