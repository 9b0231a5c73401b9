// What a controller family is to the process that runs it: a name to select it by, the API groups and
// CustomResourceDefinitions it owns, the controllers and admission webhooks it registers, and the RBAC rules
// they need. A family stands on the runtime; the runtime knows no family. The list of families Bosun ships
// lives with the CLI (src/cli/families.ts), which derives --controllers, `bosun manifests` and the CRDs
// `bosun up` installs from it.
import type { Manager } from './manager.ts';
import type { DashboardView } from './view/dashboard-view.ts';
import type { AdmissionWebhooks } from './webhook/index.ts';

/** What a family gets besides the manager. */
export interface FamilyEnvironment {
  /**
   * Present when this process serves admission webhooks: the family registers its handlers and
   * configurations there, labelled with the family's name as their component (what pruning selects by).
   */
  webhooks?: AdmissionWebhooks;
}

/** The verbs of an RBAC rule (rbac.authorization.k8s.io/v1), as the API server names requests. */
export type PolicyVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** One rule of an RBAC Role or ClusterRole: the verbs allowed on the resources of the groups. */
export interface PolicyRule {
  /** '' is the core group. */
  readonly apiGroups: readonly string[];
  /** Plural names; a subresource is written "plural/subresource" (a plain name does not cover it). */
  readonly resources: readonly string[];
  readonly verbs: readonly PolicyVerb[];
  /** Only these objects (RBAC cannot restrict create, list, watch or deletecollection by name). */
  readonly resourceNames?: readonly string[];
}

export interface Family {
  /** What `--controllers` and `bosun manifests --family` select it by. */
  readonly name: string;
  /** The API groups whose kinds the family defines. */
  readonly groups: readonly string[];
  /** Its CustomResourceDefinitions by name (`<plural>.<group>`, in one of its groups), each a manifest in crds/. */
  readonly crds: readonly string[];
  /**
   * Every request its controllers and webhooks make to the cluster they run against. What a deployer does in
   * a target cluster is authorized by the target's own credentials, and leader election by the manager's.
   */
  readonly rbac: readonly PolicyRule[];
  /**
   * The family stands in for a part of a real cluster (kube-scheduler, kube-controller-manager, a kubelet): it
   * runs by default only on Bosun's embedded control plane, and against a real cluster only when selected by name.
   */
  readonly embeddedOnly?: boolean;
  /** Its views in the web dashboard (`bosun up`, `bosun dashboard`), whether or not its controllers run here. */
  readonly views?: readonly DashboardView[];
  /** Adds its controllers to the manager, and its admission webhooks to env.webhooks when given. */
  register(mgr: Manager, env: FamilyEnvironment): void;
}
