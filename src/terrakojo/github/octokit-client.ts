// The GitHubClient over Octokit: upstream's REST calls with upstream's parameters (internal/github/client.go),
// plus what upstream lacked: commit files followed past GitHub's 300-file page, waits on primary and secondary
// rate limits as GitHub's headers say, retries of 5xx and dropped connections with backoff, and a deadline on
// every HTTP attempt so a hung GitHub never wedges a reconcile.
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { RequestError } from '@octokit/request-error';
import type { GitHubCredentials } from './credentials.ts';
import { baseUrl, githubEndpoints, type GitHubEndpoints } from './endpoints.ts';
import { GitHubRequestError } from './errors.ts';
import { pacedRequest, rateLimitRetryAfterSeconds } from './request-pacing.ts';
import type { CheckRunCreate, CheckRunUpdate, CompareResult, GitHubClient, PullRequestHead } from './github-client.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

const BosunOctokit = Octokit.plugin(restEndpointMethods, paginateRest);
type BosunOctokitInstance = InstanceType<typeof BosunOctokit>;

export const DEFAULT_USER_AGENT = 'bosun-terrakojo';
/** The REST API version upstream's go-github pins. */
const GITHUB_API_VERSION = '2022-11-28';

export interface OctokitClientOptions {
  /** Default: GITHUB_API_URL and GITHUB_UPLOAD_URL from the environment. A trailing slash is fine here too. */
  endpoints?: GitHubEndpoints;
  /** Default "bosun-terrakojo". */
  userAgent?: string;
  /** Deadline of one HTTP attempt, answer body included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Retries of a 5xx, a dropped connection or a timeout. Default 3. */
  retries?: number;
  /** Backoff unit: retry n waits n² units. Default 1000 ms. */
  retryBaseMs?: number;
  /** Retries after a rate limit, each waiting as GitHub's headers say. Default 3. */
  rateLimitRetries?: number;
  /** A rate limit that resets later than this fails the call at once (with retryAfterSeconds) instead of waiting. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /**
   * Spacing of POST/PATCH requests per credential. Default 1000 ms, GitHub's advice against secondary rate limits;
   * a test server needs none.
   */
  writeIntervalMs?: number;
  /** Who the throttling limits are shared by: clients with the same id share them. Default "bosun-terrakojo". */
  throttleId?: string;
  /** Octokit's logger (its warnings name requests, never credentials). Default: console for warn and error. */
  log?: { debug(message: string): void; info(message: string): void; warn(message: string): void; error(message: string): void };
}

export class OctokitGitHubClient implements GitHubClient {
  private readonly octokit: BosunOctokitInstance;
  /** For the timeout error's message. */
  private readonly requestTimeoutMs: number;

  constructor(credentials: GitHubCredentials, options: OctokitClientOptions = {}) {
    const endpoints = options.endpoints ?? githubEndpoints();
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    const rateLimitRetries = options.rateLimitRetries ?? 3;
    const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? 60_000;
    this.octokit = new BosunOctokit({
      // Endpoints given directly may still carry the trailing slash Octokit breaks on.
      baseUrl: baseUrl(endpoints.apiUrl, 'the GitHub API URL'),
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      headers: { 'x-github-api-version': GITHUB_API_VERSION },
      request: { fetch: fetchWithDeadline(this.requestTimeoutMs) },
      ...(options.log ? { log: options.log } : {}),
      ...(credentials.type === 'token'
        ? { auth: credentials.token }
        : {
            // auth-app keeps installation tokens in this client's cache until a minute before they expire.
            authStrategy: createAppAuth,
            auth: { appId: credentials.appId, privateKey: credentials.privateKey, installationId: credentials.installationId },
          }),
    });
    const paced = pacedRequest({
      id: options.throttleId ?? DEFAULT_USER_AGENT,
      writeIntervalMs: options.writeIntervalMs ?? 1000,
      retries: options.retries ?? 3,
      retryBaseMs: options.retryBaseMs ?? 1000,
      onRateLimit: (retryAfterSeconds, retryCount) => retryCount < rateLimitRetries && retryAfterSeconds * 1000 <= maxRateLimitWaitMs,
    });
    this.octokit.hook.wrap('request', (request, requestOptions) => paced(request, requestOptions));
  }

