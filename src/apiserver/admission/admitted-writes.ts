// The HTTP API's writes: the registry's write sequence (registry/write-sequence.ts) with the webhook dispatcher
// plugged in as its admission hooks, for the types any webhook configuration may apply to, and PodSecurity as its
// built-in validation. Here admission's side
// of the contract: the request as webhooks see it (AdmissionAttributes, metav1 options), and what a mutating
// webhook may not change. Writes made by the server's own controllers do not come through here.
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { UserInfo } from '../auth/user-info.ts';
import type { AdmissionHooks, AdmissionRequest, BuiltinValidation } from '../registry/admission-hooks.ts';
import type { ObjectService } from '../registry/object-service.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { createSteps, deleteSteps, runAwaiting, updateSteps } from '../registry/write-sequence.ts';
import type { CreateOptions, DeleteOptions, DeleteResult, UpdateOptions, WriteOptions, WriteResult } from '../registry/write-types.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import type { PodSecurityAdmission } from './pod-security/pod-security-admission.ts';
import { admitClaimLimits, admitPodLimits } from './limit-ranger.ts';
import { admitPodServiceAccount } from './service-account-admission.ts';
import type { AdmissionAttributes, MutationResult, WebhookDispatcher } from './webhook-dispatcher.ts';

/** The namespace admission reports: a Namespace object's own name, else the request's (cluster-scoped: none). */
function admissionNamespace(type: ResourceType, namespace: string, name: string): string {
  if (!type.custom && type.group === '' && type.plural === 'namespaces') return name;
  return type.namespaced ? namespace : '';
}

/** metav1 CreateOptions/UpdateOptions as the webhook receives them (`options`). */
function writeOptionsObject(kind: 'CreateOptions' | 'UpdateOptions', options: WriteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (options.dryRun) out['dryRun'] = ['All'];
  if (options.fieldManager) out['fieldManager'] = options.fieldManager;
  if (options.fieldValidation) out['fieldValidation'] = options.fieldValidation;
  return out;
}

function deleteOptionsObject(options: DeleteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (options.preconditions) out['preconditions'] = options.preconditions;
  if (options.propagationPolicy) out['propagationPolicy'] = options.propagationPolicy;
  if (options.dryRun) out['dryRun'] = ['All'];
  return out;
}

function attributesOf(request: AdmissionRequest): AdmissionAttributes {
  const { user, operation, type, subresource, name, namespace, object, oldObject, options } = request;
  return {
    user,
    type,
    operation,
    subresource,
    name,
    namespace: admissionNamespace(type, namespace, name),
    object,
    oldObject,
    dryRun: options.dryRun === true,
    options: operation === 'DELETE' ? deleteOptionsObject(options) : writeOptionsObject(operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions', options),
  };
}

/**
 * What a mutating webhook may not change: the kind, and the name and namespace the request addressed
 * (kube-apiserver answers these with the same errors when a webhook tries).
 */
function assertSameIdentity(type: ResourceType, before: KubeObject, after: KubeObject): void {
  after.apiVersion ??= before.apiVersion;
  after.kind ??= before.kind;
  if (after.apiVersion !== before.apiVersion) {
    throw errors.badRequest(`the API version in the data (${String(after.apiVersion)}) does not match the expected API version (${String(before.apiVersion)})`);
  }
  if (after.kind !== before.kind) throw errors.badRequest(`the kind in the data (${String(after.kind)}) does not match the expected kind (${String(before.kind)})`);
  if (type.namespaced && (after.metadata.namespace ?? '') !== (before.metadata.namespace ?? '')) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const name = before.metadata.name;
  if (name && after.metadata.name !== name) {
    throw errors.invalid(type.kind, type.group, name, [
      { reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: ${JSON.stringify(after.metadata.name ?? '')}: field is immutable` },
    ]);
  }
}

/** The webhook dispatcher as the registry's admission hooks. */
function webhookHooks(dispatcher: WebhookDispatcher): AdmissionHooks {
  return {
    async mutate(request): Promise<MutationResult> {
      const before = request.object && structuredClone(request.object);
      const mutation = await dispatcher.mutate(attributesOf(request));
      if (before && mutation.object && mutation.object !== request.object) assertSameIdentity(request.type, before, mutation.object);
      return mutation;
    },
    validate: (request) => dispatcher.validate(attributesOf(request)),
  };
}

export class AdmittedWrites {
  private readonly objects: ObjectService;
  private readonly dispatcher: WebhookDispatcher;
  private readonly hooks: AdmissionHooks;
  private readonly podSecurity: PodSecurityAdmission;
  /**
   * Brings a namespace's default ServiceAccount into being now, if the server's controller has not yet: a pod
   * created right after its namespace must not race that controller.
   */
  ensureDefaultServiceAccount: (namespace: string) => void = () => undefined;

  constructor(objects: ObjectService, dispatcher: WebhookDispatcher, podSecurity: PodSecurityAdmission) {
    this.objects = objects;
    this.dispatcher = dispatcher;
    this.hooks = webhookHooks(dispatcher);
    this.podSecurity = podSecurity;
  }

  /** PodSecurity for the kinds it evaluates (pods, pod templates, namespaces); none for the rest. */
  private builtinFor(type: ResourceType): BuiltinValidation | undefined {
    return this.podSecurity.applies(type) ? this.podSecurity : undefined;
  }

  /** The hooks for a type no webhook configuration can apply to are none: its writes then run synchronously. */
  private hooksFor(type: ResourceType): AdmissionHooks | undefined {
    return this.dispatcher.applies(type) ? this.hooks : undefined;
  }

  /**
   * `user` is the request's: who admission, the webhooks and the RBAC kinds' guards see. `body` becomes the
   * write's own (the request's freshly decoded body): it is changed in place, not copied.
   */
  create(user: UserInfo, type: ResourceType, namespace: string, body: unknown, options: CreateOptions, userAgent: string | undefined): Promise<WriteResult> {
    // Built-in mutating admission runs before the webhooks, as kube-apiserver orders its plugins.
    // LimitRanger, then ServiceAccount: kube-apiserver's plugin order.
    if (!type.custom && type.group === '' && type.plural === 'pods') {
      admitPodLimits(this.objects.store, namespace, body);
      this.ensureDefaultServiceAccount(namespace);
      admitPodServiceAccount(this.objects.store, namespace, body);
    }
    if (!type.custom && type.group === '' && type.plural === 'persistentvolumeclaims') admitClaimLimits(this.objects.store, namespace, body);
    return runAwaiting(createSteps(this.objects, user, type, namespace, body, options, userAgent, this.hooksFor(type), this.builtinFor(type)));
  }

  /** Update and patch: `candidate` computes the wanted object from the current one, again after a stale write. */
  update(
    user: UserInfo,
    type: ResourceType,
    subresource: 'status' | 'finalize' | undefined,
    options: UpdateOptions,
    candidate: () => { current: StoredObject; next: KubeObject },
  ): Promise<WriteResult> {
    return runAwaiting(updateSteps(this.objects, user, type, subresource, options, candidate, this.hooksFor(type), this.builtinFor(type)));
  }

  delete(user: UserInfo, type: ResourceType, namespace: string, name: string, options: DeleteOptions): Promise<DeleteResult & { warnings: string[] }> {
    return runAwaiting(deleteSteps(this.objects, user, type, namespace, name, options, this.hooksFor(type)));
  }
}
