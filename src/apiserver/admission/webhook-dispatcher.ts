// Calls the webhooks that apply to a request, as kube-apiserver's mutating and validating dispatchers do.
// Mutating webhooks run one after another (configuration name, then webhook order), each JSON patch applied
// before the next is called; webhooks with reinvocationPolicy IfNeeded are called once more when a later webhook
// changed the object. Validating webhooks run in parallel; the first refusal in webhook order is the answer.
import { randomUUID } from 'node:crypto';
import type { AdmissionOperation } from '../../apimachinery/admission-review.ts';
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { matchesLabels, type LabelSelector } from '../../apimachinery/label-selector.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { evaluateMatchConditions } from '../admissionregistration/match-conditions.ts';
import { userInfoJson, type UserInfo } from '../auth/user-info.ts';
import { applyJsonPatch, decodeJsonPatch, type JsonPatchOperation } from '../patch/json-patch.ts';
import { compareVersions, type ResourceRegistry } from '../registry/registry.ts';
import { groupResource, type ResourceType } from '../registry/resource-type.ts';
import { jsonEqual } from '../schema/field-schema.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import { admissionForbidden, dryRunUnsupported, internalError, webhookCallFailed, webhookDenied } from './admission-errors.ts';
import {
  admissionRequest,
  admissionReview,
  InvalidAdmissionResponseError,
  verifyAdmissionResponse,
  type CheckedAdmissionResponse,
} from './admission-review.ts';
import { ruleMatches, type RuleTarget } from './rule-matcher.ts';
import { postAdmissionReview, printedUrl, WebhookCallError, type InProcessWebhooks } from './webhook-client.ts';
import { isWebhookConfigurationKind } from './webhook-configuration.ts';
import { resolveServiceEndpoint, ServiceResolutionError, type ResolvedEndpoint, type ServiceTarget } from './webhook-service-resolver.ts';
import { WebhookSource, type CompiledWebhook } from './webhook-source.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** One request as admission sees it. */
export interface AdmissionAttributes {
  /** Who asked for the write: the AdmissionReview's userInfo. */
  readonly user: UserInfo;
  /** The resource as requested (group, version, kind, plural). */
  readonly type: ResourceType;
  readonly operation: AdmissionOperation;
  /** `''` for the main resource, else e.g. `status`. */
  readonly subresource: string;
  /** The name from the request: empty for a create with generateName. */
  readonly name: string;
  /** The request's namespace; for a Namespace object its own name, as in kube-apiserver. */
  readonly namespace: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions (apiVersion meta.k8s.io/v1). */
  readonly options: Record<string, unknown>;
}

export interface MutationResult {
  object: KubeObject | undefined;
  warnings: string[];
}

/** A webhook selected for a request, with the version its rule matched (matchPolicy Equivalent may pick another). */
interface Invocation {
  readonly webhook: CompiledWebhook;
  readonly type: ResourceType;
}

/** An error that carries the warnings gathered before it, so the answer still shows them. */
export interface WarningCarrier {
  admissionWarnings?: string[];
}

function withWarnings(error: unknown, warnings: readonly string[]): unknown {
  if (error instanceof StatusError && warnings.length > 0) (error as StatusError & WarningCarrier).admissionWarnings = [...warnings];
  return error;
}

function addWarnings(into: string[], more: readonly string[]): void {
  for (const w of more) if (!into.includes(w)) into.push(w);
}

function labelsOf(object: KubeObject | undefined): Record<string, string> | undefined {
  return object && isPlainObject(object.metadata) ? object.metadata.labels : undefined;
}

function selects(selector: LabelSelector, object: KubeObject | undefined): boolean {
  return object !== undefined && matchesLabels(selector, labelsOf(object) ?? {});
}

/** The object as another served version of the same resource sees it (CRD conversion strategy None). */
function asVersion(object: KubeObject | undefined, type: ResourceType): KubeObject | undefined {
  if (!object) return undefined;
  return { ...structuredClone(object), apiVersion: apiVersionOf(type) };
}

