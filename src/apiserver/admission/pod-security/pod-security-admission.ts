// The PodSecurity admission plugin of kube-apiserver (k8s.io/pod-security-admission/admission): a Namespace's
// pod-security.kubernetes.io labels (or the cluster default) choose, per mode, a level of the Pod Security
// Standards. enforce refuses a pod that violates it (403, kube's message); warn answers Warning headers; audit
// reports through onAudit (Bosun keeps no audit log). Pod templates of workloads are only warned and audited:
// their pods are refused when created. Namespace writes get their labels validated, and tightening enforce
// warns about the pods already there that would now be refused.
import type { AdmissionOperation } from '../../../apimachinery/admission-review.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import { errors } from '../../../apimachinery/status-error.ts';
import type { ResourceType } from '../../registry/resource-type.ts';
import type { SqliteStore } from '../../storage/sqlite-store.ts';
import { admissionForbidden } from '../admission-errors.ts';
import { evaluatePod } from './evaluator.ts';
import { objects, text, type PodParts } from './pod-fields.ts';
import { hasPodTemplate, isNamespace, isPod, podParts, templateParts } from './pod-spec-source.ts';
import {
  AUDIT_VIOLATIONS_ANNOTATION,
  compareLevels,
  defaultPolicy,
  ENFORCE_POLICY_ANNOTATION,
  fullyPrivileged,
  levelVersionString,
  policyFromLabels,
  type Level,
  type LevelVersion,
  type Policy,
} from './policy-levels.ts';

/** A write as the plugin sees it: after defaulting and validation, before it is stored. */
export interface PodSecurityRequest {
  readonly type: ResourceType;
  readonly operation: AdmissionOperation;
  /** `''` for the main resource. */
  readonly subresource: string;
  readonly object: KubeObject;
  readonly oldObject: KubeObject | undefined;
}

/** What audit mode records about one request (kube: the audit event's annotations). */
export interface PodSecurityAuditEvent {
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly operation: AdmissionOperation;
  readonly annotations: Readonly<Record<string, string>>;
}

export interface PodSecurityOptions {
  /** The level of every mode for namespaces without labels (kube's AdmissionConfiguration defaults). */
  readonly defaultLevel: Level;
  readonly onAudit?: (event: PodSecurityAuditEvent) => void;
}

/** Pod subresources whose writes cannot change what the checks read. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);
/** kube checks at most this many existing pods when enforce is tightened. */
const MAX_PODS_TO_CHECK = 3000;

/** Only images (and new ephemeral containers) can change in a pod's spec after creation: other updates pass. */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = podParts(pod).spec;
  const oldSpec = podParts(old).spec;
  for (const field of ['containers', 'initContainers'] as const) {
    const now = objects(spec[field]);
    const before = objects(oldSpec[field]);
    if (now.length !== before.length || now.some((c, i) => c['image'] !== before[i]?.['image'])) return true;
  }
  const oldEphemeral = new Map(objects(oldSpec['ephemeralContainers']).map((c) => [text(c['name']), c]));
  return objects(spec['ephemeralContainers']).some((c) => oldEphemeral.get(text(c['name']))?.['image'] !== c['image']);
}

function templateJson(type: ResourceType, object: KubeObject | undefined): string {
  return object ? JSON.stringify(templateParts(type, object) ?? null) : '';
}

export class PodSecurityAdmission {
  private readonly store: SqliteStore;
  private readonly defaults: Policy;
  private readonly onAudit: PodSecurityOptions['onAudit'];

  constructor(store: SqliteStore, options: PodSecurityOptions) {
    this.store = store;
    this.defaults = defaultPolicy(options.defaultLevel);
    this.onAudit = options.onAudit;
  }

  applies(type: ResourceType): boolean {
    return isPod(type) || isNamespace(type) || hasPodTemplate(type);
  }

  /** Throws the refusal (403 Forbidden, or 422 for bad namespace labels); returns the warnings to answer with. */
  validate(request: PodSecurityRequest): string[] {
    const { type, operation, subresource } = request;
    if (operation !== 'CREATE' && operation !== 'UPDATE') return [];
    if (isNamespace(type)) return subresource === '' ? this.validateNamespace(request) : [];
    if (isPod(type)) {
      if (IGNORED_POD_SUBRESOURCES.has(subresource)) return [];
      if (operation === 'UPDATE' && request.oldObject && !significantPodUpdate(request.object, request.oldObject)) return [];
      return this.evaluate(request, podParts(request.object), true);
    }
    if (subresource !== '' || !hasPodTemplate(type)) return [];
    // Deviation: kube evaluates every update of a workload; an update that leaves the template alone (a scale, a
    // label) is not evaluated again here, as Bosun's scale subresource writes the main resource.
    if (operation === 'UPDATE' && templateJson(type, request.object) === templateJson(type, request.oldObject)) return [];
    const template = templateParts(type, request.object);
    return template ? this.evaluate(request, template, false) : [];
  }

