// The lifecycle rules every object goes through, independent of HTTP: create, update (main and status),
// delete with finalizers and propagation, generation, resourceVersion preconditions, no-op suppression,
// custom-resource pruning/defaulting/validation and managedFields bookkeeping. Handlers and the built-in
// controllers (GC, namespaces, CRDs) all write through here, so the rules hold for every writer.
import { randomUUID } from 'node:crypto';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { isPlainObject, type KubeObject, type OwnerReference, type StatusCause } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { SqliteStore, StoredObject } from '../storage/sqlite-store.ts';
import { admitBuiltinFields } from './builtin-field-validation.ts';
import { validateName, validateObjectMeta } from './object-meta-validation.ts';
import { groupResource, storageKey, type ResourceType } from './resource-type.ts';
import { StaleWriteError } from './stale-write-error.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

type GracefulDeletion = { outcome: 'none' | 'pending' } | { outcome: 'mark'; seconds: number; deletionTimestamp: string };

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: PropagationPolicy;
  /** Seconds before a gracefully deleted object (a pod) may be removed; see ResourceType.gracefulDeletePeriod. */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** The object as the client sees it, serialised once. */
export interface WriteResult {
  json: string;
  warnings: string[];
}

/**
 * A write whose outcome is computed (defaulted, validated, server-owned fields set) but not yet stored. Admission
 * looks at it between prepare and commit; commit refuses it (StaleWriteError) if the object changed meanwhile.
 */
export type PreparedWrite = PreparedCreate | PreparedUpdate;

export interface PreparedCreate {
  readonly kind: 'create';
  readonly type: ResourceType;
  readonly object: KubeObject;
  readonly warnings: string[];
  readonly dryRun: boolean;
}

export interface PreparedUpdate {
  readonly kind: 'update';
  readonly type: ResourceType;
  readonly current: StoredObject;
  readonly object: KubeObject;
  readonly warnings: string[];
  readonly dryRun: boolean;
  /** `noop`: nothing changed; `remove`: the last finalizer of a deleted object went, so the object goes. */
  readonly outcome: 'write' | 'noop' | 'remove';
}

export interface PreparedDelete {
  readonly type: ResourceType;
  readonly current: StoredObject;
  /** `remove` deletes now; `mark` sets deletionTimestamp (finalizers remain); `unchanged` is a repeated delete. */
  readonly outcome: 'remove' | 'mark' | 'unchanged';
  /** The marked object, for `mark`. */
  readonly next: KubeObject | undefined;
  readonly dryRun: boolean;
}

/** Keeps metadata.managedFields current for non-apply writes (server-side apply does its own). */
export interface ManagedFieldsRecorder {
  recordUpdate(
    old: KubeObject | undefined,
    updated: KubeObject,
    manager: string,
    apiVersion: string,
    subresource: string | undefined,
    time: string,
  ): void;
}

const serverOwnedMeta = ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generation'] as const;

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The object without metadata and status: what a generation bump is about. */
function specPart(object: KubeObject): string {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = object;
  return JSON.stringify(rest);
}

function withoutVolatileMeta(object: KubeObject): string {
  const { resourceVersion: _rv, managedFields, ...meta } = object.metadata;
  const managers = (managedFields ?? []).map(({ time: _t, ...entry }) => entry);
  return JSON.stringify({ ...object, metadata: { ...meta, managedFields: managers } });
}

/** apiVersion and kind first, then metadata: the field order real servers answer with. */
function typeFirst(object: KubeObject): KubeObject {
  const { apiVersion, kind, metadata, ...rest } = object;
  return { apiVersion, kind, metadata, ...rest } as KubeObject;
}

/** A generated name is at most 63 characters: the prefix is cut to leave room for the suffix, as names.SimpleNameGenerator does. */
const maxGeneratedPrefixLength = 63 - 5;
/** KEP-4420 (RetryGenerateName, on by default since 1.32): 8 attempts in all before AlreadyExists. */
export const maxNameGenerationAttempts = 8;

export function randomSuffix(): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < 5; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

export class ObjectService {
  readonly store: SqliteStore;
  private readonly managedFields: ManagedFieldsRecorder | undefined;

