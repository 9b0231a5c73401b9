// Validating- and MutatingWebhookConfigurations (admissionregistration.k8s.io/v1) that point the API server at
// a WebhookServer: created or updated with the server's current URL and CA, and removed again. Bosun labels
// the configurations it writes, so that it can tell its own (possibly stale) ones from anybody else's.
import { isDeepStrictEqual } from 'node:util';
import { mutatingWebhookConfigurationsResource, validatingWebhookConfigurationsResource } from '../../apimachinery/builtin-resources.ts';
import {
  ADMISSION_REGISTRATION_GROUP,
  ADMISSION_REGISTRATION_VERSION,
  type MutatingWebhook,
  type MutatingWebhookConfiguration,
  type RuleWithOperations,
  type ServiceReference,
  type WebhookClientConfig,
} from '../../apimachinery/webhook-configuration.ts';
import type { KubeClient, ResourceRef } from '../../client/client.ts';
import { ConflictError, NotFoundError } from '../../client/errors.ts';

export type WebhookType = 'Validating' | 'Mutating';

export function webhookConfigurationResource(type: WebhookType): ResourceRef {
  return type === 'Validating' ? validatingWebhookConfigurationsResource : mutatingWebhookConfigurationsResource;
}

/** Marks configurations Bosun wrote; the component label names the controller family that serves them. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_BOSUN = 'bosun';
export const COMPONENT_LABEL = 'app.kubernetes.io/component';

/**
 * One webhook of a configuration: which writes go to which path of the server. Unset fields get the API server's
 * defaults, and sideEffects None; reinvocationPolicy applies to mutating webhooks only.
 */
export type WebhookDefinition = Pick<
  MutatingWebhook,
  'name' | 'failurePolicy' | 'sideEffects' | 'timeoutSeconds' | 'matchPolicy' | 'objectSelector' | 'namespaceSelector' | 'reinvocationPolicy'
> & {
  /** Path on the webhook server; appended to its URL. */
  path: string;
  rules: RuleWithOperations[];
};

export interface WebhookConfigurationSpec {
  type: WebhookType;
  name: string;
  /** The controller family serving it (the component label). */
  component: string;
  webhooks: WebhookDefinition[];
}

/** Where the API server reaches the handlers: the server's base URL and the CA it must trust (PEM). */
export interface WebhookEndpoint {
  url: string;
  caBundle: string;
}

/** Either kind: a validating webhook is a mutating one without reinvocationPolicy. */
export type WebhookConfigurationObject = MutatingWebhookConfiguration;

/** The API server has no admissionregistration.k8s.io/v1: admission webhooks cannot be configured there. */
export class WebhookConfigurationUnsupportedError extends Error {
  override readonly name = 'WebhookConfigurationUnsupportedError' as const;
}

