// The writes of the HTTP API with admission in the middle, in kube-apiserver's order: decode (custom resources:
// prune and default), mutating webhooks, the server's own defaulting and validation, the built-in validating
// admission (PodSecurity), validating webhooks, store.
// While webhooks are awaited the object may change; the write is then recomputed from the new object and
// admitted again (GuaranteedUpdate's retry). Without webhook configurations this is the synchronous path.
// Writes made by the server's own controllers (GC, namespace cleanup, CRD status) do not come through here.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { restrictToEndpoint } from '../registry/endpoint-restriction.ts';
import { maxNameGenerationAttempts, type DeleteOptions, type ObjectService, type PreparedWrite, type WriteOptions, type WriteResult } from '../registry/object-service.ts';
import { groupResource, type ResourceType } from '../registry/resource-type.ts';
import { StaleWriteError } from '../registry/stale-write-error.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import type { PodSecurityAdmission } from './pod-security/pod-security-admission.ts';
import type { AdmissionAttributes, WarningCarrier, WebhookDispatcher } from './webhook-dispatcher.ts';

/** Recomputing a write this often without getting it stored ends in 409 Conflict. */
const maxAttempts = 5;

export type UpdateOptions = WriteOptions & { userAgent?: string; skipManagedFields?: boolean };
export type CreateOptions = WriteOptions & { keepManagedFields?: boolean };

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

function merged(...lists: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const list of lists) for (const w of list) if (!out.includes(w)) out.push(w);
  return out;
}