export class WebhookDispatcher {
  readonly source: WebhookSource;
  /** Webhooks this process serves itself, called without HTTPS; others keep the network path. */
  inProcess: InProcessWebhooks | undefined;
  private readonly store: SqliteStore;
  private readonly registry: ResourceRegistry;

  constructor(parts: { store: SqliteStore; registry: ResourceRegistry }) {
    this.store = parts.store;
    this.registry = parts.registry;
    this.source = new WebhookSource(parts.store);
  }

  /** False when no webhook can apply (none configured, or a request on the webhook configurations themselves). */
  applies(type: ResourceType): boolean {
    if (isWebhookConfigurationKind(type.group, type.kind)) return false;
    return this.source.any(true) || this.source.any(false);
  }

  async mutate(attrs: AdmissionAttributes): Promise<MutationResult> {
    const warnings: string[] = [];
    if (isWebhookConfigurationKind(attrs.type.group, attrs.type.kind) || !this.source.any(true)) return { object: attrs.object, warnings };
    const hooks = this.source.webhooks(true);
    let object = attrs.object;
    const invokedReinvocable = new Set<string>();
    const reinvoke = new Set<string>();
    try {
      for (const round of [0, 1]) {
        if (round === 1 && reinvoke.size === 0) break;
        const again = new Set(reinvoke);
        for (const webhook of hooks) {
          // A second round only calls webhooks that asked for it and saw the object change after them.
          if (round === 1 && !again.has(webhook.uid)) continue;
          const current = { ...attrs, object };
          const invocation = this.invocationFor(webhook, current);
          if (!invocation) continue;
          const patched = await this.callMutating(invocation, current, warnings);
          if (patched !== undefined) {
            object = patched;
            for (const uid of invokedReinvocable) reinvoke.add(uid);
          }
          if (webhook.reinvokeIfNeeded) invokedReinvocable.add(webhook.uid);
        }
      }
    } catch (error) {
      throw withWarnings(error, warnings);
    }
    return { object, warnings };
  }

  /** Resolves with the webhooks' warnings, or rejects with the first refusal (in webhook order). */
  async validate(attrs: AdmissionAttributes): Promise<string[]> {
    const warnings: string[] = [];
    if (isWebhookConfigurationKind(attrs.type.group, attrs.type.kind) || !this.source.any(false)) return warnings;
    const invocations: Invocation[] = [];
    for (const webhook of this.source.webhooks(false)) {
      const invocation = this.invocationFor(webhook, attrs);
      if (invocation) invocations.push(invocation);
    }
    const outcomes = await Promise.all(
      invocations.map((invocation) =>
        this.callValidating(invocation, attrs).then(
          (found) => ({ warnings: found, error: undefined as unknown }),
          (error: unknown) => ({ warnings: (error as WarningCarrier).admissionWarnings ?? [], error }),
        ),
      ),
    );
    for (const outcome of outcomes) addWarnings(warnings, outcome.warnings);
    const failed = outcomes.find((o) => o.error !== undefined);
    if (failed) throw withWarnings(failed.error, warnings);
    return warnings;
  }