const SERVICE_HOST = /^([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.svc$/;

/**
 * The Service a base URL `https://NAME.NAMESPACE.svc[:PORT][/PATH]` names. Such a URL is registered as
 * `clientConfig.service`, as in-cluster webhooks are: the API server resolves the Service to a pod itself
 * (it cannot look `.svc` names up in DNS) and verifies the certificate for `NAME.NAMESPACE.svc`.
 */
export function serviceOfUrl(url: string): ServiceReference | undefined {
  const parsed = new URL(url);
  const match = SERVICE_HOST.exec(parsed.hostname);
  if (!match) return undefined;
  const path = parsed.pathname.replace(/\/+$/, '');
  return { namespace: match[2] ?? '', name: match[1] ?? '', port: parsed.port === '' ? 443 : Number(parsed.port), ...(path !== '' ? { path } : {}) };
}

function clientConfigFor(endpoint: WebhookEndpoint, path: string, caBundle: string): WebhookClientConfig {
  const service = serviceOfUrl(endpoint.url);
  if (service) return { service: { ...service, path: `${service.path ?? ''}${path}` }, caBundle };
  return { url: `${endpoint.url.replace(/\/+$/, '')}${path}`, caBundle };
}

/** The configuration object as it will be written (without resourceVersion). */
export function buildWebhookConfiguration(spec: WebhookConfigurationSpec, endpoint: WebhookEndpoint): WebhookConfigurationObject {
  const caBundle = Buffer.from(endpoint.caBundle, 'utf8').toString('base64');
  return {
    apiVersion: `${ADMISSION_REGISTRATION_GROUP}/${ADMISSION_REGISTRATION_VERSION}`,
    kind: `${spec.type}WebhookConfiguration`,
    metadata: { name: spec.name, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_BOSUN, [COMPONENT_LABEL]: spec.component } },
    webhooks: spec.webhooks.map((w) => ({
      name: w.name,
      clientConfig: clientConfigFor(endpoint, w.path, caBundle),
      rules: w.rules.map((r) => ({ ...r, scope: r.scope ?? '*' })),
      failurePolicy: w.failurePolicy ?? 'Fail',
      sideEffects: w.sideEffects ?? 'None',
      timeoutSeconds: w.timeoutSeconds ?? 10,
      admissionReviewVersions: ['v1'],
      matchPolicy: w.matchPolicy ?? 'Equivalent',
      ...(w.objectSelector ? { objectSelector: w.objectSelector } : {}),
      ...(w.namespaceSelector ? { namespaceSelector: w.namespaceSelector } : {}),
      ...(spec.type === 'Mutating' ? { reinvocationPolicy: w.reinvocationPolicy ?? 'Never' } : {}),
    })),
  };
}

/** Every field we set has our value (the API server may have added defaults such as namespaceSelector: {}). */
function upToDate(current: WebhookConfigurationObject, desired: WebhookConfigurationObject): boolean {
  const have = current.webhooks ?? [];
  const want = desired.webhooks ?? [];
  if (have.length !== want.length) return false;
  if (!Object.entries(desired.metadata.labels ?? {}).every(([k, v]) => current.metadata.labels?.[k] === v)) return false;
  return want.every((w, i) => {
    const h = have[i];
    return h !== undefined && (Object.keys(w) as (keyof MutatingWebhook)[]).every((k) => isDeepStrictEqual(h[k], w[k]));
  });
}

/**
 * Creates the configuration or replaces its webhooks and labels (other fields and labels the API server
 * or an operator added stay). Returns what was written, or the unchanged object when it already matched.
 */
export async function applyWebhookConfiguration(client: KubeClient, spec: WebhookConfigurationSpec, endpoint: WebhookEndpoint): Promise<WebhookConfigurationObject> {
  const resource = webhookConfigurationResource(spec.type);
  const desired = buildWebhookConfiguration(spec, endpoint);
  for (let attempt = 0; ; attempt++) {
    let current: WebhookConfigurationObject | undefined;
    try {
      current = await client.get<WebhookConfigurationObject>(resource, spec.name);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    try {
      if (!current) return await client.create(resource, desired);
      // Unchanged on every start of every replica: no write, no churn.
      if (upToDate(current, desired)) return current;
      return await client.update(resource, {
        ...current,
        metadata: { ...current.metadata, labels: { ...current.metadata.labels, ...desired.metadata.labels } },
        webhooks: desired.webhooks,
      });
    } catch (err) {
      // Two replicas starting together race on create/update; the loser re-reads.
      if (err instanceof ConflictError && attempt < 5) continue;
      if (err instanceof NotFoundError && !current) {
        throw new WebhookConfigurationUnsupportedError(`the API server does not serve ${resource.group}/${resource.version} ${resource.resource}: ${err.message}`, { cause: err });
      }
      throw err;
    }
  }
}

export interface DeleteWebhookConfigurationOptions {
  /** Delete only when every webhook still calls this endpoint (nobody re-registered it elsewhere). */
  onlyIfEndpoint?: WebhookEndpoint;
  /** Delete only when it carries Bosun's managed-by label (default true). */
  onlyIfManagedByBosun?: boolean;
}

function pointsAt(obj: WebhookConfigurationObject, endpoint: WebhookEndpoint): boolean {
  const caBundle = Buffer.from(endpoint.caBundle, 'utf8').toString('base64');
  const base = endpoint.url.replace(/\/+$/, '');
  const service = serviceOfUrl(endpoint.url);
  return (obj.webhooks ?? []).every((w) => {
    // Written by anybody: clientConfig may be missing.
    const cc = w.clientConfig as MutatingWebhook['clientConfig'] | undefined;
    if (cc?.caBundle !== caBundle) return false;
    if (service) return cc.service?.namespace === service.namespace && cc.service.name === service.name && (cc.service.port ?? 443) === service.port;
    return typeof cc.url === 'string' && cc.url.startsWith(base);
  });
}

/** Deletes a configuration if it exists (and matches the conditions); true when it was deleted. */
export async function deleteWebhookConfiguration(client: KubeClient, type: WebhookType, name: string, options: DeleteWebhookConfigurationOptions = {}): Promise<boolean> {
  const resource = webhookConfigurationResource(type);
  let current: WebhookConfigurationObject;
  try {
    current = await client.get<WebhookConfigurationObject>(resource, name);
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
  if ((options.onlyIfManagedByBosun ?? true) && current.metadata.labels?.[MANAGED_BY_LABEL] !== MANAGED_BY_BOSUN) return false;
  if (options.onlyIfEndpoint && !pointsAt(current, options.onlyIfEndpoint)) return false;
  try {
    // The precondition keeps a configuration that changed since we read it (another replica took over).
    await client.delete(resource, name, { preconditions: { ...(current.metadata.uid ? { uid: current.metadata.uid } : {}), ...(current.metadata.resourceVersion ? { resourceVersion: current.metadata.resourceVersion } : {}) } });
    return true;
  } catch (err) {
    if (err instanceof NotFoundError || err instanceof ConflictError) return false;
    throw err;
  }
}

export interface PruneWebhookConfigurationsOptions {
  /** Only configurations of these components (families); all of Bosun's when omitted. */
  components?: readonly string[];
  /** Names (per type) that stay. */
  keep?: readonly { type: WebhookType; name: string }[];
}

/**
 * Deletes Bosun's configurations that nothing serves any more, e.g. left by a process that was killed:
 * with failurePolicy Fail, a configuration that points at a dead port blocks every write it matches.
 * Returns the names deleted. An API server without admissionregistration has nothing to prune.
 */
export async function pruneWebhookConfigurations(client: KubeClient, options: PruneWebhookConfigurationsOptions = {}): Promise<string[]> {
  const deleted: string[] = [];
  for (const type of ['Validating', 'Mutating'] as const) {
    let items: WebhookConfigurationObject[];
    try {
      items = (await client.list<WebhookConfigurationObject>(webhookConfigurationResource(type), { labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_BOSUN}` })).items;
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      throw err;
    }
    for (const item of items) {
      const name = item.metadata.name ?? '';
      const component = item.metadata.labels?.[COMPONENT_LABEL] ?? '';
      if (options.components && !options.components.includes(component)) continue;
      if (options.keep?.some((k) => k.type === type && k.name === name)) continue;
      if (await deleteWebhookConfiguration(client, type, name)) deleted.push(`${type}WebhookConfiguration/${name}`);
    }
  }
  return deleted;
}