/** Errors keep the warnings gathered so far, so the answer carries them as Warning headers. */
function carrying(error: unknown, warnings: readonly string[]): unknown {
  if (error instanceof StatusError && warnings.length > 0) {
    const carrier = error as StatusError & WarningCarrier;
    carrier.admissionWarnings = merged(warnings, carrier.admissionWarnings ?? []);
  }
  return error;
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

export class AdmittedWrites {
  private readonly objects: ObjectService;
  private readonly dispatcher: WebhookDispatcher;
  private readonly podSecurity: PodSecurityAdmission;

  constructor(objects: ObjectService, dispatcher: WebhookDispatcher, podSecurity: PodSecurityAdmission) {
    this.objects = objects;
    this.dispatcher = dispatcher;
    this.podSecurity = podSecurity;
  }

  /** The built-in validating admission of a prepared write: its warnings, or its refusal (with the warnings so far). */
  private validateBuiltin(prepared: PreparedWrite, subresource: string, oldObject: KubeObject | undefined): string[] {
    if (!this.podSecurity.applies(prepared.type)) return [];
    try {
      return this.podSecurity.validate({ type: prepared.type, operation: prepared.kind === 'create' ? 'CREATE' : 'UPDATE', subresource, object: prepared.object, oldObject });
    } catch (error) {
      throw carrying(error, prepared.warnings);
    }
  }

  async create(type: ResourceType, namespace: string, body: unknown, options: CreateOptions, userAgent: string | undefined): Promise<WriteResult> {
    if (!this.dispatcher.applies(type)) {
      const prepared = this.objects.prepareCreate(type, namespace, body, options, userAgent);
      const admitted = this.validateBuiltin(prepared, '', undefined);
      const result = this.objects.commit(prepared);
      return { json: result.json, warnings: merged(result.warnings, admitted) };
    }
    const object = this.objects.normalizeCreate(type, namespace, body);
    const name = object.metadata.name ?? '';
    this.objects.checkNamespace(type, namespace, name);
    const warnings: string[] = [];
    try {
      this.objects.decodeForAdmission(type, object, options, warnings);
      const attrs: AdmissionAttributes = {
        type,
        operation: 'CREATE',
        subresource: '',
        name,
        namespace: admissionNamespace(type, namespace, name),
        object,
        oldObject: undefined,
        dryRun: options.dryRun === true,
        options: writeOptionsObject('CreateOptions', options),
      };
      const before = structuredClone(object);
      const mutation = await this.dispatcher.mutate(attrs);
      warnings.push(...mutation.warnings);
      const mutated = mutation.object ?? object;
      assertSameIdentity(type, before, mutated);
      const generated = !mutated.metadata.name;
      for (let attempt = 1; ; attempt++) {
        const prepared = this.objects.prepareCreate(type, namespace, mutated, { ...options, fieldValidation: 'Ignore' }, userAgent);
        warnings.push(...this.validateBuiltin(prepared, '', undefined));
        warnings.push(...(await this.dispatcher.validate({ ...attrs, object: prepared.object })));
        try {
          const result = this.objects.commit(prepared);
          return { json: result.json, warnings: merged(warnings, result.warnings) };
        } catch (error) {
          // A generated name taken while the webhooks were awaited is generated again, as kube-apiserver retries (KEP-4420).
          const taken = error instanceof StatusError && error.reason === 'AlreadyExists';
          if (!generated || !taken || attempt >= maxNameGenerationAttempts) throw error;
        }
      }
    } catch (error) {
      throw carrying(error, warnings);
    }
  }

  /**
   * Update and patch: `candidate` computes the wanted object from the current one (and is called again when the
   * object changed while webhooks were awaited). Throws what it throws (NotFound, Conflict…).
   */
  async update(
    type: ResourceType,
    subresource: 'status' | 'finalize' | undefined,
    options: UpdateOptions,
    candidate: () => { current: StoredObject; next: KubeObject },
  ): Promise<WriteResult> {
    if (!this.dispatcher.applies(type)) {
      const { current, next } = candidate();
      const prepared = this.objects.prepareUpdate(type, current, next, options, subresource);
      const admitted = this.validateBuiltin(prepared, subresource ?? '', current.object);
      const result = this.objects.commit(prepared);
      return { json: result.json, warnings: merged(result.warnings, admitted) };
    }
    let name = '';
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const { current, next } = candidate();
      name = current.object.metadata.name ?? '';
      // Webhooks see a complete object even when a PUT body left out what the URL says.
      next.apiVersion ??= apiVersionOf(type);
      next.kind ??= type.kind;
      next.metadata.name ??= name;
      if (type.namespaced) next.metadata.namespace ??= current.object.metadata.namespace;
      const warnings: string[] = [];
      try {
        this.objects.decodeForAdmission(type, next, options, warnings);
        const attrs: AdmissionAttributes = {
          type,
          operation: 'UPDATE',
          subresource: subresource ?? '',
          name,
          namespace: admissionNamespace(type, current.object.metadata.namespace ?? '', name),
          object: next,
          oldObject: this.objects.view(type, current),
          dryRun: options.dryRun === true,
          options: writeOptionsObject('UpdateOptions', options),
        };
        const before = structuredClone(next);
        const mutation = await this.dispatcher.mutate(attrs);
        warnings.push(...mutation.warnings);
        let wanted = next;
        if (mutation.object && mutation.object !== next) {
          assertSameIdentity(type, before, mutation.object);
          wanted = restrictToEndpoint(type, current.object, mutation.object, subresource);
        }
        const prepared = this.objects.prepareUpdate(type, current, wanted, { ...options, fieldValidation: 'Ignore' }, subresource);
        warnings.push(...this.validateBuiltin(prepared, subresource ?? '', current.object));
        warnings.push(...(await this.dispatcher.validate({ ...attrs, object: prepared.object })));
        const result = this.objects.commit(prepared);
        return { json: result.json, warnings: merged(warnings, result.warnings) };
      } catch (error) {
        if (error instanceof StaleWriteError) continue;
        throw carrying(error, warnings);
      }
    }
    throw errors.conflict(groupResource(type), name);
  }

  async delete(type: ResourceType, namespace: string, name: string, options: DeleteOptions): Promise<{ json: string; deleted: boolean; warnings: string[] }> {
    if (!this.dispatcher.applies(type)) return { ...this.objects.delete(type, namespace, name, options), warnings: [] };
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const prepared = this.objects.prepareDelete(type, namespace, name, options);
      const warnings: string[] = [];
      try {
        const attrs: AdmissionAttributes = {
          type,
          operation: 'DELETE',
          subresource: '',
          name,
          namespace: admissionNamespace(type, namespace, name),
          object: undefined,
          oldObject: this.objects.view(type, prepared.current),
          dryRun: options.dryRun === true,
          options: deleteOptionsObject(options),
        };
        warnings.push(...(await this.dispatcher.mutate(attrs)).warnings);
        warnings.push(...(await this.dispatcher.validate(attrs)));
        return { ...this.objects.commitDelete(prepared), warnings: merged(warnings) };
      } catch (error) {
        if (error instanceof StaleWriteError) continue;
        throw carrying(error, warnings);
      }
    }
    throw errors.conflict(groupResource(type), name);
  }
}
