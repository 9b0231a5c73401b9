// The terrakojo family as `bosun up` registers it: registerTerrakojo on a manager whose client has its own user
// agent (to tell the controllers' requests from the test's and kubectl's), the embedded API server with Bosun's
// CRDs over real HTTPS, the GitHub test server over real HTTP, and real kubectl. No node agent runs: the test plays
// the Job controller by writing Job status and the Job's pod, and a stand-in kubelet on loopback serves that pod's
// log through the API server's pods/log proxy. Waiting is event-driven: checks re-run on every watched change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { eventsResource, jobsResource, namespacesResource, nodesResource, podsResource, secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { branchesResource, repositoriesResource, workflowsResource, workflowTemplatesResource } from '../../src/terrakojo/api/resources.ts';
import type { Branch, Repository, Workflow, WorkflowTemplate } from '../../src/terrakojo/api/types.ts';
import { registerTerrakojo, terrakojoFamily } from '../../src/terrakojo/family.ts';
import { githubEndpoints } from '../../src/terrakojo/github/endpoints.ts';
import type { Job } from '../../src/apimachinery/api/index.ts';
import { Changes } from '../client/wait.ts';
import { startGitHubTestServer, type CheckRun, type GitHubTestServer } from '../github-server/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { standInKubeletClient, startStandInKubelet } from '../helpers/stand-in-kubelet.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { unauthorizedRequests } from '../helpers/rbac.ts';

export const OWNER = 'acme';
export const TOKEN = 'ghp_family_tests';
export const CONTROLLERS_USER_AGENT = 'bosun-controllers';
/** What the stand-in kubelet answers for every container log. */
export const POD_LOG = 'terraform plan\nNo changes. Your infrastructure matches the configuration.\n';

export interface KubeEvent extends KubeObject {
  involvedObject: { kind?: string; name?: string; namespace?: string };
  type?: string;
  reason?: string;
  message?: string;
}