  constructor(store: SqliteStore, managedFields: ManagedFieldsRecorder | undefined) {
    this.store = store;
    this.managedFields = managedFields;
  }

  get(type: ResourceType, namespace: string, name: string): StoredObject {
    const stored = this.store.get(storageKey(type), type.namespaced ? namespace : '', name);
    if (!stored) throw errors.notFound(groupResource(type), name);
    return stored;
  }

  find(type: ResourceType, namespace: string, name: string): StoredObject | undefined {
    return this.store.get(storageKey(type), type.namespaced ? namespace : '', name);
  }

  /** The served view of a stored object: custom resources are converted to the requested version (strategy None). */
  view(type: ResourceType, stored: StoredObject): KubeObject {
    const object = clone(stored.object);
    object.apiVersion = apiVersionOf(type);
    return object;
  }

  private served(type: ResourceType, stored: StoredObject): string {
    const apiVersion = apiVersionOf(type);
    return stored.object.apiVersion === apiVersion ? stored.json : JSON.stringify({ ...stored.object, apiVersion });
  }

  /** A namespaced write needs its namespace to exist and not be terminating (the NamespaceLifecycle check). */
  checkNamespace(type: ResourceType, namespace: string, name: string): void {
    if (!type.namespaced) return;
    const ns = this.store.get('/namespaces', '', namespace);
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.object.metadata.deletionTimestamp) {
      const resource = type.group ? `${type.plural}.${type.group}` : type.plural;
      throw errors.forbidden(`${resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
        name,
        group: type.group,
        kind: type.plural,
        causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
      });
    }
  }

  private checkTypeMeta(type: ResourceType, object: KubeObject): void {
    const expected = apiVersionOf(type);
    if (object.apiVersion !== undefined && object.apiVersion !== expected) {
      throw errors.badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${expected})`);
    }
    if (object.kind !== undefined && object.kind !== type.kind) {
      throw errors.badRequest(`the kind in the data (${object.kind}) does not match the expected kind (${type.kind})`);
    }
  }

  /**
   * Custom resources: drop or reject unknown fields, apply defaults, validate against the CRD schema (`old`, the
   * stored object on an update, for transition rules and ratcheting).
   */
  private admitSchema(type: ResourceType, object: KubeObject, options: WriteOptions, warnings: string[], old?: KubeObject): StatusCause[] {
    const schema = type.customSchema;
    if (!schema) {
      admitBuiltinFields(type, object, options.fieldValidation ?? 'Warn', warnings);
      return [];
    }
    const validation = options.fieldValidation ?? 'Warn';
    if (validation === 'Strict') {
      const unknown = schema.unknownFields(object);
      if (unknown.length > 0) {
        throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
      }
    }
    const pruned = schema.prune(object);
    if (validation === 'Warn') for (const field of pruned) warnings.push(`unknown field "${field}"`);
    schema.applyDefaults(object);
    return schema.validate(object, old);
  }

  private validate(type: ResourceType, object: KubeObject, old: KubeObject | undefined, extra: StatusCause[]): void {
    const name = object.metadata.name ?? '';
    const causes = [...validateName(name, type.nameRule), ...validateObjectMeta(object), ...extra, ...(type.validate?.(object, old) ?? [])];
    if (object.metadata.namespace && type.namespaced) causes.push(...validateName(object.metadata.namespace, 'dns1123-label', 'metadata.namespace'));
    if (causes.length > 0) throw errors.invalid(type.kind, type.group, name, causes);
  }

  private manager(options: WriteOptions, userAgent: string | undefined): string {
    if (options.fieldManager) return options.fieldManager;
    return (userAgent ?? 'unknown').split('/')[0] ?? 'unknown';
  }

  create(type: ResourceType, namespace: string, body: unknown, options: WriteOptions & { keepManagedFields?: boolean }, userAgent?: string): WriteResult {
    return this.commit(this.prepareCreate(type, namespace, body, options, userAgent));
  }

  /** A create body as the server reads it: an object, type meta checked and set, the namespace from the URL. */
  normalizeCreate(type: ResourceType, namespace: string, body: unknown): KubeObject {
    if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be a JSON object');
    const object = clone(body) as KubeObject;
    if (!isPlainObject(object.metadata)) object.metadata = {};
    this.checkTypeMeta(type, object);
    const meta = object.metadata;
    if (type.namespaced) {
      if (meta.namespace && meta.namespace !== namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = namespace;
    } else delete meta.namespace;
    object.apiVersion = apiVersionOf(type);
    object.kind = type.kind;
    type.decode?.(object);
    return object;
  }

  /** A name from `prefix` that is free now; after too many taken ones, the last (the create then answers AlreadyExists). */
  private generatedName(type: ResourceType, namespace: string, prefix: string): string {
    let name = '';
    for (let attempt = 0; attempt < maxNameGenerationAttempts; attempt++) {
      name = `${prefix.slice(0, maxGeneratedPrefixLength)}${randomSuffix()}`;
      if (!this.find(type, namespace, name)) break;
    }
    return name;
  }

  /** Everything a create does short of storing: name generation, server-owned fields, defaults, validation. */
  prepareCreate(type: ResourceType, namespace: string, body: unknown, options: WriteOptions & { keepManagedFields?: boolean }, userAgent?: string): PreparedCreate {
    const object = this.normalizeCreate(type, namespace, body);
    const meta = object.metadata;
    if (!meta.name) {
      if (!meta.generateName) throw errors.invalid(type.kind, type.group, '', [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
      meta.name = this.generatedName(type, namespace, meta.generateName);
    }
    this.checkNamespace(type, namespace, meta.name);
    const warnings: string[] = [];
    for (const key of serverOwnedMeta) delete meta[key];
    delete meta.resourceVersion;
    if (!options.keepManagedFields) delete meta.managedFields;
    if (type.statusSubresource) delete object['status'];
    // As kube-apiserver's BeforeCreate: the system fields first, so that defaulting can use the uid (a Job's selector).
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTime();
    type.prepareForCreate?.(object);
    const schemaCauses = this.admitSchema(type, object, options, warnings);
    this.validate(type, object, undefined, schemaCauses);
    if (this.store.get(storageKey(type), type.namespaced ? namespace : '', meta.name)) throw errors.alreadyExists(groupResource(type), meta.name);
    if (type.tracksGeneration || type.custom) meta.generation = 1;
    if (!options.keepManagedFields) this.managedFields?.recordUpdate(undefined, object, this.manager(options, userAgent), apiVersionOf(type), undefined, nowTime());
    return { kind: 'create', type, object, warnings, dryRun: options.dryRun === true };
  }

  /**
   * Custom resources: what decoding a request does before admission sees it: unknown fields refused (Strict),
   * reported (Warn) or dropped, then defaults applied. Writes that ran this pass their later steps fieldValidation
   * Ignore, so fields a webhook adds are pruned silently.
   */
  decodeForAdmission(type: ResourceType, object: KubeObject, options: WriteOptions, warnings: string[]): void {
    type.decode?.(object);
    const schema = type.customSchema;
    if (!schema) return admitBuiltinFields(type, object, options.fieldValidation ?? 'Warn', warnings);
    const validation = options.fieldValidation ?? 'Warn';
    if (validation === 'Strict') {
      const unknown = schema.unknownFields(object);
      if (unknown.length > 0) throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
    }
    const pruned = schema.prune(object);
    if (validation === 'Warn') for (const field of pruned) warnings.push(`unknown field "${field}"`);
    schema.applyDefaults(object);
  }

  /** Stores a prepared create or update (dry run: only answers with it). */
  commit(prepared: PreparedWrite): WriteResult {
    const { type, object, warnings } = prepared;
    const meta = object.metadata;
    const name = meta.name ?? '';
    const key = storageKey(type);
    const ns = type.namespaced ? (meta.namespace ?? '') : '';
    if (prepared.kind === 'create') {
      if (this.store.get(key, ns, name)) throw errors.alreadyExists(groupResource(type), name);
      if (prepared.dryRun) return { json: JSON.stringify(object), warnings };
      const event = this.store.write(key, ns, name, 'ADDED', (revision) => {
        meta.resourceVersion = String(revision);
        return typeFirst(object);
      });
      return { json: this.served(type, event.current), warnings };
    }
    if (prepared.outcome === 'noop') return { json: this.served(type, prepared.current), warnings };
    if (prepared.dryRun) return { json: JSON.stringify(object), warnings };
    this.assertCurrent(type, prepared.current);
    const event = this.store.write(key, ns, name, prepared.outcome === 'remove' ? 'DELETED' : 'MODIFIED', (revision) => {
      meta.resourceVersion = String(revision);
      return typeFirst(object);
    });
    return { json: this.served(type, event.current), warnings };
  }

  /** Between prepare and commit the object may have changed (admission awaits webhooks): then the write is stale. */
  private assertCurrent(type: ResourceType, current: StoredObject): void {
    const meta = current.object.metadata;
    const live = this.store.get(storageKey(type), type.namespaced ? (meta.namespace ?? '') : '', meta.name ?? '');
    if (!live || live.revision !== current.revision) throw new StaleWriteError();
  }

  /**
   * Replaces an object (PUT semantics). `subresource === 'status'` takes only `.status` from the body.
   * `requireResourceVersion` is how custom resources refuse unconditional updates.
   */
  update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    options: WriteOptions & { subresource?: 'status' | 'finalize'; userAgent?: string; skipManagedFields?: boolean },
  ): WriteResult {
    const { current, next } = this.updateCandidate(type, namespace, name, body, options.subresource);
    return this.commitUpdate(type, current, next, options, options.subresource);
  }

  /**
   * What a PUT asks for: the body checked against the URL and the current object (resourceVersion precondition),
   * restricted to what the endpoint may change. Throws NotFound, Conflict or BadRequest.
   */
  updateCandidate(type: ResourceType, namespace: string, name: string, body: unknown, subresource: 'status' | 'finalize' | undefined): { current: StoredObject; next: KubeObject } {
    if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be a JSON object');
    const incoming = clone(body) as KubeObject;
    if (!isPlainObject(incoming.metadata)) incoming.metadata = {};
    this.checkTypeMeta(type, incoming);
    if (incoming.metadata.name !== undefined && incoming.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${incoming.metadata.name}) does not match the name on the URL (${name})`);
    }
    if (type.namespaced && incoming.metadata.namespace && incoming.metadata.namespace !== namespace) {
      throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const current = this.get(type, namespace, name);
    const old = current.object;
    const rv = incoming.metadata.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion) throw errors.conflict(groupResource(type), name);
    if ((rv === undefined || rv === '') && type.custom) {
      throw errors.invalid(type.kind, type.group, name, [
        { reason: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' },
      ]);
    }
    let next: KubeObject;
    if (subresource === 'status') {
      next = clone(old);
      if (incoming['status'] === undefined) delete next['status'];
      else next['status'] = incoming['status'];
    } else if (subresource === 'finalize') {
      // Namespaces: `finalize` is the only way to change spec.finalizers.
      next = clone(old);
      next['spec'] = incoming['spec'];
    } else {
      next = incoming;
      next.metadata = { ...incoming.metadata };
      if (type.statusSubresource) {
        if (old['status'] === undefined) delete next['status'];
        else next['status'] = clone(old['status']);
      }
      if (!type.custom && type.kind === 'Namespace') next['spec'] = clone(old['spec']);
    }
    return { current, next };
  }

  /** Shared tail of update and patch: server-owned fields, finalizer rules, schema, generation, no-op, write. */
  commitUpdate(
    type: ResourceType,
    current: StoredObject,
    next: KubeObject,
    options: WriteOptions & { userAgent?: string; skipManagedFields?: boolean },
    subresource: string | undefined,
  ): WriteResult {
    return this.commit(this.prepareUpdate(type, current, next, options, subresource));
  }

  /** commitUpdate short of storing. */
  prepareUpdate(
    type: ResourceType,
    current: StoredObject,
    next: KubeObject,
    options: WriteOptions & { userAgent?: string; skipManagedFields?: boolean },
    subresource: string | undefined,
  ): PreparedUpdate {
    const old = current.object;
    const name = old.metadata.name ?? '';
    const meta = next.metadata;
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    type.decode?.(next);
    meta.name = old.metadata.name;
    if (type.namespaced) meta.namespace = old.metadata.namespace;
    else delete meta.namespace;
    for (const key of serverOwnedMeta) {
      if (old.metadata[key] === undefined) delete meta[key];
      else meta[key] = old.metadata[key] as never;
    }
    meta.resourceVersion = old.metadata.resourceVersion;
    if (old.metadata.deletionTimestamp) {
      const before = new Set(old.metadata.finalizers ?? []);
      const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
      if (added.length > 0) {
        throw errors.invalid(type.kind, type.group, name, [
          {
            reason: 'FieldValueForbidden',
            field: 'metadata.finalizers',
            message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
          },
        ]);
      }
    }
    if (subresource === undefined) type.prepareForUpdate?.(next, old);
    const warnings: string[] = [];
    const schemaCauses = subresource === 'status' && type.customSchema ? this.admitStatus(type, next, old, options, warnings) : this.admitSchema(type, next, options, warnings, old);
    this.validate(type, next, old, schemaCauses);
    if ((type.tracksGeneration || type.custom) && subresource !== 'status' && specPart(next) !== specPart(old)) {
      meta.generation = (old.metadata.generation ?? 1) + 1;
    }
    if (options.skipManagedFields !== true) {
      this.managedFields?.recordUpdate(old, next, this.manager(options, options.userAgent), apiVersionOf(type), subresource, nowTime());
    }
    // ShouldDeleteDuringUpdate: the last finalizer gone, and no grace period still running (a pod's kubelet ends that).
    const removed = Boolean(meta.deletionTimestamp) && (meta.deletionGracePeriodSeconds ?? 0) === 0 && (meta.finalizers ?? []).length === 0 && specFinalizersOf(type, next).length === 0;
    const outcome = removed ? 'remove' : withoutVolatileMeta(next) === withoutVolatileMeta(old) ? 'noop' : 'write';
    return { kind: 'update', type, current, object: next, warnings, dryRun: options.dryRun === true, outcome };
  }

  /** Status writes validate the whole object but only report what the status stanza got wrong. */
  private admitStatus(type: ResourceType, object: KubeObject, old: KubeObject, options: WriteOptions, warnings: string[]): StatusCause[] {
    return this.admitSchema(type, object, options, warnings, old).filter((c) => !c.field || c.field.startsWith('status'));
  }

  delete(type: ResourceType, namespace: string, name: string, options: DeleteOptions): { json: string; deleted: boolean } {
    return this.commitDelete(this.prepareDelete(type, namespace, name, options));
  }

  /** What a delete will do (preconditions checked), short of doing it. */
  prepareDelete(type: ResourceType, namespace: string, name: string, options: DeleteOptions): PreparedDelete {
    const current = this.get(type, namespace, name);
    const old = current.object;
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid) {
      throw errors.conflict(groupResource(type), name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw errors.conflict(
        groupResource(type),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
      );
    }
    const policy = options.propagationPolicy ?? 'Background';
    const finalizers = [...(old.metadata.finalizers ?? []), ...specFinalizersOf(type, old)];
    const policyFinalizer = policy === 'Foreground' ? 'foregroundDeletion' : policy === 'Orphan' ? 'orphan' : undefined;
    const hasDependents = policyFinalizer !== undefined;
    const dryRun = options.dryRun === true;
    const grace = this.gracefulDeletion(type, old, options.gracePeriodSeconds);
    if (grace.outcome === 'pending') return { type, current, outcome: 'unchanged', next: undefined, dryRun };
    const graceOver = grace.outcome === 'none' || (grace.outcome === 'mark' && grace.seconds === 0);
    if (graceOver && finalizers.length === 0 && !hasDependents) return { type, current, outcome: 'remove', next: undefined, dryRun };
    const next = clone(old);
    const meta = next.metadata;
    const graceful = grace.outcome === 'mark';
    if (policyFinalizer && !finalizers.includes(policyFinalizer) && (graceful || !meta.deletionTimestamp)) {
      // Swap a previously requested propagation finalizer for the one asked now.
      meta.finalizers = [...(old.metadata.finalizers ?? []).filter((f) => f !== 'orphan' && f !== 'foregroundDeletion'), policyFinalizer];
    }
    if (!graceful && meta.deletionTimestamp && JSON.stringify(meta.finalizers ?? []) === JSON.stringify(old.metadata.finalizers ?? [])) {
      return { type, current, outcome: 'unchanged', next: undefined, dryRun };
    }
    if (!meta.deletionTimestamp) {
      type.prepareForDelete?.(next);
      if (meta.generation !== undefined) meta.generation += 1;
    }
    if (graceful) {
      meta.deletionTimestamp = grace.deletionTimestamp;
      meta.deletionGracePeriodSeconds = grace.seconds;
    } else if (!meta.deletionTimestamp) {
      meta.deletionTimestamp = nowTime();
      meta.deletionGracePeriodSeconds = 0;
    }
    return { type, current, outcome: 'mark', next, dryRun };
  }

  /**
   * rest.BeforeDelete for kinds deleted gracefully: 'mark' sets (or shortens) the grace period, 'pending' leaves a
   * grace period already running alone, 'none' deletes as any other kind (no period, or a period run out to 0).
   */
  private gracefulDeletion(type: ResourceType, old: KubeObject, requested: number | undefined): GracefulDeletion {
    if (!type.gracefulDeletePeriod) return { outcome: 'none' };
    const meta = old.metadata;
    if (meta.deletionTimestamp) {
      const running = meta.deletionGracePeriodSeconds ?? 0;
      if (running === 0) return { outcome: 'none' };
      if (requested === undefined || requested >= running) return { outcome: 'pending' };
      // Shortened to 0 (the kubelet's last word), the object goes at once unless finalizers hold it.
      const seconds = Math.max(0, requested);
      const start = Date.parse(meta.deletionTimestamp) - running * 1000;
      return { outcome: 'mark', seconds, deletionTimestamp: nowTime(new Date(start + seconds * 1000)) };
    }
    const seconds = type.gracefulDeletePeriod(old, requested);
    if (seconds === 0) return { outcome: 'none' };
    return { outcome: 'mark', seconds, deletionTimestamp: nowTime(new Date(Date.now() + seconds * 1000)) };
  }

  commitDelete(prepared: PreparedDelete): { json: string; deleted: boolean } {
    const { type, current } = prepared;
    const old = current.object;
    const ns = type.namespaced ? (old.metadata.namespace ?? '') : '';
    const name = old.metadata.name ?? '';
    if (prepared.outcome === 'unchanged') return { json: this.served(type, current), deleted: false };
    if (prepared.outcome === 'remove') {
      if (prepared.dryRun) return { json: this.served(type, current), deleted: true };
      this.assertCurrent(type, current);
      const event = this.store.write(storageKey(type), ns, name, 'DELETED', (revision) => {
        const last = clone(old);
        last.metadata.resourceVersion = String(revision);
        return last;
      });
      return { json: this.served(type, event.current), deleted: true };
    }
    const next = prepared.next!;
    if (prepared.dryRun) return { json: JSON.stringify(next), deleted: false };
    this.assertCurrent(type, current);
    const event = this.store.write(storageKey(type), ns, name, 'MODIFIED', (revision) => {
      next.metadata.resourceVersion = String(revision);
      return next;
    });
    return { json: this.served(type, event.current), deleted: false };
  }

  /** Internal writers (GC, namespace controller) that change finalizers or owner references. */
  mutate(type: ResourceType, stored: StoredObject, change: (object: KubeObject) => void): void {
    const next = clone(stored.object);
    change(next);
    try {
      this.commitUpdate(type, stored, next, { fieldManager: 'bosun-apiserver' }, undefined);
    } catch (error) {
      if (!(error instanceof StatusError) || error.code !== 404) throw error;
    }
  }
}

function specFinalizersOf(type: ResourceType, object: KubeObject): string[] {
  if (!type.specFinalizers) return [];
  const spec = object['spec'];
  return isPlainObject(spec) && Array.isArray(spec['finalizers']) ? (spec['finalizers'] as string[]) : [];
}

export function ownerReferencesOf(object: KubeObject): OwnerReference[] {
  return object.metadata.ownerReferences ?? [];
}
