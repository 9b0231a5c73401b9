// The terrakojo sync controllers for real: an embedded API server with Bosun's CRDs over HTTPS, the GitHub test
// server over HTTP, and a manager running the Repository and/or Branch controller with the Octokit client cache.
// Nothing stands in for the Workflow controller: tests write Workflow phases themselves.
import { pino } from 'pino';
import { secretsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { branchesResource, repositoriesResource, workflowsResource, workflowTemplatesResource } from '../../../src/terrakojo/api/resources.ts';
import type { Branch, Repository, Workflow, WorkflowTemplate } from '../../../src/terrakojo/api/types.ts';
import { registerBranchController } from '../../../src/terrakojo/branch/index.ts';
import { GitHubClients } from '../../../src/terrakojo/github/client-cache.ts';
import type { GitHubSecret } from '../../../src/terrakojo/github/credentials.ts';
import { githubEndpoints } from '../../../src/terrakojo/github/endpoints.ts';
import { registerRepositoryController, type GitHubClientProvider } from '../../../src/terrakojo/repository/index.ts';
import { startGitHubTestServer, type GitHubTestServer } from '../../github-server/index.ts';
import { eventually, startTestServer, type TestServer } from '../../helpers/api-server.ts';

export const TOKEN = 'ghp_sync_test';
export const OWNER = 'acme';
export const REPO = 'infra';

export interface SyncHarness {
  server: TestServer;
  gh: GitHubTestServer;
  client: KubeClient;
  namespace: string;
  /** The running manager, for a controller registered later (as after a restart). */
  mgr: Manager;
  github: GitHubClientProvider;
  close(): Promise<void>;
}

export interface SyncHarnessOptions {
  repositoryController?: boolean;
  branchController?: boolean;
  /** The Repository controller's resync interval (default: its own, 30 minutes). */
  resyncIntervalMs?: number;
  /** Wraps the controllers' client (to fail one call the way a cluster would). */
  wrapClient?: (client: KubeClient) => KubeClient;
}

export async function startSyncHarness(options: SyncHarnessOptions = {}): Promise<SyncHarness> {
  const server = await startTestServer({ crds: loadBosunCrds(), onError: () => {} });
  const gh = await startGitHubTestServer();
  gh.addToken(TOKEN);
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgrClient = createKubeClient({ kubeconfig: server.kubeconfig });
  const controllersClient = options.wrapClient ? options.wrapClient(mgrClient) : mgrClient;
  const mgr = new Manager({ client: controllersClient, logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  const readSecret = (namespace: string, name: string): Promise<GitHubSecret> => mgrClient.get<KubeObject & GitHubSecret>(secretsResource, name, { namespace });
  const clients = new GitHubClients(readSecret, { endpoints: githubEndpoints({ GITHUB_API_URL: gh.apiUrl }), writeIntervalMs: 0, retries: 1, retryBaseMs: 10 });
  const github: GitHubClientProvider = (repo) => clients.forRepository(repo);
  if (options.repositoryController ?? true) registerRepositoryController(mgr, { github, ...(options.resyncIntervalMs !== undefined ? { resyncIntervalMs: options.resyncIntervalMs } : {}) });
  if (options.branchController ?? true) registerBranchController(mgr, { github });
  const namespace = 'tk';
  await client.create({ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await mgr.start();
  return {
    server,
    gh,
    client,
    namespace,
    mgr,
    github,
    async close() {
      await mgr.stop();
      await Promise.all([client.close(), mgrClient.close()]);
      await gh.close();
      await server.close();
    },
  };
}

export function tokenSecret(namespace: string, name: string, data: Record<string, string>): KubeObject {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', data: encoded };
}

/** A Repository for OWNER/REPO; labels as the Repository controller sets them, for tests that run without it. */
export async function createRepository(h: SyncHarness, name = 'infra', secret = 'github', labels?: Record<string, string>): Promise<Repository> {
  return h.client.create<Repository>(repositoriesResource, {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Repository',
    metadata: { name, namespace: h.namespace, ...(labels ? { labels } : {}) },
    spec: { owner: OWNER, name: REPO, type: 'github', defaultBranch: 'main', githubSecretRef: { name: secret } },
  });
}

export async function createTemplate(h: SyncHarness, name: string, paths: string[], executionUnit?: string): Promise<void> {
  await h.client.create<WorkflowTemplate>(workflowTemplatesResource, {
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'WorkflowTemplate',
    metadata: { name, namespace: h.namespace },
    spec: {
      displayName: name,
      match: { paths, ...(executionUnit ? { executionUnit } : {}) },
      job: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'busybox', command: ['true'] }] } } },
    },
  });
}

/** The webhook server's poke: any annotation change wakes the Repository. */
export async function poke(h: SyncHarness, name = 'infra'): Promise<void> {
  await h.client.patch(repositoriesResource, name, { metadata: { annotations: { 'terrakojo.io/sync-requested-at': new Date().toISOString() } } }, { type: 'merge', namespace: h.namespace });
}

export async function getRepository(h: SyncHarness, name = 'infra'): Promise<Repository | undefined> {
  try {
    return await h.client.get<Repository>(repositoriesResource, name, { namespace: h.namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export async function listBranches(h: SyncHarness): Promise<Branch[]> {
  return (await h.client.list<Branch>(branchesResource, { namespace: h.namespace })).items;
}

export async function listWorkflows(h: SyncHarness): Promise<Workflow[]> {
  return (await h.client.list<Workflow>(workflowsResource, { namespace: h.namespace })).items;
}

/** Waits until the Repository's cursor is `sha`, and returns it. */
export function cursorAt(h: SyncHarness, sha: string, timeoutMs = 10_000): Promise<Repository> {
  return eventually(async () => {
    const repo = await getRepository(h);
    return repo?.status?.lastDefaultBranchHeadSha === sha ? repo : undefined;
  }, timeoutMs, `cursor at ${sha.slice(0, 12)}`);
}

export { eventually };
