// GitHub delivery payloads in GitHub's shapes (trimmed to the fields a receiver might read), and signed
// deliveries: the same HMAC-SHA256 GitHub computes, by @octokit/webhooks-methods' sign().
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';

function repository(owner: string, name: string) {
  return {
    id: 1296269,
    node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
    name,
    full_name: `${owner}/${name}`,
    private: false,
    owner: { login: owner, id: 1, type: 'Organization', html_url: `https://github.com/${owner}` },
    html_url: `https://github.com/${owner}/${name}`,
    default_branch: 'main',
  };
}

const sender = { login: 'octocat', id: 583231, type: 'User' };

export function pushPayload(owner: string, name: string, options: { ref?: string; before?: string; after?: string } = {}) {
  const after = options.after ?? 'a'.repeat(40);
  const base = repository(owner, name);
  return {
    ref: options.ref ?? 'refs/heads/main',
    before: options.before ?? '0'.repeat(40),
    after,
    created: false,
    deleted: false,
    forced: false,
    compare: `https://github.com/${owner}/${name}/compare/000000000000...${after.slice(0, 12)}`,
    commits: [{ id: after, message: 'infra: scale the app', timestamp: '2026-11-24T22:00:00Z', added: ['infra/app/main.tf'], removed: [], modified: [] }],
    head_commit: { id: after, message: 'infra: scale the app', timestamp: '2026-11-24T22:00:00Z' },
    // A push payload's owner carries `name` besides `login`.
    repository: { ...base, owner: { ...base.owner, name: owner } },
    pusher: { name: 'octocat', email: 'octocat@github.com' },
    sender,
  };
}

export type PullRequestAction = 'opened' | 'synchronize' | 'closed' | 'reopened' | 'labeled';

export function pullRequestPayload(owner: string, name: string, action: PullRequestAction, options: { number?: number; head?: string; sha?: string; merged?: boolean } = {}) {
  const number = options.number ?? 7;
  const sha = options.sha ?? 'b'.repeat(40);
  const repo = repository(owner, name);
  const merged = options.merged ?? false;
  return {
    action,
    number,
    ...(action === 'synchronize' ? { before: 'c'.repeat(40), after: sha } : {}),
    pull_request: {
      id: 1000 + number,
      number,
      state: action === 'closed' ? 'closed' : 'open',
      title: 'Scale the app',
      merged,
      merge_commit_sha: merged ? 'd'.repeat(40) : null,
      head: { label: `${owner}:${options.head ?? 'feature/scale'}`, ref: options.head ?? 'feature/scale', sha, repo },
      base: { label: `${owner}:main`, ref: 'main', sha: 'e'.repeat(40), repo },
    },
    repository: repo,
    sender,
  };
}

export function pingPayload(owner: string, name: string) {
  return {
    zen: 'Keep it logically awesome.',
    hook_id: 42,
    hook: { type: 'Repository', id: 42, active: true, events: ['push', 'pull_request'], config: { content_type: 'json', insecure_ssl: '0', url: 'http://127.0.0.1/webhook' } },
    repository: repository(owner, name),
    sender,
  };
}

export interface Delivery {
  event: string;
  body: string;
  headers: Record<string, string>;
}

/** A delivery as GitHub sends it: JSON body, event, delivery id and (with a secret) the signature. */
export async function delivery(event: string, payload: unknown, options: { secret?: string; id?: string } = {}): Promise<Delivery> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/5a1f2c3',
    'x-github-event': event,
    'x-github-delivery': options.id ?? randomUUID(),
    'x-github-hook-id': '42',
  };
  if (options.secret !== undefined) headers['x-hub-signature-256'] = await sign(options.secret, body);
  return { event, body, headers };
}

/** POSTs (or sends with method) to url; resolves with the status and the parsed JSON answer. */
export async function send(url: string, d: { body?: string; headers?: Record<string, string> }, method = 'POST'): Promise<{ status: number; message: string | undefined; headers: Headers }> {
  const res = await fetch(url, { method, headers: d.headers ?? {}, ...(d.body !== undefined ? { body: d.body } : {}) });
  const text = await res.text();
  let message: string | undefined;
  try {
    message = (JSON.parse(text) as { message?: string }).message;
  } catch {
    message = undefined;
  }
  return { status: res.status, message, headers: res.headers };
}