  private namespacePolicy(namespace: string): { policy: Policy; invalid: string | undefined } {
    const labels = this.store.get('/namespaces', '', namespace)?.object.metadata.labels;
    const { policy, causes } = policyFromLabels(labels, this.defaults);
    return { policy, invalid: causes.length > 0 ? causes.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`).join(', ') : undefined };
  }

  /** Admission.EvaluatePod: enforce (pods only), then audit and warn, reusing a verdict for the same level and version. */
  private evaluate(request: PodSecurityRequest, pod: PodParts, enforce: boolean): string[] {
    const namespace = request.object.metadata.namespace ?? '';
    const { policy, invalid } = this.namespacePolicy(namespace);
    if (enforce ? !invalid && fullyPrivileged(policy) : !invalid && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return [];
    const verdicts = new Map<string, ReturnType<typeof evaluatePod>>();
    const verdict = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let known = verdicts.get(key);
      if (!known) verdicts.set(key, (known = evaluatePod(lv, pod)));
      return known;
    };
    const annotations: Record<string, string> = {};
    if (invalid) annotations['error'] = `Failed to parse policy: ${invalid}`;
    const name = request.object.metadata.name ?? '';
    let refusal: Error | undefined;
    if (enforce) {
      annotations[ENFORCE_POLICY_ANNOTATION] = levelVersionString(policy.enforce);
      const result = verdict(policy.enforce);
      if (result.reasons.length > 0) {
        refusal = admissionForbidden({ group: request.type.group, resource: request.type.plural }, name, `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${result.detail}`);
      }
    }
    const audit = verdict(policy.audit);
    if (audit.reasons.length > 0) {
      annotations[AUDIT_VIOLATIONS_ANNOTATION] = `would violate PodSecurity ${JSON.stringify(levelVersionString(policy.audit))}: ${audit.detail}`;
      this.onAudit?.({ resource: request.type.plural, namespace, name, operation: request.operation, annotations });
    }
    if (refusal) throw refusal;
    const warn = verdict(policy.warn);
    return warn.reasons.length > 0 ? [`would violate PodSecurity ${JSON.stringify(levelVersionString(policy.warn))}: ${warn.detail}`] : [];
  }

  /** Admission.ValidateNamespace: labels must parse; a tightened enforce level is tried on the pods already there. */
  private validateNamespace(request: PodSecurityRequest): string[] {
    const name = request.object.metadata.name ?? '';
    const { policy, causes } = policyFromLabels(request.object.metadata.labels, this.defaults);
    if (request.operation === 'CREATE' || !request.oldObject) {
      if (causes.length > 0) throw errors.invalid('Namespace', '', name, causes);
      return [];
    }
    const old = policyFromLabels(request.oldObject.metadata.labels, this.defaults);
    if (causes.length > 0 && (old.causes.length === 0 || JSON.stringify(causes) !== JSON.stringify(old.causes))) throw errors.invalid('Namespace', '', name, causes);
    const next = policy.enforce;
    const before = old.policy.enforce;
    if (next.level === before.level && next.version === before.version) return [];
    if (next.level === 'privileged') return [];
    if (next.version === before.version && compareLevels(next.level, before.level) < 1) return [];
    return this.existingPodWarnings(name, next);
  }

  /** EvaluatePodsInNamespace: one warning per distinct set of failed checks, naming the first pod and how many more. */
  private existingPodWarnings(namespace: string, enforce: LevelVersion): string[] {
    const pods = this.prioritised(this.store.list('/pods', namespace).map((s) => s.object));
    const checked = pods.slice(0, MAX_PODS_TO_CHECK);
    const byReasons = new Map<string, { first: string; count: number }>();
    for (const pod of checked) {
      const reasons = evaluatePod(enforce, podParts(pod)).reasons.join(', ');
      if (!reasons) continue;
      const podName = pod.metadata.name ?? '';
      const seen = byReasons.get(reasons);
      if (!seen) byReasons.set(reasons, { first: podName, count: 1 });
      else {
        seen.count += 1;
        if (podName < seen.first) seen.first = podName;
      }
    }
    const warnings: string[] = [];
    if (checked.length < pods.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${pods.length} existing pods`);
    if (byReasons.size > 0) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`);
    const podWarnings = [...byReasons].map(([reasons, { first, count }]) => {
      const others = count === 1 ? '' : count === 2 ? ' (and 1 other pod)' : ` (and ${count - 1} other pods)`;
      return `${first}${others}: ${reasons}`;
    });
    return [...warnings, ...podWarnings.sort()];
  }

  /** One pod per controller first, then the other replicas (prioritizePods). */
  private prioritised(pods: KubeObject[]): KubeObject[] {
    const first: KubeObject[] = [];
    const replicas: KubeObject[] = [];
    const seen = new Set<string>();
    for (const pod of pods) {
      const controller = (pod.metadata.ownerReferences ?? []).find((o) => o.controller === true);
      if (!controller) first.push(pod);
      else if (seen.has(controller.uid)) replicas.push(pod);
      else {
        seen.add(controller.uid);
        first.push(pod);
      }
    }
    return [...first, ...replicas];
  }
}