  close(): void {
    this.source.close();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Matching (generic.Webhook.ShouldCallHook)

  private target(attrs: AdmissionAttributes, type: ResourceType): RuleTarget {
    return {
      operation: attrs.operation,
      resource: { group: type.group, version: type.version, resource: type.plural },
      subresource: attrs.subresource,
      namespace: attrs.namespace,
    };
  }

  /** Other served versions of the requested resource, by version priority. */
  private equivalents(type: ResourceType): ResourceType[] {
    return this.registry
      .all()
      .filter((t) => t.group === type.group && t.plural === type.plural && t.version !== type.version)
      .sort((a, b) => compareVersions(a.version, b.version));
  }

  private matchedType(webhook: CompiledWebhook, attrs: AdmissionAttributes): ResourceType | undefined {
    const requested = this.target(attrs, attrs.type);
    if (webhook.rules.some((rule) => ruleMatches(rule, requested))) return attrs.type;
    if (webhook.matchPolicy !== 'Equivalent') return undefined;
    const equivalents = this.equivalents(attrs.type);
    // Earlier rules win, as upstream honours rule order first.
    for (const rule of webhook.rules) {
      for (const type of equivalents) if (ruleMatches(rule, this.target(attrs, type))) return type;
    }
    return undefined;
  }

  private namespaceLabels(attrs: AdmissionAttributes): Record<string, string> {
    const isNamespace = attrs.type.group === '' && attrs.type.plural === 'namespaces';
    // A Namespace being created or updated is matched on its own (new) labels: the store does not have them yet.
    if (isNamespace && attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) return labelsOf(attrs.object) ?? {};
    const namespace = this.store.get('/namespaces', '', attrs.namespace);
    if (!namespace) throw errors.notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
    return namespace.object.metadata.labels ?? {};
  }

  private namespaceMatches(webhook: CompiledWebhook, attrs: AdmissionAttributes): boolean {
    const isNamespace = attrs.type.group === '' && attrs.type.plural === 'namespaces';
    // Cluster-scoped resources other than namespaces are never exempted by a namespaceSelector.
    if (attrs.namespace === '' && !isNamespace) return true;
    if (webhook.namespaceSelector.length === 0) return true;
    return matchesLabels(webhook.namespaceSelector, this.namespaceLabels(attrs));
  }

  private invocationFor(webhook: CompiledWebhook, attrs: AdmissionAttributes): Invocation | undefined {
    const type = this.matchedType(webhook, attrs);
    if (!type) return undefined;
    if (!this.namespaceMatches(webhook, attrs)) return undefined;
    if (webhook.objectSelector.length > 0 && !selects(webhook.objectSelector, attrs.object) && !selects(webhook.objectSelector, attrs.oldObject)) {
      return undefined;
    }
    if (webhook.matchConditions.length > 0) {
      const converted = type !== attrs.type;
      const result = evaluateMatchConditions(webhook.matchConditions, {
        object: converted ? asVersion(attrs.object, type) : attrs.object,
        oldObject: converted ? asVersion(attrs.oldObject, type) : attrs.oldObject,
        request: this.request(randomUUID(), { webhook, type }, attrs),
      });
      if (!result.matches) return undefined;
      if (result.error !== undefined) {
        if (webhook.failurePolicy === 'Ignore') return undefined;
        throw admissionForbidden(groupResource(attrs.type), attrs.name, result.error);
      }
    }
    return { webhook, type };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Calling

  private request(uid: string, invocation: Invocation, attrs: AdmissionAttributes) {
    const { type } = invocation;
    const converted = type !== attrs.type;
    return admissionRequest({
      uid,
      kind: { group: type.group, version: type.version, kind: type.kind },
      resource: { group: type.group, version: type.version, resource: type.plural },
      subResource: attrs.subresource,
      requestKind: { group: attrs.type.group, version: attrs.type.version, kind: attrs.type.kind },
      requestResource: { group: attrs.type.group, version: attrs.type.version, resource: attrs.type.plural },
      requestSubResource: attrs.subresource,
      name: attrs.name,
      namespace: attrs.namespace,
      operation: attrs.operation,
      userInfo: userInfoJson(attrs.user),
      object: converted ? asVersion(attrs.object, type) : attrs.object,
      oldObject: converted ? asVersion(attrs.oldObject, type) : attrs.oldObject,
      dryRun: attrs.dryRun,
      options: attrs.options,
    });
  }

  /** One round trip; transport and protocol failures come back as WebhookCallError (failurePolicy decides). */
  private async call(invocation: Invocation, attrs: AdmissionAttributes, mutating: boolean): Promise<CheckedAdmissionResponse> {
    const { webhook } = invocation;
    if (attrs.dryRun && webhook.sideEffects !== 'None' && webhook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(webhook.name);
    const endpoint = webhook.endpoint;
    if ('error' in endpoint) throw new WebhookCallError(endpoint.error);
    const version = webhook.reviewVersion;
    if (!version) throw new WebhookCallError('could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
    const uid = randomUUID();
    const body = JSON.stringify(admissionReview(version, this.request(uid, invocation, attrs)));
    const dial = endpoint.service ? this.resolve(endpoint.url, endpoint.service) : undefined;
    const answer = await postAdmissionReview({ url: endpoint.url, agent: endpoint.agent, body, timeoutMs: webhook.timeoutSeconds * 1000, ...(dial ? { dial } : {}) }, this.inProcess);
    try {
      return verifyAdmissionResponse(version, uid, mutating, answer);
    } catch (error) {
      if (error instanceof InvalidAdmissionResponseError) throw new WebhookCallError(`received invalid webhook response: ${error.message}`);
      throw error;
    }
  }

  /** A ready pod address of the webhook's Service; a call failure (as kube's dialer reports it) when there is none. */
  private resolve(url: URL, service: ServiceTarget): ResolvedEndpoint {
    try {
      return resolveServiceEndpoint(this.store, service);
    } catch (error) {
      if (!(error instanceof ServiceResolutionError)) throw error;
      throw new WebhookCallError(`failed to call webhook: Post ${JSON.stringify(printedUrl(url, true))}: ${error.message}`);
    }
  }

  /** Resolves with the warnings; rejects with a denial, or a call failure under failurePolicy Fail. */
  private async callValidating(invocation: Invocation, attrs: AdmissionAttributes): Promise<string[]> {
    let response: CheckedAdmissionResponse;
    try {
      response = await this.call(invocation, attrs, false);
    } catch (error) {
      if (!(error instanceof WebhookCallError)) throw error;
      if (invocation.webhook.failurePolicy === 'Ignore') return [];
      throw webhookCallFailed(invocation.webhook.name, error.message);
    }
    if (!response.allowed) throw withWarnings(webhookDenied(invocation.webhook.name, response.result), response.warnings);
    return response.warnings;
  }

  /** The patched object, or undefined when the webhook left it as it was (or failed open). */
  private async callMutating(invocation: Invocation, attrs: AdmissionAttributes, warnings: string[]): Promise<KubeObject | undefined> {
    const { webhook } = invocation;
    let ops: JsonPatchOperation[];
    try {
      const response = await this.call(invocation, attrs, true);
      addWarnings(warnings, response.warnings);
      if (!response.allowed) throw webhookDenied(webhook.name, response.result);
      if (!response.patch) return undefined;
      if (response.patchType !== 'JSONPatch') throw new WebhookCallError(`unsupported patch type ${JSON.stringify(response.patchType)}`);
      try {
        ops = decodeJsonPatch(JSON.parse(response.patch.toString('utf8')));
      } catch (error) {
        throw new WebhookCallError(`received undecodable patch in webhook response: ${messageOf(error)}`);
      }
    } catch (error) {
      if (!(error instanceof WebhookCallError)) throw error;
      if (webhook.failurePolicy === 'Ignore') return undefined;
      throw webhookCallFailed(webhook.name, error.message);
    }
    if (ops.length === 0) return undefined;
    if (!attrs.object) throw internalError(`admission webhook ${JSON.stringify(webhook.name)} attempted to modify the object, which is not supported for this operation`);
    const converted = invocation.type !== attrs.type;
    let patched: unknown;
    try {
      patched = applyJsonPatch(converted ? asVersion(attrs.object, invocation.type) : attrs.object, ops);
    } catch (error) {
      if (!(error instanceof StatusError)) throw error;
      throw internalError(error.details?.causes?.[0]?.message ?? error.message);
    }
    if (!isPlainObject(patched) || !isPlainObject(patched['metadata'])) {
      throw internalError(`admission webhook ${JSON.stringify(webhook.name)} returned a patch that does not produce an object with metadata`);
    }
    const result = (converted ? { ...patched, apiVersion: apiVersionOf(attrs.type) } : patched) as KubeObject;
    return jsonEqual(result, attrs.object) ? undefined : result;
  }
}
