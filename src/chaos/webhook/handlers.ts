// The admission handlers: decode the Disruption, read what the decision needs from the cluster (only then), and
// answer with the pure validation's verdict (../validation) or the defaulted object's patch.
import { isPlainObject, type StatusCause } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import type { AdmissionHandler, AdmissionRequest, AdmissionResponse } from '../../runtime/index.ts';
import { allowed, denied, jsonPatchFor, patched } from '../../runtime/index.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import { countTooLargeApplies, defaultDisruption, formatSpecErrors, removesDisruptionFinalizer, validateCreate, validateUpdate, type Verdict } from '../validation/index.ts';
import { chaosPodNames, countTargets, lookupServices } from './cluster-reads.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** The object as a Disruption, or why it is not one (the schema normally guarantees a spec object). */
function disruption(obj: unknown): Disruption | string {
  if (!isPlainObject(obj)) return 'no object in the request';
  if (!isPlainObject(obj['spec'])) return 'spec: Required value: a Disruption needs a spec';
  return obj as Disruption;
}

function answer(verdict: Verdict): AdmissionResponse {
  if (verdict.errors.length === 0) return allowed();
  const causes: StatusCause[] = verdict.errors.map((e) => ({ reason: 'FieldValueInvalid', message: e.message, ...(e.field ? { field: e.field } : {}) }));
  return denied(formatSpecErrors(verdict.errors, verdict.header), 403, causes);
}

/** A failed read denies the request (failurePolicy Fail in spirit) with upstream's wording of what failed. */
class ClusterReadError extends Error {
  override readonly name = 'ClusterReadError' as const;
}

async function reading<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw new ClusterReadError(`${what}: ${messageOf(err)}`, { cause: err });
  }
}

export interface ChaosWebhookHandlers {
  validate: AdmissionHandler;
  mutate: AdmissionHandler;
  userInfo: AdmissionHandler;
}

export function chaosWebhookHandlers(client: KubeClient, config: ChaosConfig): ChaosWebhookHandlers {
  const judge = async (req: AdmissionRequest): Promise<AdmissionResponse> => {
    // The rules never match the status subresource; this keeps the controller's status writes safe regardless.
    if (req.subResource) return allowed(`subresource ${req.subResource} is not validated`);
    if (req.operation === 'DELETE' || req.operation === 'CONNECT') return allowed();
    const d = disruption(req.object);
    if (typeof d === 'string') return denied(d, 400);
    const services = await reading('error retrieving the specified network disruption service', () => lookupServices(client, d));
    if (req.operation === 'CREATE') {
      const counts = countTooLargeApplies(d.spec, config) ? await reading('error checking for countNotTooLarge safetynet', () => countTargets(client, d)) : undefined;
      return answer(validateCreate(d, { config, now: new Date(), services, ...(counts ? { counts } : {}) }));
    }
    const old = disruption(req.oldObject);
    if (typeof old === 'string') return denied(`oldObject: ${old}`, 400);
    const pods = removesDisruptionFinalizer(old, d) ? await reading('error getting disruption pods', () => chaosPodNames(client, config.chaosNamespace, old)) : [];
    return answer(validateUpdate(old, d, pods, { services }));
  };

  const validate = async (req: AdmissionRequest): Promise<AdmissionResponse> => {
    try {
      return await judge(req);
    } catch (err) {
      if (err instanceof ClusterReadError) return denied(err.message, 500);
      throw err;
    }
  };

  const mutating =
    (userInfo: boolean): AdmissionHandler =>
    (req) => {
      if (req.subResource || (req.operation !== 'CREATE' && req.operation !== 'UPDATE')) return allowed();
      const d = disruption(req.object);
      if (typeof d === 'string') return denied(d, 400);
      const previous = req.operation === 'UPDATE' && isPlainObject(req.oldObject) ? (req.oldObject as Disruption) : undefined;
      const creator = req.operation === 'CREATE' ? req.userInfo : undefined;
      const defaulted = defaultDisruption(d, { config, ...(creator ? { creator } : {}), ...(previous ? { previous } : {}) });
      // Each mutator changes only its own part: the user-info one only the annotations, the defaulter only the spec.
      const changed = userInfo ? { ...d, metadata: defaulted.metadata } : { ...d, spec: defaulted.spec };
      return patched(jsonPatchFor(d, changed));
    };

  return { validate, mutate: mutating(false), userInfo: mutating(true) };
}
