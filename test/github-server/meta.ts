// The /_meta admin API: what the GitHubTestServer methods do, over HTTP with JSON, so a README can drive the
// server with curl. Not part of GitHub's API: no auth, no faults, not in `calls`.
import { GitHubTestServerError } from './errors.ts';
import type { FaultKind } from './faults.ts';
import { HttpError, objectBody, ok, type ApiRequest, type ApiResponse } from './http.ts';
import type { FileChange } from './model.ts';
import type { Params, Router } from './router.ts';
import type { GitHubTestServer } from './index.ts';

export function metaRoutes(router: Router, gh: GitHubTestServer): void {
  const on = (method: string, pattern: string, handler: (body: Record<string, unknown>, params: Params, request: ApiRequest) => ApiResponse) =>
    router.on(method, pattern, (request, params) => adminCall(() => handler(objectBody(request), params, request)));
  const owner = (params: Params) => params.owner ?? '';
  const repo = (params: Params) => params.repo ?? '';

  on('POST', 'repos', (body) => {
    const name = string(body, 'name');
    gh.createRepository(string(body, 'owner'), name, { defaultBranch: optionalString(body, 'default_branch') });
    return { status: 201, body: summary(gh, string(body, 'owner'), name) };
  });
  on('GET', 'repos/:owner/:repo', (_body, params) => ok(summary(gh, owner(params), repo(params))));
  on('POST', 'repos/:owner/:repo/commits', (body, params) => {
    const files = body.files;
    if (!Array.isArray(files)) throw new HttpError(400, '"files" must be a list of file names or { filename, status }');
    const sha = gh.commit(owner(params), repo(params), {
      branch: string(body, 'branch'),
      files: files as FileChange[],
      message: optionalString(body, 'message'),
      from: optionalString(body, 'from'),
    });
    return { status: 201, body: { sha } };
  });
  on('PUT', 'repos/:owner/:repo/branches/*branch', (body, params) => {
    const repository = gh.model.get(owner(params), repo(params));
    const branch = params.branch ?? '';
    if (repository.branches.has(branch)) gh.setBranchHead(owner(params), repo(params), branch, string(body, 'sha'));
    else gh.createBranch(owner(params), repo(params), branch, optionalString(body, 'sha'));
    return ok({ name: branch, sha: gh.branchHead(owner(params), repo(params), branch) });
  });
  on('DELETE', 'repos/:owner/:repo/branches/*branch', (_body, params) => {
    gh.deleteBranch(owner(params), repo(params), params.branch ?? '');
    return { status: 204 };
  });
  on('POST', 'repos/:owner/:repo/pulls', (body, params) => {
    const number = gh.openPullRequest(owner(params), repo(params), { head: string(body, 'head'), base: string(body, 'base'), title: optionalString(body, 'title') });
    return { status: 201, body: { number } };
  });
  on('POST', 'repos/:owner/:repo/pulls/:number/close', (body, params) => {
    gh.closePullRequest(owner(params), repo(params), Number(params.number), { merged: body.merged === true });
    return ok(summary(gh, owner(params), repo(params)));
  });
  on('GET', 'repos/:owner/:repo/check-runs', (_body, params) => ok(gh.checkRuns(owner(params), repo(params))));
  on('POST', 'tokens', (body) => {
    gh.addToken(string(body, 'token'));
    return { status: 204 };
  });
  on('POST', 'apps', () => ({ status: 201, body: gh.createApp() }));
  on('POST', 'repos/:owner/:repo/webhooks', (body, params) => {
    const events = body.events;
    if (events !== undefined && !(Array.isArray(events) && events.every((e) => typeof e === 'string'))) throw new HttpError(400, '"events" must be a list of event names');
    const id = gh.addWebhook(owner(params), repo(params), { url: string(body, 'url'), secret: string(body, 'secret'), ...(events === undefined ? {} : { events: events as string[] }) });
    return { status: 201, body: { id } };
  });
  on('POST', 'repos/:owner/:repo/events/:event', (body, params) => ({ status: 202, body: gh.deliver(owner(params), repo(params), params.event ?? '', body) }));
  on('GET', 'deliveries', () => ok(gh.deliveries));
  on('POST', 'deliveries/:guid/redeliver', (_body, params) => ({ status: 202, body: gh.redeliver(params.guid ?? '') }));
  on('GET', 'calls', () => ok(gh.calls));
  on('DELETE', 'calls', () => {
    gh.resetCalls();
    return { status: 204 };
  });
  on('GET', 'faults', () => ok({ injected: gh.faultsInjected, tokensIssued: gh.tokensIssued }));
  on('PUT', 'faults', (body) => {
    const kinds = body.kinds;
    if (!Array.isArray(kinds)) throw new HttpError(400, '"kinds" must be a list of "500", "rate-limit", "timeout"');
    gh.setFaults({
      rate: Number(body.rate),
      kinds: kinds as FaultKind[],
      ...(body.seed === undefined ? {} : { seed: Number(body.seed) }),
      ...(body.timeout_ms === undefined ? {} : { timeoutMs: Number(body.timeout_ms) }),
    });
    return { status: 204 };
  });
  on('DELETE', 'faults', () => {
    gh.setFaults(undefined);
    return { status: 204 };
  });
}

function summary(gh: GitHubTestServer, owner: string, name: string) {
  const repository = gh.model.get(owner, name);
  return {
    owner: repository.owner,
    name: repository.name,
    default_branch: repository.defaultBranch,
    branches: Object.fromEntries(repository.branches),
    pulls: [...repository.pulls.values()].map(({ number, head, headSha, base, state, merged }) => ({ number, head, head_sha: headSha, base, state, merged })),
  };
}

/** Misuse (an unknown repository, a bad fault rate) is the caller's 400, said plainly. */
function adminCall(call: () => ApiResponse): ApiResponse {
  try {
    return call();
  } catch (error) {
    if (error instanceof GitHubTestServerError || error instanceof RangeError) throw new HttpError(400, error.message);
    throw error;
  }
}

function string(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new HttpError(400, `"${field}" must be a non-empty string`);
  return value;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  return body[field] === undefined ? undefined : string(body, field);
}
