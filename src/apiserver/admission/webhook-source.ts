// The webhooks in force, read from the store on every request (so a configuration written a moment ago applies to
// the next request, with no polling) and compiled once per configuration revision: parsed selectors, compiled
// matchConditions, and per webhook a keep-alive https Agent that trusts its caBundle (or the system roots). A
// service reference is resolved to a pod address on each call (endpoints change without the configuration).
import { Agent } from 'node:https';
import { createSecureContext } from 'node:tls';
import { ADMISSION_REVIEW_VERSIONS, type AdmissionReviewVersion } from '../../apimachinery/admission-review.ts';
import { fromLabelSelectorObject, type LabelSelector } from '../../apimachinery/label-selector.ts';
import {
  ADMISSION_REGISTRATION_GROUP,
  MUTATING_WEBHOOK_CONFIGURATIONS,
  VALIDATING_WEBHOOK_CONFIGURATIONS,
  type FailurePolicy,
  type MatchPolicy,
  type MutatingWebhook,
  type RuleWithOperations,
  type SideEffectClass,
  type WebhookClientConfig,
} from '../../apimachinery/webhook-configuration.ts';
import { compileMatchCondition, type CompiledMatchCondition } from '../admissionregistration/match-conditions.ts';
import { storageKey } from '../registry/resource-type.ts';
import { serviceServerName, type ServiceTarget } from './webhook-service-resolver.ts';
import type { SqliteStore, StoredObject } from '../storage/sqlite-store.ts';

/**
 * Where a webhook is called, or why it cannot be (a call error, so failurePolicy decides). For a service reference
 * `url` is `https://NAME.NAMESPACE.svc:PORT/PATH` (what kube prints and sends as Host) and `service` says which
 * Service to resolve to a pod address on each call; the certificate is verified against that server name.
 */
export type WebhookEndpoint = { url: URL; agent: Agent; service?: ServiceTarget } | { error: string };

export interface CompiledWebhook {
  /** Unique among the webhooks in force: configuration, index and name. */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly rules: readonly RuleWithOperations[];
  readonly failurePolicy: FailurePolicy;
  readonly matchPolicy: MatchPolicy;
  readonly sideEffects: SideEffectClass | undefined;
  readonly timeoutSeconds: number;
  readonly reinvokeIfNeeded: boolean;
  readonly namespaceSelector: LabelSelector;
  readonly objectSelector: LabelSelector;
  readonly matchConditions: readonly CompiledMatchCondition[];
  readonly reviewVersion: AdmissionReviewVersion | undefined;
  readonly endpoint: WebhookEndpoint;
}

export const validatingConfigurationsKey = storageKey({ group: ADMISSION_REGISTRATION_GROUP, plural: VALIDATING_WEBHOOK_CONFIGURATIONS });
export const mutatingConfigurationsKey = storageKey({ group: ADMISSION_REGISTRATION_GROUP, plural: MUTATING_WEBHOOK_CONFIGURATIONS });

function endpointOf(config: WebhookClientConfig, timeoutSeconds: number, agents: Agent[]): WebhookEndpoint {
  let ca: string | undefined;
  if (config.caBundle) {
    ca = Buffer.from(config.caBundle, 'base64').toString('utf8');
    try {
      createSecureContext({ ca });
    } catch {
      return { error: 'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block' };
    }
  }
  const ref = config.service;
  const service = ref ? { namespace: ref.namespace, name: ref.name, port: ref.port ?? 443 } : undefined;
  const url = service ? new URL(`https://${serviceServerName(service)}:${service.port}${ref?.path ?? ''}`) : new URL(config.url ?? '');
  // kube-apiserver's REST client tells the webhook its deadline.
  url.searchParams.set('timeout', `${timeoutSeconds}s`);
  const agent = new Agent({ keepAlive: true, ...(ca !== undefined ? { ca } : {}) });
  agents.push(agent);
  return { url, agent, ...(service ? { service } : {}) };
}

