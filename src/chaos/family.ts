// The chaos controller family (DataDog's chaos-controller): the Disruption API, its admission webhooks (and the
// chaos handler's pod webhook for onInit disruptions), and the Disruption controller that runs chaos pods on the
// targets' nodes; the node agent runs them with Bosun's injector (`bosun inject`).
import { chaosDashboardView } from './tree/dashboard-view.ts';
import type { Family, PolicyRule } from '../runtime/index.ts';
import { CHAOS_GROUP } from './api/constants.ts';
import { CHART_CHAOS_CONFIG, DEFAULT_CHAOS_CONFIG, type ChaosConfig } from './config.ts';
import { registerDisruptionController, type DisruptionControllerOptions } from './controller/index.ts';
import { chaosNamespaceRunnable } from './chaos-namespace.ts';
import { registerChaosWebhooks } from './webhook/index.ts';

/**
 * Webhooks: they list pods and nodes (the countTooLarge net, the finalizer guard) and get the Services a network
 * disruption names. Controller: disruptions (watched, finalizer by patch, deleted when expired or delete-only),
 * their status; pods everywhere (targets read and watched; chaos pods created, deleted, their finalizer
 * removed by patch; a deleted disruption's deleted in one request); nodes read and watched (node-level targets); Events on disruptions and targets.
 */
const rbac: readonly PolicyRule[] = [
  { apiGroups: [CHAOS_GROUP], resources: ['disruptions'], verbs: ['get', 'list', 'watch', 'patch', 'delete'] },
  { apiGroups: [CHAOS_GROUP], resources: ['disruptions/status'], verbs: ['update'] },
  { apiGroups: [CHAOS_GROUP], resources: ['disruptions/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'patch'] },
  { apiGroups: [''], resources: ['pods/finalizers'], verbs: ['update'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['services'], verbs: ['get'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  // The chaos namespace, made at start when missing, labelled privileged (Pod Security) when it has no enforce label.
  { apiGroups: [''], resources: ['namespaces'], verbs: ['create', 'get', 'patch'] },
  // The injector's ServiceAccount there, made at start: a pod's ServiceAccount must exist.
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create'] },
];

export function chaosFamilyWith(config: ChaosConfig = DEFAULT_CHAOS_CONFIG, controller: Omit<DisruptionControllerOptions, 'config'> = {}): Family {
  return {
    name: 'chaos',
    groups: [CHAOS_GROUP],
    crds: [`disruptions.${CHAOS_GROUP}`],
    rbac,
    views: [chaosDashboardView(config.chaosNamespace)],
    register: (mgr, env) => {
      mgr.add(chaosNamespaceRunnable(mgr.client, config.chaosNamespace, mgr.log, config.injector.serviceAccount));
      if (env.webhooks) registerChaosWebhooks(env.webhooks, mgr.client, config);
      registerDisruptionController(mgr, { ...controller, config });
    },
  };
}

/** As Bosun ships it: upstream's chart values (CHART_CHAOS_CONFIG). */
export const chaosFamily: Family = chaosFamilyWith(CHART_CHAOS_CONFIG);
