// The chaos controller family (DataDog's chaos-controller): so far the Disruption API and its admission
// webhooks. The controller, the chaos pods and the injector come next; until then the family is not in the
// list Bosun ships (src/cli/families.ts).
import type { Family, PolicyRule } from '../runtime/family.ts';
import { CHAOS_GROUP } from './api/constants.ts';
import { DEFAULT_CHAOS_CONFIG, type ChaosConfig } from './config.ts';
import { registerChaosWebhooks } from './webhook/index.ts';

/**
 * What the webhooks read: pods (the countTooLarge net counts pods in the namespace and the cluster, and the
 * finalizer guard lists a disruption's chaos pods), nodes (the net at node level) and the Services a network
 * disruption names. They write nothing.
 */
const rbac: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['list'] },
  { apiGroups: [''], resources: ['services'], verbs: ['get'] },
];

export function chaosFamilyWith(config: ChaosConfig = DEFAULT_CHAOS_CONFIG): Family {
  return {
    name: 'chaos',
    groups: [CHAOS_GROUP],
    crds: [`disruptions.${CHAOS_GROUP}`],
    rbac,
    register: (mgr, env) => {
      if (env.webhooks) registerChaosWebhooks(env.webhooks, mgr.client, config);
    },
  };
}

export const chaosFamily: Family = chaosFamilyWith();