export interface FamilyHarness {
  server: TestServer;
  gh: GitHubTestServer;
  client: KubeClient;
  kubectl: Kubectl;
  workflows: Informer<Workflow>;
  jobs: Informer<Job>;
  branches: Informer<Branch>;
  repositories: Informer<Repository>;
  /** Resolves when check() holds, re-checked on every watched change in the cluster. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Resolves when check() holds, re-checked after every GitHub API call (check runs change there). */
  untilGitHub(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Events about the named object in the namespace. */
  events(namespace: string, name: string): KubeEvent[];
  /** A namespace with a token Secret (unless secret is false), the templates and a Repository for OWNER/repo. */
  repositoryIn(namespace: string, repo: string, templates: WorkflowTemplate[], options?: { secret?: Record<string, string> | false }): Promise<void>;
  /** What the webhook server does on a push: annotate the Repository so it syncs now. */
  poke(namespace: string, repo: string): Promise<void>;
  /** Plays the Job controller: the Job's pod on the stand-in node, exited, and the Job's final status. */
  finishJob(namespace: string, name: string, outcome: 'succeeded' | 'failed'): Promise<void>;
  checkRuns(repo: string): CheckRun[];
  /** kubectl apply -f of the objects; the kubectl result. */
  apply(...objects: KubeObject[]): ReturnType<Kubectl>;
  /** The controllers' requests (by user agent) that terrakojoFamily.rbac does not allow. */
  deniedToControllers(): string[];
  close(): Promise<void>;
}

export function template(name: string, paths: string[], job: Record<string, unknown> = shellJob('plan')): WorkflowTemplate {
  return { apiVersion: 'terrakojo.io/v1alpha1', kind: 'WorkflowTemplate', metadata: { name }, spec: { displayName: name, match: { paths, executionUnit: 'folder' }, job } };
}

export function shellJob(container: string): Record<string, unknown> {
  return { template: { spec: { restartPolicy: 'Never', containers: [{ name: container, image: 'busybox', command: ['sh', '-c', 'echo plan'] }] } } };
}

export async function startFamily(): Promise<FamilyHarness> {
  const server = await startTestServer({ crds: loadBosunCrds(), onError: () => {}, kubeletClient: await standInKubeletClient() });
  const gh = await startGitHubTestServer();
  gh.addToken(TOKEN);
  const clients: KubeClient[] = [];
  const newClient = (userAgent?: string): KubeClient => {
    const c = createKubeClient({ kubeconfig: server.kubeconfig, ...(userAgent ? { userAgent } : {}) });
    clients.push(c);
    return c;
  };
  const manager = new Manager({ client: newClient(CONTROLLERS_USER_AGENT), logger: pino({ enabled: false }), gracefulShutdownTimeoutMs: 2000 });
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  registerTerrakojo(manager, { github: { endpoints: githubEndpoints({ GITHUB_API_URL: gh.apiUrl }), writeIntervalMs: 0, log: quiet } });

  const client = newClient();
  const changes = new Changes();
  const informers: Array<Informer<KubeObject>> = [];
  const watch = <T extends KubeObject>(resource: ResourceRef): Informer<T> => {
    const informer = new Informer<T>({ client, resource, onError: () => undefined });
    informer.addEventHandler({ onAdd: changes.notify, onUpdate: changes.notify, onDelete: changes.notify });
    informer.start();
    informers.push(informer as unknown as Informer<KubeObject>);
    return informer;
  };
  const workflows = watch<Workflow>(workflowsResource);
  const jobs = watch<Job>(jobsResource);
  const branches = watch<Branch>(branchesResource);
  const repositories = watch<Repository>(repositoriesResource);
  const events = watch<KubeEvent>(eventsResource);
  await Promise.all(informers.map((i) => i.waitForSync()));

  // The kubelet's containerLogs endpoint, as the API server's pods/log proxy calls it: always POD_LOG.
  const kubelet = await startStandInKubelet((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(POD_LOG);
  });
  await client.create(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'stand-in' } });
  await client.patchStatus(nodesResource, 'stand-in', { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } } }, { type: 'merge' });

  await manager.start();
  const kubectl = kubectlFor(server.kubeconfigFile);
  const dir = mkdtempSync(join(tmpdir(), 'bosun-tk-family-'));
  let applied = 0;
  return {
    server,
    gh,
    client,
    kubectl,
    workflows,
    jobs,
    branches,
    repositories,
    until: (check, what, timeoutMs = 15_000) => changes.until(check, timeoutMs, what),
    untilGitHub: (check, what, timeoutMs = 15_000) => gh.until(check, timeoutMs, what),
    events: (namespace, name) => events.list().filter((e) => e.metadata.namespace === namespace && e.involvedObject.name === name),
    async repositoryIn(namespace, repo, templates, options = {}) {
      gh.createRepository(OWNER, repo, { defaultBranch: 'main' });
      await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      const secret = options.secret ?? { token: TOKEN };
      if (secret) await client.create(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'github', namespace }, stringData: secret });
      for (const t of templates) await client.create(workflowTemplatesResource, { ...t, metadata: { ...t.metadata, namespace } });
      await client.create(repositoriesResource, {
        apiVersion: 'terrakojo.io/v1alpha1',
        kind: 'Repository',
        metadata: { name: repo, namespace },
        spec: { owner: OWNER, name: repo, type: 'github', defaultBranch: 'main', githubSecretRef: { name: 'github' } },
      });
    },
    async poke(namespace, repo) {
      await client.patch(repositoriesResource, repo, { metadata: { annotations: { 'terrakojo.io/sync-requested-at': new Date().toISOString() } } }, { type: 'merge', namespace });
    },
    async finishJob(namespace, name, outcome) {
      const job = jobs.store.get(`${namespace}/${name}`);
      if (!job) throw new Error(`no Job ${namespace}/${name} to finish`);
      const container = (job.spec.template?.spec?.containers?.[0]?.name as string | undefined) ?? 'main';
      const pod = `${name}-x1y2z`;
      await client.create(podsResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: pod, namespace, labels: { 'batch.kubernetes.io/job-name': name, 'job-name': name }, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: job.metadata.uid ?? '', controller: true }] },
        spec: { nodeName: 'stand-in', restartPolicy: 'Never', containers: [{ name: container, image: 'busybox' }] },
      });
      const exitCode = outcome === 'succeeded' ? 0 : 1;
      await client.patchStatus(podsResource, pod, { status: { phase: outcome === 'succeeded' ? 'Succeeded' : 'Failed', containerStatuses: [{ name: container, image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }] } }, { type: 'merge', namespace });
      await client.patchStatus(jobsResource, name, { status: outcome === 'succeeded' ? { active: 0, succeeded: 1 } : { active: 0, failed: 1 } }, { type: 'merge', namespace });
    },
    checkRuns: (repo) => gh.checkRuns(OWNER, repo),
    async apply(...objects) {
      const file = join(dir, `apply-${applied++}.json`);
      writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
      return kubectl(['apply', '-f', file]);
    },
    deniedToControllers() {
      const requests = server.requests.filter((r) => r.userAgent === CONTROLLERS_USER_AGENT);
      if (requests.length === 0) throw new Error('the controllers made no requests under their user agent');
      return unauthorizedRequests(requests, terrakojoFamily.rbac);
    },
    async close() {
      await manager.stop();
      await Promise.all(informers.map((i) => i.stop()));
      await Promise.all(clients.map((c) => c.close()));
      await gh.close();
      await kubelet.close();
      await server.close();
    },
  };
}
