// Webhook deliveries: signed (X-Hub-Signature-256, HMAC-SHA256 of the raw body), asynchronous, recorded with
// their answer, and redeliverable with the same X-GitHub-Delivery GUID, as GitHub's "Redeliver" button does.
// Deliveries to one hook go out one at a time, in order; GitHub does not retry, nor does this.
import { createHmac, randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { GitHubTestServerError } from './errors.ts';
import type { Repository } from './model.ts';
import { webhookRepository } from './webhook-payloads.ts';

export interface WebhookOptions {
  url: string;
  secret: string;
  /** The events this hook wants; default every event. "ping" always goes. */
  events?: string[];
}

export interface Delivery {
  /** X-GitHub-Delivery: the same for a redelivery. */
  guid: string;
  hookId: number;
  event: string;
  payload: Record<string, unknown>;
  redelivery: boolean;
  at: string;
  /** The receiver's status code; 0 when it could not be reached; undefined while in flight. */
  status: number | undefined;
  error?: string;
}

interface Hook extends WebhookOptions {
  id: number;
  repositoryId: number;
  /** The previous delivery to this hook, so the next waits for it. */
  tail: Promise<void>;
}

const DELIVERY_TIMEOUT_MS = 10_000;

export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  private readonly hooks: Hook[] = [];
  private nextHookId = 1;
  private readonly abort = new AbortController();

  constructor(private readonly apiBase: () => string) {}

  /** Registers a hook and pings it, as GitHub does on creation; the hook's id. */
  add(repository: Repository, options: WebhookOptions): number {
    const hook: Hook = { ...options, id: this.nextHookId++, repositoryId: repository.id, tail: Promise.resolve() };
    this.hooks.push(hook);
    this.send(hook, 'ping', {
      zen: 'Keep it logically awesome.',
      hook_id: hook.id,
      hook: { id: hook.id, type: 'Repository', active: true, events: options.events ?? ['*'], config: { url: options.url, content_type: 'json', insecure_ssl: '0' } },
      repository: webhookRepository(repository, this.apiBase()),
      sender: { login: 'test-user', id: 1, type: 'User' },
    });
    return hook.id;
  }

  /** Whether any hook listens to the repository (payloads are built only then). */
  watches(repository: Repository): boolean {
    return this.hooks.some((hook) => hook.repositoryId === repository.id);
  }

  /** Sends an event to every hook of the repository that wants it; the deliveries started. */
  deliver(repository: Repository, event: string, payload: Record<string, unknown>): Delivery[] {
    return this.hooks
      .filter((hook) => hook.repositoryId === repository.id && (hook.events === undefined || hook.events.includes(event) || hook.events.includes('*')))
      .map((hook) => this.send(hook, event, payload));
  }

  /** Sends a past delivery again, with its GUID. */
  redeliver(guid: string): Delivery {
    const original = this.deliveries.find((delivery) => delivery.guid === guid);
    const hook = this.hooks.find((candidate) => candidate.id === original?.hookId);
    if (original === undefined || hook === undefined) throw new GitHubTestServerError(`no delivery ${guid}`);
    return this.send(hook, original.event, original.payload, guid);
  }

  /** Resolves when every delivery started so far has its answer. */
  async idle(): Promise<void> {
    await Promise.all(this.hooks.map((hook) => hook.tail));
  }

  close(): void {
    this.abort.abort();
  }

  private send(hook: Hook, event: string, payload: Record<string, unknown>, redeliveryOf?: string): Delivery {
    const delivery: Delivery = {
      guid: redeliveryOf ?? randomUUID(),
      hookId: hook.id,
      event,
      payload,
      redelivery: redeliveryOf !== undefined,
      at: new Date().toISOString(),
      status: undefined,
    };
    this.deliveries.push(delivery);
    hook.tail = hook.tail.then(() => this.post(hook, delivery));
    return delivery;
  }

  private async post(hook: Hook, delivery: Delivery): Promise<void> {
    const body = JSON.stringify(delivery.payload);
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/bosun-test',
          'x-github-event': delivery.event,
          'x-github-delivery': delivery.guid,
          'x-github-hook-id': String(hook.id),
          'x-github-hook-installation-target-type': 'repository',
          'x-github-hook-installation-target-id': String(hook.repositoryId),
          'x-hub-signature': `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`,
          'x-hub-signature-256': await sign(hook.secret, body),
        },
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await response.arrayBuffer();
      delivery.status = response.status;
    } catch (error) {
      delivery.status = 0;
      delivery.error = error instanceof Error ? error.message : String(error);
    }
  }
}
