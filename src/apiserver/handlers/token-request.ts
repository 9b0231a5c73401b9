// POST serviceaccounts/<name>/token (authentication.k8s.io/v1 TokenRequest), what `kubectl create token` and the
// kubelet call: a token for the ServiceAccount, for the audiences asked (the API server's by default), expiring
// after expirationSeconds (an hour by default, ten minutes at the least), bound to a Pod or Secret when asked.
// Checked and worded as kube-apiserver's TokenREST.
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { API_AUDIENCES } from '../auth/token-authenticator.ts';
import { sendJson } from '../http/respond.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { readObjectBody, type ResourceCall } from './resource-call.ts';

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
const bindable: Record<string, { resource: string; apiVersion: string }> = {
  Pod: { resource: 'pods', apiVersion: 'v1' },
  Secret: { resource: 'secrets', apiVersion: 'v1' },
};

export async function handleTokenRequest(call: ResourceCall): Promise<void> {
  const { ctx, namespace, name } = call;
  const body = await readObjectBody(call.req, tokenRequestType(call.type));
  if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be a TokenRequest object');
  if (body['kind'] !== undefined && body['kind'] !== 'TokenRequest') throw errors.badRequest(`not a TokenRequest object: kind ${String(body['kind'])}`);
  const spec = isPlainObject(body['spec']) ? body['spec'] : {};
  const audiences = Array.isArray(spec['audiences']) && spec['audiences'].length > 0 ? spec['audiences'].map(String) : [...API_AUDIENCES];
  const expirationSeconds = spec['expirationSeconds'] === undefined || spec['expirationSeconds'] === null ? DEFAULT_EXPIRATION_SECONDS : Number(spec['expirationSeconds']);
  const causes: StatusCause[] = [];
  if (!Number.isInteger(expirationSeconds) || expirationSeconds < MIN_EXPIRATION_SECONDS) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${String(spec['expirationSeconds'])}: may not specify a duration less than 10 minutes` });
  } else if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
    causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${expirationSeconds}: may not specify a duration larger than 2^32 seconds` });
  }
  if (causes.length > 0) throw errors.invalid('TokenRequest', 'authentication.k8s.io', name, causes);

  const sa = ctx.store.get('/serviceaccounts', namespace, name)?.object;
  if (!sa) throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);
  const bound = isPlainObject(spec['boundObjectRef']) ? boundObject(call, spec['boundObjectRef'], name) : undefined;
  const { token, expiresAt } = ctx.serviceAccountTokens.issue({ serviceAccount: sa, audiences, expirationSeconds, ...(bound ? { bound } : {}) });
  const meta = isPlainObject(body['metadata']) ? body['metadata'] : {};
  sendJson(call.res, 201, {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...meta, name, namespace, creationTimestamp: null },
    spec: { ...spec, audiences, expirationSeconds, boundObjectRef: spec['boundObjectRef'] ?? null },
    status: { token, expirationTimestamp: nowTime(expiresAt) },
  });
}

/** The kind the body is decoded as (kubectl sends it as protobuf). */
function tokenRequestType(serviceAccounts: ResourceType): ResourceType {
  return { ...serviceAccounts, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', subresources: [] };
}

function boundObject(call: ResourceCall, ref: Record<string, unknown>, serviceAccount: string): { kind: 'Pod' | 'Secret'; object: KubeObject } {
  const kind = String(ref['kind'] ?? '');
  const target = bindable[kind];
  if (!target || (ref['apiVersion'] !== undefined && ref['apiVersion'] !== target.apiVersion)) {
    throw errors.badRequest(`cannot bind token for object of type ${String(ref['apiVersion'] ?? '')}, Kind=${kind}`);
  }
  const name = String(ref['name'] ?? '');
  const object = call.ctx.store.get(`/${target.resource}`, call.namespace, name)?.object;
  if (!object) throw errors.notFound({ group: '', resource: target.resource }, name);
  const uid = typeof ref['uid'] === 'string' ? ref['uid'] : '';
  if (uid !== '' && uid !== object.metadata.uid) {
    throw new StatusError(409, 'Conflict', `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (kind === 'Pod') {
    const podServiceAccount = (object['spec'] as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? 'default';
    if (podServiceAccount !== serviceAccount) throw errors.badRequest(`cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`);
  }
  return { kind: kind as 'Pod' | 'Secret', object };
}