function compile(stored: StoredObject, mutating: boolean, agents: Agent[]): CompiledWebhook[] {
  const configurationName = stored.object.metadata.name ?? '';
  const webhooks = (stored.object['webhooks'] ?? []) as MutatingWebhook[];
  return webhooks.map((webhook, index) => {
    const timeoutSeconds = webhook.timeoutSeconds ?? 10;
    return {
      uid: `${configurationName}/${index}/${webhook.name}`,
      configurationName,
      name: webhook.name,
      rules: webhook.rules ?? [],
      failurePolicy: webhook.failurePolicy ?? 'Fail',
      matchPolicy: webhook.matchPolicy ?? 'Equivalent',
      sideEffects: webhook.sideEffects,
      timeoutSeconds,
      reinvokeIfNeeded: mutating && webhook.reinvocationPolicy === 'IfNeeded',
      namespaceSelector: fromLabelSelectorObject(webhook.namespaceSelector ?? {}),
      objectSelector: fromLabelSelectorObject(webhook.objectSelector ?? {}),
      matchConditions: (webhook.matchConditions ?? []).map((c) => ({ name: c.name, expression: c.expression, program: compileMatchCondition(c.expression) })),
      reviewVersion: webhook.admissionReviewVersions.find((v): v is AdmissionReviewVersion => (ADMISSION_REVIEW_VERSIONS as readonly string[]).includes(v)),
      endpoint: endpointOf(webhook.clientConfig, timeoutSeconds, agents),
    };
  });
}

interface CacheEntry {
  revision: number;
  webhooks: CompiledWebhook[];
  agents: Agent[];
}

/** A replaced agent may still carry a call; every call ends within the longest timeoutSeconds (30 s). */
const retireAfterMs = 31_000;

export class WebhookSource {
  private readonly store: SqliteStore;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly retired = new Set<Agent>();

  constructor(store: SqliteStore) {
    this.store = store;
  }

  /** Cheap: whether any configuration of the kind exists at all. */
  any(mutating: boolean): boolean {
    return this.store.count(mutating ? mutatingConfigurationsKey : validatingConfigurationsKey) > 0;
  }

  /** The webhooks in force, ordered by configuration name and then by their order in the configuration. */
  webhooks(mutating: boolean): CompiledWebhook[] {
    const key = mutating ? mutatingConfigurationsKey : validatingConfigurationsKey;
    const configurations = this.store.list(key).sort((a, b) => ((a.object.metadata.name ?? '') < (b.object.metadata.name ?? '') ? -1 : 1));
    const seen = new Set<string>();
    const out: CompiledWebhook[] = [];
    for (const stored of configurations) {
      const cacheKey = `${key}/${stored.object.metadata.name ?? ''}`;
      seen.add(cacheKey);
      let entry = this.cache.get(cacheKey);
      if (!entry || entry.revision !== stored.revision) {
        if (entry) this.retire(entry.agents);
        const agents: Agent[] = [];
        entry = { revision: stored.revision, webhooks: compile(stored, mutating, agents), agents };
        this.cache.set(cacheKey, entry);
      }
      out.push(...entry.webhooks);
    }
    // Configurations that are gone take their connections with them.
    for (const [cacheKey, entry] of this.cache) {
      if (cacheKey.startsWith(`${key}/`) && !seen.has(cacheKey)) {
        this.retire(entry.agents);
        this.cache.delete(cacheKey);
      }
    }
    return out;
  }

  private retire(agents: readonly Agent[]): void {
    for (const agent of agents) {
      this.retired.add(agent);
      setTimeout(() => {
        agent.destroy();
        this.retired.delete(agent);
      }, retireAfterMs).unref();
    }
  }

  close(): void {
    for (const entry of this.cache.values()) for (const agent of entry.agents) agent.destroy();
    for (const agent of this.retired) agent.destroy();
    this.cache.clear();
    this.retired.clear();
  }
}
