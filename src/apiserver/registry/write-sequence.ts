// The one write sequence of every create, update and delete, in kube-apiserver's order (genericregistry.Store with
// the handler's admission): decode (unknown fields, custom resources' defaults), mutating admission (and decoding
// what it changed), the strategy's preparation and validation (BeforeCreate/BeforeUpdate/BeforeDelete),
// built-in validating admission (PodSecurity), validating admission webhooks, store. Admission comes
// in as hooks; the server's own controllers (GC, namespace cleanup, CRD status) write without them. Every write
// names its user: the request's, or serverSelf for the server's own. While hooks are
// awaited the object may change: the write is then recomputed from the new object and admitted again
// (GuaranteedUpdate's retry).
//
// The steps are generators that yield the hooks' promises: without hooks nothing is yielded and a write runs to its
// end synchronously (runNow); with hooks, runAwaiting awaits each one. The same steps either way.
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import type { WarningCarrier } from '../admission/webhook-dispatcher.ts';
import type { UserInfo } from '../auth/user-info.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import type { AdmissionHooks, AdmissionRequest, BuiltinValidation } from './admission-hooks.ts';
import { prepareCreate, normalizeCreate } from './before-create.ts';
import { prepareDelete } from './before-delete.ts';
import { prepareUpdate } from './before-update.ts';
import { restrictToEndpoint } from './endpoint-restriction.ts';
import { maxNameGenerationAttempts } from './generated-name.ts';
import { decodeObject } from './object-decoding.ts';
import type { ObjectService } from './object-service.ts';
import { groupResource, type ResourceType } from './resource-type.ts';
import { StaleWriteError } from './stale-write-error.ts';
import type { CreateOptions, DeleteOptions, DeleteResult, UpdateOptions, WriteResult } from './write-types.ts';

/** Steps that may wait on admission: each yield is a hook's promise, resumed with its value. */
export type WriteSteps<T> = Generator<Promise<unknown>, T, unknown>;

function* awaited<T>(promise: Promise<T>): WriteSteps<T> {
  return (yield promise) as T;
}

/** Runs steps that yield nothing (no admission hooks) to their end. */
export function runNow<T>(steps: WriteSteps<T>): T {
  const result = steps.next();
  if (!result.done) throw new Error('a write with admission hooks must be run with runAwaiting');
  return result.value;
}

/** Runs steps, awaiting each hook they yield. */
export async function runAwaiting<T>(steps: WriteSteps<T>): Promise<T> {
  let result = steps.next();
  while (!result.done) {
    const outcome = await result.value.then(
      (value) => ({ failed: false as const, value }),
      (error: unknown) => ({ failed: true as const, error }),
    );
    result = outcome.failed ? steps.throw(outcome.error) : steps.next(outcome.value);
  }
  return result.value;
}

/** Recomputing a write this often without getting it stored ends in 409 Conflict. */
const maxAttempts = 5;

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

