// The Workflow controller against real components: the embedded API server (Bosun's CRDs) over HTTP, the
// controller on a manager, the GitHub test server with an Octokit client over HTTP. No node agent runs, so
// Jobs never start: tests play the Job controller by writing Job status. Waiting is event-driven: a probe is
// re-evaluated whenever the test's own informers see a Workflow, Job or Event change.
import { ChangeWaiter } from '../../helpers/change-waiter.ts';
import { pino } from 'pino';
import { eventsResource, jobsResource, namespacesResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { startApiServer, type RunningApiServer } from '../../../src/apiserver/index.ts';
import { standInKubeletClient } from '../../helpers/stand-in-kubelet.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import type { Controller } from '../../../src/runtime/controller/controller.ts';
import { Informer } from '../../../src/runtime/informer/informer.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { branchesResource, workflowsResource, workflowTemplatesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../../../src/terrakojo/api/types.ts';
import type { GitHubClient } from '../../../src/terrakojo/github/github-client.ts';
import { OctokitGitHubClient } from '../../../src/terrakojo/github/octokit-client.ts';
import { registerWorkflowController, type GitHubClientForBranch, type WorkflowControllerData, type WorkflowControllerOptions } from '../../../src/terrakojo/workflow/index.ts';
import type { Job } from '../../../src/apimachinery/api/index.ts';
import { startGitHubTestServer, type CallRecord, type CheckRun, type GitHubTestServer } from '../../github-server/index.ts';
import { branch, template, workflow } from './fixtures.ts';

export const OWNER = 'acme';
export const REPO = 'infra';
const TOKEN = 'ghp_workflow_tests';

export interface Harness {
  server: RunningApiServer;
  client: KubeClient;
  gh: GitHubTestServer;
  mgr: Manager;
  controller: Controller<Workflow, WorkflowControllerData>;
  /** A commit GitHub knows, for Workflows to run on. */
  sha: string;
  /** What the controller's GitHubClientForBranch does; tests may swap it (a Secret that cannot be read…). */
  github: GitHubClientForBranch;
  /** The Octokit client on the test server's token. */
  octokit: GitHubClient;
  start(): Promise<void>;
  /** A fresh namespace with a Branch and the "plan" template in it. */
  namespace(options?: { template?: WorkflowTemplate | false; branch?: Partial<Branch['spec']> }): Promise<string>;
  createWorkflow(ns: string, name?: string, spec?: Partial<Workflow['spec']>): Promise<Workflow>;
  getWorkflow(ns: string, name: string): Promise<Workflow | undefined>;
  getJob(ns: string, name: string): Promise<Job | undefined>;
  /** Writes Job status as the Job controller would. */
  setJobStatus(ns: string, name: string, status: Record<string, unknown>): Promise<void>;
  events(ns: string, name: string): Promise<Array<{ type: string; reason: string; message: string }>>;
  checkRuns(): CheckRun[];
  /** GitHub check-run calls (POST and PATCH) since the last resetCalls. */
  checkRunCalls(): CallRecord[];
  /** Resolves once cond(probe()) holds; probe runs again on every Workflow, Job or Event change. */
  until<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, timeoutMs?: number): Promise<T>;
  /** until() for a Workflow that exists and satisfies cond. */
  untilWorkflow(ns: string, name: string, what: string, cond: (w: Workflow) => boolean): Promise<Workflow>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<Omit<WorkflowControllerOptions, 'github'>> & { start?: boolean } = {}): Promise<Harness> {
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), kubeletClient: await standInKubeletClient() });
  const clients: KubeClient[] = [];
  const newClient = (): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig });
    clients.push(c);
    return c;
  };
  const client = newClient();
  const gh = await startGitHubTestServer();
  gh.createRepository(OWNER, REPO, { defaultBranch: 'main' });
  gh.addToken(TOKEN);
  const sha = gh.commit(OWNER, REPO, { branch: 'feature/x', files: ['infra/app/main.tf'] });
  const octokit = new OctokitGitHubClient(
    { type: 'token', token: TOKEN },
    { endpoints: { apiUrl: gh.apiUrl, uploadUrl: gh.apiUrl }, writeIntervalMs: 0, retries: 0, rateLimitRetries: 0, log: { debug() {}, info() {}, warn() {}, error() {} } },
  );
  const mgr = new Manager({ client: newClient(), logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  const { start: autoStart = true, ...controllerOptions } = options;
  const h: Harness = {
    server,
    client,
    gh,
    mgr,
    sha,
    octokit,
    github: async () => octokit,
    controller: undefined as unknown as Controller<Workflow, WorkflowControllerData>,
    start: () => mgr.start(),
    async namespace(o = {}) {
      const ns = `t-${Math.random().toString(36).slice(2, 8)}`;
      await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await client.create(branchesResource, branch(undefined, ns, { sha, ...o.branch }));
      const tpl = o.template === undefined ? template('plan', ns) : o.template;
      if (tpl) await client.create(workflowTemplatesResource, { ...tpl, metadata: { ...tpl.metadata, namespace: ns } });
      return ns;
    },
    async createWorkflow(ns, name = 'plan-0123456789', spec = {}) {
      const wf = workflow(name, ns, { sha, ...spec });
      delete wf.metadata.uid;
      return client.create<Workflow>(workflowsResource, wf);
    },
    getWorkflow: (ns, name) => orUndefined(client.get<Workflow>(workflowsResource, name, { namespace: ns })),
    getJob: (ns, name) => orUndefined(client.get<Job>(jobsResource, name, { namespace: ns })),
    async setJobStatus(ns, name, status) {
      await client.patchStatus(jobsResource, name, { status }, { type: 'merge', namespace: ns });
    },
    async events(ns, name) {
      const list = await client.list<KubeObject & { type: string; reason: string; message: string; involvedObject: { name: string } }>(eventsResource, { namespace: ns });
      return list.items.filter((e) => e.involvedObject.name === name).map((e) => ({ type: e.type, reason: e.reason, message: e.message }));
    },
    checkRuns: () => gh.checkRuns(OWNER, REPO),
    checkRunCalls: () => gh.calls.filter((c) => c.path.includes('/check-runs')),
    until: () => Promise.reject(new Error('until before start')),
    async untilWorkflow(ns, name, what, cond) {
      const found = await h.until(what, () => h.getWorkflow(ns, name), (w) => w !== undefined && cond(w));
      return found!;
    },
    async close() {
      for (const i of watchers) await i.stop();
      await mgr.stop();
      await gh.close();
      for (const c of clients) await c.close();
      await server.close();
    },
  };
  h.controller = registerWorkflowController(mgr, { detailsUrlBase: 'https://bosun.test/ui', ...controllerOptions, github: (b, signal) => h.github(b, signal) });

  // The test's own watches, so waiting wakes on change rather than on a timer.
  const watchers = [workflowsResource, jobsResource, eventsResource].map((resource) => new Informer<KubeObject>({ client: newClient(), resource }));
  const changes = new ChangeWaiter(15_000);
  for (const w of watchers) w.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
  for (const w of watchers) w.start();
  await Promise.all(watchers.map((w) => w.waitForSync()));
  h.until = changes.until;
  if (autoStart) await mgr.start();
  return h;
}

async function orUndefined<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Asserts cond keeps holding for a while: the "nothing more happens" checks. */
export async function stays<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, ms = 500): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (!cond(value)) throw new Error(`expected ${what} to hold; got ${JSON.stringify(value)}`);
    if (Date.now() > end) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
