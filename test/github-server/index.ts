// A GitHub of our own for tests: real HTTP on loopback, stateful, faithful to GitHub's REST answers for the calls
// Bosun makes, with fault injection and signed webhooks. The contract is in the terrakojo design notes; the
// /_meta admin API (meta.ts) does over HTTP what these methods do.
import { EventEmitter } from 'node:events';
import { Auth, type AppCredentials } from './auth.ts';
import { GitHubTestServerError } from './errors.ts';
import { CheckRunStore, type CheckRun } from './check-runs.ts';
import { FaultInjector, type FaultOptions } from './faults.ts';
import { metaRoutes } from './meta.ts';
import { GitHubModel, type CommitOptions, type ModelEvent } from './model.ts';
import { Router } from './router.ts';
import { appRoutes } from './routes/app.ts';
import { checkRunRoutes } from './routes/check-runs.ts';
import { commitRoutes } from './routes/commits.ts';
import type { RouteContext } from './routes/context.ts';
import { pullRoutes } from './routes/pulls.ts';
import { repositoryRoutes } from './routes/repositories.ts';
import { GHES_PREFIX, listen, type CallRecord, type ListeningServer } from './server.ts';
import { eventPayload } from './webhook-payloads.ts';
import { WebhookSender, type Delivery, type WebhookOptions } from './webhooks.ts';

export type { AppCredentials, CallRecord, CheckRun, Delivery, FaultOptions, WebhookOptions };

export interface GitHubTestServerOptions {
  port?: number;
  host?: string;
  /** How long installation tokens last; GitHub's hour by default. */
  installationTokenLifetimeMs?: number;
}

export class GitHubTestServer {
  readonly calls: CallRecord[] = [];
  /** 'call' after every API request has changed (or read) the state. */
  private readonly changes = new EventEmitter();
  private readonly webhooks = new WebhookSender(() => this.url);
  /** The state itself, for assertions the methods do not cover; change it through the methods. */
  readonly model = new GitHubModel((event) => this.onModelEvent(event));
  private readonly auth: Auth;
  private readonly checkRunStore = new CheckRunStore();
  private readonly faults = new FaultInjector();
  private listening: ListeningServer | undefined;

  constructor(options: Pick<GitHubTestServerOptions, 'installationTokenLifetimeMs'> = {}) {
    this.auth = new Auth(options.installationTokenLifetimeMs);
  }

  /** Starts listening; startGitHubTestServer() does this for you. */
  async listen(options: Pick<GitHubTestServerOptions, 'port' | 'host'> = {}): Promise<void> {
    const context: RouteContext = { model: this.model, checkRuns: this.checkRunStore, auth: this.auth };
    const api = new Router();
    // Check runs first: ".../commits/{ref}/check-runs" would otherwise be taken for a commit ref.
    checkRunRoutes(api, context);
    repositoryRoutes(api, context);
    commitRoutes(api, context);
    pullRoutes(api, context);
    appRoutes(api, context);
    const meta = new Router();
    metaRoutes(meta, this);
    this.listening = await listen({ api, meta, auth: this.auth, faults: this.faults, onCall: (call) => this.recordCall(call) }, options);
  }

  /** 'http://127.0.0.1:PORT': the API as api.github.com lays it out. */
  get url(): string {
    if (this.listening === undefined) throw new GitHubTestServerError('the GitHub test server is not listening');
    return this.listening.url;
  }

  /** `${url}/api/v3/`: the API as GitHub Enterprise Server lays it out. */
  get apiUrl(): string {
    return `${this.url}${GHES_PREFIX}/`;
  }

  createRepository(owner: string, name: string, options: { defaultBranch?: string } = {}): void {
    this.model.createRepository(owner, name, options);
  }

  /** A new commit on the branch (created from `from`, default the default branch, when new); its SHA. */
  commit(owner: string, repo: string, options: CommitOptions): string {
    return this.model.commit(owner, repo, options);
  }

