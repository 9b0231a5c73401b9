// One GitHub delivery → one answer. The order matters:
// 1. a GitLab delivery is 501 and anything else without X-GitHub-Event 400;
// 2. the signature is checked before anything in the body is believed (constant time, by webhooks-methods);
// 3. only then is the delivery id remembered, so that an unauthenticated sender cannot make a real delivery
//    look like a duplicate;
// 4. push and pull_request poke every Repository for their repository before the answer. A Kubernetes API
//    that is down makes the answer 503: GitHub then shows the delivery as failed and it can be redelivered
//    (by hand or through the redeliver API), where answering first and writing after, as upstream does,
//    would report success for a poke that never happened. The write is bounded by writeTimeoutMs, under
//    GitHub's 10 s limit. Only a handled delivery is remembered: a failed one is handled afresh when redelivered.
// The body and the secret never reach the log.
import type { IncomingHttpHeaders } from 'node:http';
import { verify } from '@octokit/webhooks-methods';
import type { Logger } from 'pino';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { SYNC_REQUESTED_AT_ANNOTATION } from '../api/constants.ts';
import { repositoriesResource } from '../api/resources.ts';
import type { Repository } from '../api/types.ts';
import type { DeliveryLog } from './delivery-log.ts';
import { decodePayload, repositoryOf, type GitHubRepositoryName } from './github-payload.ts';
import { findRepositories } from './repository-lookup.ts';
import { WebhookRequestError } from './request-error.ts';
import type { SyncStamp } from './sync-stamp.ts';
import { updateObject } from '../../runtime/index.ts';
import type { DeliveryOutcome, WebhookMetrics } from './webhook-metrics.ts';

export interface DeliveryHandlerOptions {
  client: KubeClient;
  logger: Logger;
  /** The webhook secret; undefined: signatures are not checked (--insecure-skip-signature). */
  secret: string | undefined;
  /** Only Repositories in this namespace are poked; all namespaces when undefined. */
  namespace: string | undefined;
  deliveries: DeliveryLog;
  metrics: WebhookMetrics;
  stamp: SyncStamp;
  /** How long finding and annotating the Repositories may take before the answer is 503. */
  writeTimeoutMs: number;
}

export interface WebhookAnswer {
  status: number;
  message: string;
}

/** The events that can change what the Repository controller syncs. */
const SYNC_EVENTS = new Set(['push', 'pull_request']);

export class DeliveryHandler {
  private readonly options: DeliveryHandlerOptions;

  constructor(options: DeliveryHandlerOptions) {
    this.options = options;
  }

  async handle(headers: IncomingHttpHeaders, body: Buffer, remoteAddress: string | undefined): Promise<WebhookAnswer> {
    const event = header(headers, 'x-github-event');
    const id = header(headers, 'x-github-delivery');
    const log = this.options.logger.child({ delivery: id, event });
    let claimed = false;
    try {
      if (event === undefined) {
        if (header(headers, 'x-gitlab-event') !== undefined) throw new WebhookRequestError(501, 'GitLab webhooks are not supported; only GitHub deliveries are handled');
        throw new WebhookRequestError(400, 'not a GitHub delivery: the X-GitHub-Event header is missing');
      }
      const text = body.toString('utf8');
      await this.authenticate(text, header(headers, 'x-hub-signature-256'));
      if (id !== undefined) {
        if (!this.options.deliveries.claim(id)) return this.answer(log, event, 'duplicate', 200, 'duplicate delivery: already handled');
        claimed = true;
      }
      const answer = await this.dispatch(log, event, header(headers, 'content-type'), text);
      claimed = false;
      return answer;
    } catch (error) {
      if (error instanceof WebhookRequestError) {
        const outcome = error.status === 401 ? 'unauthorized' : 'rejected';
        return this.answer(log.child(outcome === 'unauthorized' ? { remoteAddress } : {}), event, outcome, error.status, error.message);
      }
      log.error({ err: error }, 'could not request the Repository sync');
      return this.answer(log, event, 'failed', 503, 'could not request the sync: the Kubernetes API call failed (see the webhook server log); redeliver later');
    } finally {
      if (claimed && id !== undefined) this.options.deliveries.release(id);
    }
  }

  private async authenticate(text: string, signature: string | undefined): Promise<void> {
    const secret = this.options.secret;
    if (secret === undefined) return;
    if (signature === undefined) throw new WebhookRequestError(401, 'missing X-Hub-Signature-256: the webhook must be configured with the secret');
    // verify() refuses an empty payload outright; no payload is ever signed that way.
    if (text === '' || !(await verify(secret, text, signature))) throw new WebhookRequestError(401, 'the X-Hub-Signature-256 signature does not match');
  }

  private async dispatch(log: Logger, event: string, contentType: string | undefined, text: string): Promise<WebhookAnswer> {
    if (event === 'ping') return this.answer(log, event, 'ping', 200, 'pong');
    if (!SYNC_EVENTS.has(event)) return this.answer(log, event, 'ignored', 202, `ignored: ${event} events are not handled (only push, pull_request and ping are)`);
    const target = repositoryOf(decodePayload(contentType, text));
    const fullName = `${target.owner}/${target.name}`;
    const poked = await this.requestSync(target);
    if (poked.length === 0) return this.answer(log.child({ repository: fullName }), event, 'no_repository', 202, `ignored: no Repository is for ${fullName}`);
    return this.answer(log.child({ repository: fullName, repositories: poked }), event, 'synced', 202, `sync requested for ${fullName}`);
  }

  /**
   * Stamps every Repository for target and returns their namespace/name. Several Repositories for one GitHub
   * repository (in several namespaces, say, each with its own templates) are all poked: upstream picked the
   * first of the list and warned, which left the others unsynced until their 30-minute poll.
   */
  private async requestSync(target: GitHubRepositoryName): Promise<string[]> {
    const signal = AbortSignal.timeout(this.options.writeTimeoutMs);
    const { client, namespace, stamp } = this.options;
    const repositories = await findRepositories(client, target, { namespace, signal });
    const poked = await Promise.all(repositories.map((repository) => stampRepository(client, repository, stamp.next(), signal)));
    return poked.filter((name): name is string => name !== undefined);
  }

  private answer(log: Logger, event: string | undefined, outcome: DeliveryOutcome, status: number, message: string): WebhookAnswer {
    this.options.metrics.delivered(event, outcome);
    const level = outcome === 'failed' ? 'error' : outcome === 'unauthorized' || outcome === 'rejected' ? 'warn' : 'info';
    log[level]({ outcome, status }, message);
    return { status, message };
  }
}

/** Sets the annotation under conflict retry; undefined when the Repository was deleted meanwhile. */
async function stampRepository(client: KubeClient, repository: Repository, value: string, signal: AbortSignal): Promise<string | undefined> {
  const name = `${repository.metadata.namespace}/${repository.metadata.name}`;
  try {
    await updateObject(client, repositoriesResource, repository, (draft) => {
      draft.metadata.annotations = { ...draft.metadata.annotations, [SYNC_REQUESTED_AT_ANNOTATION]: value };
    }, { signal });
    return name;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** A header's value; a repeated header (which GitHub never sends) counts as its first. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}