export function* createSteps(
  objects: ObjectService,
  user: UserInfo,
  type: ResourceType,
  namespace: string,
  body: unknown,
  options: CreateOptions,
  userAgent: string | undefined,
  admission: AdmissionHooks | undefined,
  builtin?: BuiltinValidation,
): WriteSteps<WriteResult> {
  const object = normalizeCreate(type, namespace, body);
  const name = object.metadata.name ?? '';
  objects.checkNamespace(type, namespace, name);
  const warnings: string[] = [];
  try {
    decodeObject(type, object, options.fieldValidation, warnings);
    const request: AdmissionRequest = { user, operation: 'CREATE', type, subresource: '', name, namespace, object, oldObject: undefined, options };
    let admitted = object;
    if (admission) {
      const mutation = yield* awaited(admission.mutate(request));
      warnings.push(...mutation.warnings);
      admitted = mutation.object ?? object;
      // What a webhook added is decoded too; fields it added that the schema does not know go silently.
      if (admitted !== object) decodeObject(type, admitted, 'Ignore', warnings);
    }
    const generated = !admitted.metadata.name;
    for (let attempt = 1; ; attempt++) {
      // The normalized object is this call's own; only a create that may be tried again needs a fresh copy each time.
      const prepared = prepareCreate(objects, user, type, namespace, generated ? structuredClone(admitted) : admitted, options, userAgent);
      if (builtin) warnings.push(...builtin.validate({ type, operation: 'CREATE', subresource: '', object: prepared.object, oldObject: undefined }));
      if (admission) warnings.push(...(yield* awaited(admission.validate({ ...request, object: prepared.object }))));
      try {
        return { json: objects.commit(prepared), warnings: merged(warnings) };
      } catch (error) {
        // A generated name taken while the hooks were awaited is generated again, as kube-apiserver retries (KEP-4420).
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
 * object changed while hooks were awaited). Throws what it throws (NotFound, Conflict…).
 */
export function* updateSteps(
  objects: ObjectService,
  user: UserInfo,
  type: ResourceType,
  subresource: 'status' | 'finalize' | undefined,
  options: UpdateOptions,
  candidate: () => { current: StoredObject; next: KubeObject },
  admission: AdmissionHooks | undefined,
  builtin?: BuiltinValidation,
): WriteSteps<WriteResult> {
  let name = '';
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const { current, next } = candidate();
    name = current.object.metadata.name ?? '';
    // Admission sees a complete object even when a PUT body left out what the URL says.
    next.apiVersion ??= apiVersionOf(type);
    next.kind ??= type.kind;
    next.metadata.name ??= name;
    if (type.namespaced) next.metadata.namespace ??= current.object.metadata.namespace;
    const warnings: string[] = [];
    try {
      decodeObject(type, next, options.fieldValidation, warnings);
      const request: AdmissionRequest = {
        user,
        operation: 'UPDATE',
        type,
        subresource: subresource ?? '',
        name,
        namespace: current.object.metadata.namespace ?? '',
        object: next,
        oldObject: admission ? objects.view(type, current) : undefined,
        options,
      };
      let wanted = next;
      if (admission) {
        const mutation = yield* awaited(admission.mutate(request));
        warnings.push(...mutation.warnings);
        if (mutation.object && mutation.object !== next) {
          wanted = restrictToEndpoint(type, current.object, mutation.object, subresource);
          decodeObject(type, wanted, 'Ignore', warnings);
        }
      }
      const prepared = prepareUpdate(objects, user, type, current, wanted, options, subresource);
      if (builtin) warnings.push(...builtin.validate({ type, operation: 'UPDATE', subresource: subresource ?? '', object: prepared.object, oldObject: current.object }));
      if (admission) warnings.push(...(yield* awaited(admission.validate({ ...request, object: prepared.object }))));
      return { json: objects.commit(prepared), warnings: merged(warnings) };
    } catch (error) {
      if (error instanceof StaleWriteError) continue;
      throw carrying(error, warnings);
    }
  }
  throw errors.conflict(groupResource(type), name);
}

export function* deleteSteps(
  objects: ObjectService,
  user: UserInfo,
  type: ResourceType,
  namespace: string,
  name: string,
  options: DeleteOptions,
  admission: AdmissionHooks | undefined,
): WriteSteps<DeleteResult & { warnings: string[] }> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const prepared = prepareDelete(objects, type, namespace, name, options);
    const warnings: string[] = [];
    try {
      if (admission) {
        const request: AdmissionRequest = { user, operation: 'DELETE', type, subresource: '', name, namespace, object: undefined, oldObject: objects.view(type, prepared.current), options };
        warnings.push(...(yield* awaited(admission.mutate(request))).warnings);
        warnings.push(...(yield* awaited(admission.validate(request))));
      }
      return { ...objects.commitDelete(prepared), warnings: merged(warnings) };
    } catch (error) {
      if (error instanceof StaleWriteError) continue;
      throw carrying(error, warnings);
    }
  }
  throw errors.conflict(groupResource(type), name);
}
