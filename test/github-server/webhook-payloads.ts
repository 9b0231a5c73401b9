// The bodies of the webhooks GitHub sends for the model's changes: push and pull_request, shaped as GitHub's
// webhook docs give them (the repository's owner carries `name` as well as `login` in push payloads).
import type { Commit, ModelEvent, Repository } from './model.ts';
import { pullJson, repositoryJson } from './shapes.ts';

/** GitHub lists at most 2048 commits in a push payload. */
const MAX_PUSH_COMMITS = 2048;
const SENDER = { login: 'test-user', id: 1, type: 'User' };

export function webhookRepository(repository: Repository, apiBase: string) {
  const json = repositoryJson(repository, apiBase);
  return { ...json, owner: { ...json.owner, name: repository.owner } };
}

export function eventPayload(event: ModelEvent, apiBase: string): { name: 'push' | 'pull_request'; payload: Record<string, unknown> } {
  const repository = webhookRepository(event.repository, apiBase);
  if (event.kind === 'push') {
    const commits = event.commits.slice(-MAX_PUSH_COMMITS).map((commit) => pushCommit(event.repository, commit));
    return {
      name: 'push',
      payload: {
        ref: `refs/heads/${event.branch}`,
        before: event.before,
        after: event.after,
        created: event.created,
        deleted: event.deleted,
        forced: event.forced,
        base_ref: null,
        compare: `https://github.test/${event.repository.owner}/${event.repository.name}/compare/${event.before.slice(0, 12)}...${event.after.slice(0, 12)}`,
        commits,
        head_commit: event.deleted ? null : (commits.at(-1) ?? null),
        repository,
        pusher: { name: SENDER.login, email: 'test-user@github.test' },
        sender: SENDER,
      },
    };
  }
  return {
    name: 'pull_request',
    payload: {
      action: event.action,
      number: event.pull.number,
      ...(event.action === 'synchronize' ? { before: event.before, after: event.pull.headSha } : {}),
      pull_request: { ...pullJson(event.repository, event.pull, apiBase), merged: event.pull.merged },
      repository,
      sender: SENDER,
    },
  };
}

function pushCommit(repository: Repository, commit: Commit) {
  const person = { name: 'Test Author', email: 'author@github.test', username: SENDER.login };
  const named = (status: string) => commit.files.filter((file) => file.status === status).map((file) => file.filename);
  return {
    id: commit.sha,
    tree_id: commit.sha,
    distinct: true,
    message: commit.message,
    timestamp: commit.at,
    url: `https://github.test/${repository.owner}/${repository.name}/commit/${commit.sha}`,
    author: person,
    committer: person,
    added: named('added'),
    removed: named('removed'),
    modified: named('modified'),
  };
}