  getBranchHead(owner: string, repo: string, branch: string, signal?: AbortSignal): Promise<string> {
    return this.call('getBranchHead', owner, repo, signal, async (request) => {
      const { data } = await this.octokit.rest.repos.getBranch({ owner, repo, branch, request });
      return sha(data.commit?.sha, `branch ${branch}`);
    });
  }

  listBranches(owner: string, repo: string, signal?: AbortSignal): Promise<{ name: string; sha: string }[]> {
    return this.call('listBranches', owner, repo, signal, async (request) => {
      const branches = await this.octokit.paginate(this.octokit.rest.repos.listBranches, { owner, repo, per_page: 100, request });
      return branches.map((b) => ({ name: b.name, sha: sha(b.commit?.sha, `branch ${b.name}`) }));
    });
  }

  listOpenPullRequests(owner: string, repo: string, signal?: AbortSignal): Promise<PullRequestHead[]> {
    return this.call('listOpenPullRequests', owner, repo, signal, async (request) => {
      const pulls = await this.octokit.paginate(this.octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100, request });
      return pulls.map((p) => ({ number: p.number, ref: p.head.ref, sha: sha(p.head.sha, `pull request #${p.number}`) }));
    });
  }

  compareCommits(owner: string, repo: string, base: string, head: string, signal?: AbortSignal): Promise<CompareResult> {
    return this.call('compareCommits', owner, repo, signal, async (request) => {
      const { data } = await this.octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 250, request });
      return { shas: data.commits.map((c) => sha(c.sha, 'compared commit')), status: data.status, totalCommits: data.total_commits };
    });
  }

  commitExists(owner: string, repo: string, ref: string, signal?: AbortSignal): Promise<boolean> {
    return this.call('commitExists', owner, repo, signal, async (request) => {
      try {
        await this.octokit.rest.repos.getCommit({ owner, repo, ref, request });
        return true;
      } catch (err) {
        // GitHub answers 422 ("No commit found for SHA") for a well-formed SHA it does not have, 404 for the rest.
        if (err instanceof RequestError && (err.status === 404 || err.status === 422)) return false;
        throw err;
      }
    });
  }

  commitFiles(owner: string, repo: string, ref: string, signal?: AbortSignal): Promise<string[]> {
    return this.call('commitFiles', owner, repo, signal, async (request) => {
      // GitHub pages a commit's files at 300 (up to 3000) with Link headers; every page repeats the commit.
      const files: string[] = [];
      for await (const page of this.octokit.paginate.iterator(this.octokit.rest.repos.getCommit, { owner, repo, ref, request })) {
        // The iterator's types assume a list endpoint; a page of this one is the commit object.
        const commit = page.data as unknown as { files?: { filename: string }[] };
        for (const file of commit.files ?? []) files.push(file.filename);
      }
      return files;
    });
  }

  pullRequestFiles(owner: string, repo: string, number: number, signal?: AbortSignal): Promise<string[]> {
    return this.call('pullRequestFiles', owner, repo, signal, async (request) => {
      const files = await this.octokit.paginate(this.octokit.rest.pulls.listFiles, { owner, repo, pull_number: number, per_page: 100, request });
      return files.map((f) => f.filename);
    });
  }

  findCheckRun(owner: string, repo: string, sha: string, name: string, externalId: string, signal?: AbortSignal): Promise<number | undefined> {
    return this.call('findCheckRun', owner, repo, signal, async (request) => {
      const runs = await this.octokit.paginate(this.octokit.rest.checks.listForRef, { owner, repo, ref: sha, check_name: name, filter: 'all', per_page: 100, request });
      const id = runs.find((run) => run.external_id === externalId)?.id;
      return id === undefined ? undefined : Number(id);
    });
  }

  createCheckRun(owner: string, repo: string, run: CheckRunCreate, signal?: AbortSignal): Promise<number> {
    return this.call('createCheckRun', owner, repo, signal, async (request) => {
      const { data } = await this.octokit.rest.checks.create({
        owner,
        repo,
        // A 5xx or a timeout may come after GitHub made the check run: not retried here, where a retry would make a
        // second one, but by the caller, which looks for it by external_id first. Rate limits (nothing made) still wait.
        request: { ...request, retries: 0 },
        name: run.name,
        head_sha: run.headSha,
        status: 'queued',
        // Upstream's initial output.
        output: { title: run.name, summary: 'Check run created and queued.' },
        ...(run.detailsUrl === undefined ? {} : { details_url: run.detailsUrl }),
        ...(run.externalId === undefined ? {} : { external_id: run.externalId }),
      });
      if (typeof data.id !== 'number') throw new Error('the answer has no check run id');
      return data.id;
    });
  }

  updateCheckRun(owner: string, repo: string, id: number, update: CheckRunUpdate, signal?: AbortSignal): Promise<void> {
    return this.call('updateCheckRun', owner, repo, signal, async (request) => {
      await this.octokit.rest.checks.update({
        owner,
        repo,
        request,
        check_run_id: id,
        name: update.name,
        status: update.status,
        ...(update.status === 'completed' && update.conclusion !== undefined ? { conclusion: update.conclusion } : {}),
        ...(update.detailsUrl === undefined ? {} : { details_url: update.detailsUrl }),
        ...(update.output === undefined ? {} : { output: update.output }),
      });
    });
  }

  /**
   * Runs one GitHubClient method, turning whatever it throws into a GitHubRequestError that names it. An abort of
   * signal rejects at once with its reason, even mid-wait on a rate limit or a backoff; the abandoned work sends
   * nothing more, as its next fetch sees the aborted signal.
   */
  private async call<T>(operation: string, owner: string, repo: string, signal: AbortSignal | undefined, run: (request: { signal?: AbortSignal }) => Promise<T>): Promise<T> {
    signal?.throwIfAborted();
    try {
      return signal ? await untilAborted(run({ signal }), signal) : await run({});
    } catch (err) {
      signal?.throwIfAborted();
      throw requestError(err, operation, `${owner}/${repo}`, this.requestTimeoutMs);
    }
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function sha(value: string | undefined, what: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{40}$/.test(value)) throw new Error(`the answer has no commit SHA for ${what}`);
  return value;
}