  createBranch(owner: string, repo: string, branch: string, sha?: string): void {
    this.model.createBranch(owner, repo, branch, sha);
  }

  branchHead(owner: string, repo: string, branch: string): string | undefined {
    return this.model.get(owner, repo).branches.get(branch);
  }

  setBranchHead(owner: string, repo: string, branch: string, sha: string): void {
    this.model.setBranchHead(owner, repo, branch, sha);
  }

  deleteBranch(owner: string, repo: string, branch: string): void {
    this.model.deleteBranch(owner, repo, branch);
  }

  openPullRequest(owner: string, repo: string, options: { head: string; base: string; title?: string }): number {
    return this.model.openPullRequest(owner, repo, options);
  }

  closePullRequest(owner: string, repo: string, number: number, options: { merged?: boolean } = {}): void {
    this.model.closePullRequest(owner, repo, number, options);
  }

  addToken(token: string): void {
    this.auth.addToken(token);
  }

  createApp(): AppCredentials {
    return this.auth.createApp();
  }

  /** Installation access tokens issued so far. */
  get tokensIssued(): number {
    return this.auth.tokensIssued;
  }

  /** The repository's check runs, oldest first, each with its full (status, conclusion) history; copies. */
  checkRuns(owner: string, repo: string): CheckRun[] {
    return this.checkRunStore.list(this.model.get(owner, repo)).map((run) => structuredClone(run));
  }

  resetCalls(): void {
    this.calls.length = 0;
  }

  setFaults(options: FaultOptions | undefined): void {
    this.faults.set(options);
  }

  /** Faults injected so far, by kind, and their total. */
  get faultsInjected(): { total: number; '500': number; 'rate-limit': number; timeout: number } {
    return { total: this.faults.total, ...this.faults.injected };
  }

  /** Registers a webhook (pinged at once); commits, force-pushes, branch deletions and PR changes then deliver push and pull_request. */
  addWebhook(owner: string, repo: string, options: WebhookOptions): number {
    return this.webhooks.add(this.model.get(owner, repo), options);
  }

  /** Every delivery, in the order started, with the receiver's status code once answered. */
  get deliveries(): readonly Delivery[] {
    return this.webhooks.deliveries;
  }

  /** Sends any event with any payload to the repository's hooks. */
  deliver(owner: string, repo: string, event: string, payload: Record<string, unknown>): Delivery[] {
    return this.webhooks.deliver(this.model.get(owner, repo), event, payload);
  }

  /** Sends a delivery again with the same X-GitHub-Delivery GUID. */
  redeliver(guid: string): Delivery {
    return this.webhooks.redeliver(guid);
  }

  /** Resolves when every delivery started so far has been answered (or has failed). */
  deliveriesSettled(): Promise<void> {
    return this.webhooks.idle();
  }

  /**
   * Resolves once `predicate` holds, checked now and after every API request (what changes the state a client
   * sees); rejects after timeoutMs saying what it waited for and what `describe` says of the state then.
   */
  until(predicate: () => boolean, timeoutMs: number, what: string, describe: () => string = () => ''): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.changes.off('call', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.changes.off('call', check);
        reject(new GitHubTestServerError(`timed out after ${timeoutMs} ms waiting for ${what}${describe() ? `: ${describe()}` : ''}`));
      }, timeoutMs);
      this.changes.on('call', check);
    });
  }

  async close(): Promise<void> {
    this.webhooks.close();
    await this.listening?.close();
  }

  private recordCall(call: CallRecord): void {
    this.calls.push(call);
    this.changes.emit('call');
  }

  private onModelEvent(event: ModelEvent): void {
    if (!this.webhooks.watches(event.repository)) return;
    const { name, payload } = eventPayload(event, this.url);
    this.webhooks.deliver(event.repository, name, payload);
  }
}

export async function startGitHubTestServer(options: GitHubTestServerOptions = {}): Promise<GitHubTestServer> {
  const server = new GitHubTestServer(options);
  await server.listen(options);
  return server;
}
