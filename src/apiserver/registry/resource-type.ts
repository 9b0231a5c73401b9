// What the server knows about one served resource (one group/version/plural), built-in or from a CRD.
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import type { UserInfo } from '../auth/user-info.ts';
import type { PrinterColumn } from '../table/table.ts';

/** A CRD version's compiled openAPIV3Schema: pruning, defaulting and validation of custom resources. */
export interface CustomResourceSchema {
  applyDefaults(object: unknown): void;
  /** Removes fields the schema does not know; returns their paths (e.g. `spec.foo`). */
  prune(object: unknown): string[];
  unknownFields(object: unknown): string[];
  /** `old` is the stored object on an update (transition rules and ratcheting). */
  validate(object: unknown, old?: unknown): StatusCause[];
}

/** How metadata.name is validated: Services take DNS-1035 labels (their names become DNS names and env variables). */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

/** A subresource besides status and finalize (pods/binding, pods/log, deployments/scale, serviceaccounts/token…), as discovery lists it. */
export interface SubresourceInfo {
  readonly name: 'binding' | 'eviction' | 'scale' | 'log' | 'exec' | 'attach' | 'portforward' | 'token';
  /** The group, version and kind of what the subresource takes and answers (Binding, policy/v1 Eviction, autoscaling/v1 Scale). */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly verbs: readonly string[];
}

export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly string[];
  /** Whether `/status` is a subresource (spec and status then written separately). */
  readonly statusSubresource: boolean;
  /** Subresources served by their own handlers (src/apiserver/handlers/subresources.ts). */
  readonly subresources?: readonly SubresourceInfo[];
  /** Whether metadata.generation is kept and bumped on changes outside metadata and status. */
  readonly tracksGeneration: boolean;
  /** Built-ins accept strategic-merge patches; custom resources answer 415. */
  readonly strategicMerge: boolean;
  readonly nameRule: NameRule;
  /** Field selector keys beyond metadata.name / metadata.namespace. */
  readonly fieldSelectors: Readonly<Record<string, (object: KubeObject) => string | undefined>>;
  /** Fields kept by the server on main-resource writes besides status (e.g. Namespace status.phase). */
  readonly custom: boolean;
  /** Set for CRD-backed types: the CRD's name. */
  readonly crdName?: string;
  /** For custom resources: the schema of this version. */
  readonly customSchema?: CustomResourceSchema;
  /** For custom resources: the CRD version that storage holds (objects are converted with strategy None). */
  readonly storageVersion?: string;
  /** For custom resources: additionalPrinterColumns of this version (Table output). */
  readonly printerColumns?: readonly PrinterColumn[];
  /** For custom resources: the raw openAPIV3Schema, served in OpenAPI v3 documents. */
  readonly openApiSchema?: Record<string, unknown>;
  /**
   * Type-specific conversion of a written object into the form the server keeps, as kube-apiserver's conversion
   * to the internal version does (Secret: stringData merged into data). Runs before admission; may throw BadRequest.
   */
  decode?(object: KubeObject): void;
  /** A version that is not the stored form: how it shows a stored object (autoscaling/v1 HorizontalPodAutoscaler). */
  present?(stored: KubeObject): KubeObject;
  /** Type-specific checks on create/update; the generic metadata checks run first. */
  validate?(object: KubeObject, old: KubeObject | undefined): StatusCause[];
  /** Namespaces: `spec.finalizers` also hold deletion back. */
  readonly specFinalizers?: boolean;
  /** Type-specific changes when deletion starts (Namespace: phase Terminating). */
  prepareForDelete?(object: KubeObject): void;
  /**
   * Kinds deleted gracefully (pods: CheckGracefulDelete): the seconds the object stays, marked, before it may be
   * removed, given the grace period the request asked for; 0 removes it at once.
   */
  gracefulDeletePeriod?(object: KubeObject, requested: number | undefined): number;
  /** Review-style resources (SelfSubjectAccessReview…): answered on create for `user`, never stored. */
  review?(object: KubeObject, user: UserInfo): KubeObject | Promise<KubeObject>;
  /** Type-specific defaults on update. */
  prepareForUpdate?(object: KubeObject, old: KubeObject): void;
  /** Type-specific defaults on create. */
  prepareForCreate?(object: KubeObject): void;
  /**
   * Checks of who writes (the RBAC kinds' escalation and bind prevention): after prepareForCreate, or
   * prepareForUpdate on the main resource; throws Forbidden. `user` is the request's, or serverSelf.
   */
  guardWrite?(object: KubeObject, user: UserInfo): void;
  /**
   * Takes what the object needs from what is stored (a Service's ClusterIP and NodePorts) as the write is stored:
   * run synchronously with the store's write, after admission, so no other write comes between the choice and
   * the commit. `others` are the other stored objects of the type; throws Invalid for a taken value.
   */
  allocate?(object: KubeObject, old: KubeObject | undefined, others: readonly KubeObject[]): void;
}

/** The storage key: one per group+plural, shared by every served version. */
export function storageKey(type: { group: string; plural: string }): string {
  return `${type.group}/${type.plural}`;
}

export function groupResource(type: ResourceType): { group: string; resource: string } {
  return { group: type.group, resource: type.plural };
}
