// What terrakojo's end-to-end tests start from: the GitHub test server with a token, and `bosun up` (node agent,
// controllers, GitHub webhook receiver) pointed at it, with a client and kubectl for the tests' own checks.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import type { CheckRun } from '../../github-server/index.ts';
import { startGitHubTestServer, type GitHubTestServer } from '../../github-server/index.ts';
import { bin, exited, freePort, startReady } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from '../../node/e2e/bosun-up.ts';

export const OWNER = 'acme';
export const TOKEN = 'ghp_e2e';
export const WEBHOOK_SECRET = 'e2e-webhook-secret';

export interface TerrakojoUp {
  gh: GitHubTestServer;
  up: BosunUp;
  client: KubeClient;
  webhookUrl: string;
  /** With controllersApart: kill -9 of the terrakojo controllers' process, then the same command again. */
  killControllers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * controllersApart: the terrakojo controllers run in a `bosun controllers` process of their own beside `bosun up`
 * (which keeps the API server, the workload controllers, the node agent and the webhook receiver), so that a
 * test can kill them alone.
 */
export async function startTerrakojoUp(options: { controllersApart?: boolean } = {}): Promise<TerrakojoUp> {
  const gh = await startGitHubTestServer();
  gh.addToken(TOKEN);
  const secretDir = mkdtempSync(join(tmpdir(), 'bosun-tk-secret-'));
  const secretFile = join(secretDir, 'webhook-secret');
  writeFileSync(secretFile, `${WEBHOOK_SECRET}\n`);
  const hookPort = await freePort();
  const flags = ['--webhook-server-port', String(hookPort), '--webhook-secret-file', secretFile];
  // The test server needs no pacing of writes; GitHub itself asks for a second between them.
  const env = { GITHUB_API_URL: gh.apiUrl, GITHUB_WRITE_INTERVAL_MS: '0', TERRAKOJO_DETAILS_URL: 'http://bosun.example/ui' };
  const up = await startBosunUp(options.controllersApart ? [...flags, '--controllers', 'workloads'] : flags, env);
  const kubeconfig = join(up.dataDir, 'kubeconfig');
  const client = createKubeClient({ kubeconfigPath: kubeconfig });
  const startControllers = () => startReady([bin, 'controllers', '--kubeconfig', kubeconfig, '--controllers', 'terrakojo', '--metrics-port', '0', '--no-webhook'], 'bosun controllers started', env);
  let controllers: ChildProcess | undefined = options.controllersApart ? await startControllers() : undefined;
  return {
    gh,
    up,
    client,
    webhookUrl: `http://127.0.0.1:${hookPort}/webhook`,
    async killControllers() {
      assert.ok(controllers, 'the controllers run apart');
      controllers.kill('SIGKILL');
      await exited(controllers);
      controllers = await startControllers();
    },
    async close() {
      if (controllers) {
        controllers.kill('SIGTERM');
        await exited(controllers);
      }
      await client.close();
      await up.close();
      await gh.close();
      rmSync(secretDir, { recursive: true, force: true });
    },
  };
}

/** A namespace with the token Secret, a Repository for OWNER/repo (its GitHub repository made, webhook on) and templates. */
export async function repositoryIn(t: TerrakojoUp, namespace: string, repo: string, templates: object[], options: { webhook?: boolean } = {}): Promise<void> {
  t.gh.createRepository(OWNER, repo, { defaultBranch: 'main' });
  if (options.webhook !== false) t.gh.addWebhook(OWNER, repo, { url: t.webhookUrl, secret: WEBHOOK_SECRET });
  const objects = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'github-token', namespace }, stringData: { token: TOKEN } },
    ...templates.map((spec) => ({ apiVersion: 'terrakojo.io/v1alpha1', kind: 'WorkflowTemplate', metadata: { namespace, ...(spec as { metadata: object }).metadata }, spec: (spec as { spec: object }).spec })),
    {
      apiVersion: 'terrakojo.io/v1alpha1',
      kind: 'Repository',
      metadata: { name: repo, namespace },
      spec: { owner: OWNER, name: repo, type: 'github', defaultBranch: 'main', githubSecretRef: { name: 'github-token' } },
    },
  ];
  await t.up.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  // The first sync takes the head as it finds it: wait for it, so that what a test pushes next is new.
  const head = t.gh.branchHead(OWNER, repo, 'main') ?? '';
  await t.up.ok(['wait', '-n', namespace, `repository/${repo}`, `--for=jsonpath={.status.lastDefaultBranchHeadSha}=${head}`, '--timeout=60s']);
}

/** A WorkflowTemplate whose Job runs `script` with sh. */
export function shellTemplate(name: string, paths: string[], script: string, executionUnit = 'folder'): object {
  return {
    metadata: { name },
    spec: {
      displayName: name[0]!.toUpperCase() + name.slice(1),
      match: { paths, executionUnit },
      job: { template: { spec: { containers: [{ name: 'run', image: 'busybox', command: ['sh', '-c', script] }] } } },
    },
  };
}

export const runsOn = (t: TerrakojoUp, repo: string, sha: string): CheckRun[] => t.gh.checkRuns(OWNER, repo).filter((r) => r.head_sha === sha);

/** Waits until `count` check runs exist on sha and all are completed. */
export async function completedRuns(t: TerrakojoUp, repo: string, sha: string, count: number, timeoutMs = 90_000): Promise<CheckRun[]> {
  await t.gh.until(
    () => runsOn(t, repo, sha).length >= count && runsOn(t, repo, sha).every((r) => r.status === 'completed'),
    timeoutMs,
    `${count} completed check runs on ${sha.slice(0, 8)}`,
    () => JSON.stringify(runsOn(t, repo, sha).map((r) => [r.name, r.status, r.conclusion])),
  );
  const runs = runsOn(t, repo, sha);
  assert.equal(runs.length, count, 'no duplicate check runs');
  return runs.sort((a, b) => a.name.localeCompare(b.name));
}

/** The (status, conclusion) steps a check run went through, as "queued", "in_progress", "completed/success". */
export const steps = (run: CheckRun): string[] => run.history.map((h) => (h.conclusion ? `${h.status}/${h.conclusion}` : h.status));