function requestError(err: unknown, operation: string, repository: string, requestTimeoutMs: number): GitHubRequestError {
  if (err instanceof GitHubRequestError) return err;
  if (!(err instanceof RequestError)) {
    return new GitHubRequestError({ operation, repository, status: undefined, detail: messageOf(err) });
  }
  if (err.response === undefined) {
    // No answer: request-pacing.ts already retried it. @octokit/request reports these as a 500; say what happened.
    const timedOut = err.cause instanceof Error && err.cause.name === 'TimeoutError';
    const detail = timedOut ? `no answer within ${requestTimeoutMs} ms` : err.message;
    return new GitHubRequestError({ operation, repository, status: undefined, timedOut, detail });
  }
  const mintingToken = /\/app\/installations\/[^/]+\/access_tokens$/.test(err.request.url);
  const retryAfterSeconds = rateLimitRetryAfterSeconds(err);
  return new GitHubRequestError({
    operation,
    repository,
    status: err.status,
    detail: `${mintingToken ? 'creating the App installation token: ' : ''}${err.message}`,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * fetch with a deadline on each attempt, covering the body too: @octokit/request reads the body after fetch
 * returns and turns a failed read into an empty answer, so a GitHub that sent headers and then stalled would
 * otherwise hang or look like success.
 */
function fetchWithDeadline(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const caller = init?.signal ?? undefined;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
    let response: Response;
    let body: ArrayBuffer | null;
    try {
      response = await fetch(input, { ...init, signal });
      body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
    } catch (err) {
      // As an AbortError, @octokit/request passes it through unwrapped, and request-pacing.ts does not retry it.
      if (caller?.aborted) throw new DOMException('aborted by the caller', 'AbortError');
      throw err;
    }
    const buffered = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // plugin-paginate-rest reads the URL of a page.
    Object.defineProperty(buffered, 'url', { value: response.url });
    return buffered;
  };
}
