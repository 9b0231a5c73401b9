// Issue 22's first "Must show" on Bosun's own plane, with real kubectl: `bosun up` with none of Bosun's families,
// then `bosun manifests | kubectl apply -f -`. The controller Deployment runs as pods on the node agent under its
// ServiceAccount with RBAC enforced (Bosun's default image runs this checkout's CLI on the host runtime; the real
// image is in-cluster-image.test.ts), one replica holds the leader Lease, and the controllers in the pods run a
// Landscaper, a terrakojo (against the GitHub test server) and a chaos example to their end states. Killing the
// leader pod hands the Lease over; a verb taken out of a ClusterRole shows as a Forbidden naming it. The pods'
// webhooks are called through their Service (an invalid Disruption is refused by the chaos webhook).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startGitHubTestServer, type GitHubTestServer } from '../github-server/index.ts';
import { startBosunUp, type BosunUp } from '../node/e2e/bosun-up.ts';
import { INSTALL, installControllers, landscaperTarget, NS, podReport, SELECTOR, succeeded, type ControllerPod } from './in-cluster.ts';

/** The token of examples/terrakojo/repository.yaml. */
const GITHUB_TOKEN = 'ghp_example';
/** client-go's default retry period, which `bosun controllers --leader-elect` uses, at its largest jitter (×1.2). */
const RETRY_JITTERED_SECONDS = 2 * 1.2;

/** manifest-configmaps once more, under other names: the Installation, its DataObject and its ConfigMaps. */
const SECOND_INSTALLATION = readFileSync('examples/landscaper/manifest-configmaps/installation.yaml', 'utf8')
  .replace(/name: configmaps\n(\s+)namespace/, 'name: configmaps-again\n$1namespace')
  .replace('dataRef: configmaps-greeting', 'dataRef: configmaps-again-greeting')
  .replace(/^(\s+)name: (greeting|settings)$/gm, '$1name: $2-again');

const THIRD_INSTALLATION = SECOND_INSTALLATION.replaceAll('-again', '-third');

interface LeaseSpec {
  holderIdentity: string;
  leaseDurationSeconds: number;
  leaseTransitions: number;
  acquireTime: string;
}

describe('bosun manifests installed on bosun up', () => {
  let up: BosunUp;
  let gh: GitHubTestServer;
  let pods: ControllerPod[];
  before(async () => {
    // The workloads family is the plane's own Deployment and ReplicaSet controllers, what a real cluster's
    // kube-controller-manager is; none of Bosun's families runs in bosun up itself.
    up = await startBosunUp(['--controllers', 'workloads']);
    // GitHub for terrakojo: the test server on the pods' hostIP, the node's address on their bridge.
    await up.ok(['run', 'host-ip', '--image=busybox', '--restart=Never', '--command', '--', 'true']);
    await up.ok(['wait', 'pod/host-ip', '--for=jsonpath={.status.hostIP}', '--timeout=60s']);
    gh = await startGitHubTestServer({ host: await up.ok(['get', 'pod/host-ip', '-o', 'jsonpath={.status.hostIP}']) });
    await up.ok(['delete', 'pod/host-ip']);
    gh.addToken(GITHUB_TOKEN);
    gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  });
  after(async () => {
    await up.close();
    await gh.close();
  });

  test('the controller pods run under their ServiceAccount with RBAC enforced and elect a leader', { timeout: 180_000 }, async () => {
    // How an operator points terrakojo at GitHub Enterprise Server: the environment of the controllers.
    pods = await installControllers(up, { env: { GITHUB_API_URL: gh.apiUrl, GITHUB_WRITE_INTERVAL_MS: '0' } });
    // The ServiceAccount has what its roles grant and nothing more.
    const as = `--as=system:serviceaccount:${NS}:${INSTALL}`;
    assert.equal((await up.ok(['auth', 'can-i', 'update', 'installations.landscaper.gardener.cloud', '--subresource=status', as])).trim(), 'yes');
    for (const request of [['create', 'clusterrolebindings'], ['delete', 'nodes'], ['create', 'pods', '--subresource=exec']]) {
      const answer = await up.kubectl(['auth', 'can-i', ...request, as]);
      assert.equal(answer.stdout.trim(), 'no', request.join(' '));
    }
  });

  test('Landscaper: an installation deploys through a Target whose ServiceAccount may edit its namespace', { timeout: 180_000 }, async () => {
    await landscaperTarget(up);
    await up.ok(['apply', '-f', 'examples/landscaper/manifest-configmaps']);
    await succeeded(up, 'configmaps');
    assert.equal(await up.ok(['get', 'configmap', 'settings', '-n', 'default', '-o', 'jsonpath={.data.replicas}']), '3');
  });

  test('terrakojo: the example repository\'s first commit runs its docs Workflow, mirrored into a check run', { timeout: 180_000 }, async () => {
    await up.ok(['apply', '-f', 'examples/terrakojo']);
    await up.ok(['wait', 'repository/infra', '-n', 'default', '--for=jsonpath={.status.synced}=true', '--timeout=90s']);
    const head = gh.branchHead('acme', 'infra', 'main') ?? '';
    const runs = () => gh.checkRuns('acme', 'infra').filter((run) => run.head_sha === head);
    await gh.until(() => runs().some((run) => run.status === 'completed'), 120_000, 'a completed check run on the default branch', () => JSON.stringify(runs()));
    assert.deepEqual(runs().map((run) => [run.name, run.conclusion]), [['Docs(.)', 'success']]);
  });

  test('chaos: a cpu-pressure Disruption is injected into its target and cleaned up on delete', { timeout: 240_000 }, async () => {
    await up.ok(['apply', '-f', 'examples/chaos/target.yaml']);
    await up.ok(['rollout', 'status', 'deployment/web', '-n', 'chaos-demo', '--timeout=120s']);
    // The chaos webhooks, served by the pods behind the bosun-webhook Service, refuse an invalid Disruption.
    const services = await up.ok(['get', 'validatingwebhookconfigurations', '-o', 'jsonpath={..clientConfig.service.name}']);
    assert.match(services, /\bbosun-webhook\b/);
    const invalid = 'apiVersion: chaos.datadoghq.com/v1beta1\nkind: Disruption\nmetadata: {name: invalid, namespace: chaos-demo}\nspec: {count: "150%", level: node, containers: [app], selector: {app: web}, containerFailure: {}, cpuPressure: {}}\n';
    const refused = await up.kubectl(['apply', '-f', '-'], invalid);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /admission webhook "[^"]+" denied the request: 4 errors occurred/);
    await up.ok(['apply', '-f', 'examples/chaos/cpu-pressure.yaml']);
    const injected = await up.kubectl(['wait', 'disruption/cpu-pressure', '-n', 'chaos-demo', '--for=jsonpath={.status.injectionStatus}=Injected', '--timeout=120s']);
    assert.equal(injected.code, 0, `${injected.stderr}\n${(await up.kubectl(['get', 'disruption/cpu-pressure', '-n', 'chaos-demo', '-o', 'yaml'])).stdout}\n${await podReport(up)}`);
    await up.ok(['delete', '-f', 'examples/chaos/cpu-pressure.yaml', '--timeout=120s']);
    assert.equal(await up.ok(['get', 'pods', '-n', 'chaos-engineering', '-l', 'chaos.datadoghq.com/disruption-name=cpu-pressure', '-o', 'name']), '');
  });

  test('killing the leader pod mid-job hands the Lease over once it expires, and the job is not lost', { timeout: 240_000 }, async (t) => {
    const lease = JSON.parse(await up.ok(['get', `lease/${INSTALL}`, '-n', NS, '-o', 'json'])) as { spec: LeaseSpec };
    const leader = pods.find((pod) => lease.spec.holderIdentity.startsWith(`${pod.metadata.name}_`));
    assert.ok(leader, `the holder ${lease.spec.holderIdentity} is one of the pods`);
    // An installation whose job the leader has just begun: the kill must not lose it.
    await up.ok(['apply', '-f', '-'], SECOND_INSTALLATION);
    await up.ok(['wait', 'installation/configmaps-again', '-n', 'default', '--for=jsonpath={.status.jobID}', '--timeout=60s']);
    const killedAt = Date.now();
    await up.ok(['delete', 'pod', leader.metadata.name, '-n', NS, '--grace-period=0', '--force']);
    const transitions = lease.spec.leaseTransitions + 1;
    await up.ok(['wait', `lease/${INSTALL}`, '-n', NS, `--for=jsonpath={.spec.leaseTransitions}=${transitions}`, `--timeout=${2 * lease.spec.leaseDurationSeconds}s`]);
    const taken = JSON.parse(await up.ok(['get', `lease/${INSTALL}`, '-n', NS, '-o', 'json'])) as { spec: LeaseSpec };
    // Another pod of the Deployment holds it: the surviving replica, or the leader's replacement when it started
    // soon enough to see the Lease expire first (each judges expiry from when it last saw the Lease change).
    const holderPod = taken.spec.holderIdentity.slice(0, taken.spec.holderIdentity.lastIndexOf('_'));
    assert.notEqual(holderPod, leader.metadata.name, `the killed leader still holds the Lease: ${taken.spec.holderIdentity}`);
    const replicaSetPrefix = leader.metadata.name.slice(0, leader.metadata.name.lastIndexOf('-') + 1);
    assert.ok(holderPod.startsWith(replicaSetPrefix), `a pod of the Deployment holds the Lease: ${taken.spec.holderIdentity}`);
    // The hand-over, read from the Lease. As client-go's, a candidate judges expiry from when it last saw the
    // Lease change, and looks every retry period (jittered ×1.2): the Lease is taken at most one lease duration
    // and two such retries after the leader's last renewal, which came before the kill.
    const handOverMs = Date.parse(taken.spec.acquireTime) - killedAt;
    t.diagnostic(`hand-over ${handOverMs} ms after the kill`);
    assert.ok(handOverMs <= (lease.spec.leaseDurationSeconds + 2 * RETRY_JITTERED_SECONDS) * 1000, `hand-over took ${handOverMs} ms`);
    await succeeded(up, 'configmaps-again');
  });

  test('a verb taken out of a family\'s ClusterRole fails the work with a Forbidden that names it', { timeout: 180_000 }, async () => {
    const role = `bosun-landscaper`;
    const rules = JSON.parse(await up.ok(['get', 'clusterrole', role, '-o', 'jsonpath={.rules}'])) as PolicyRule[];
    const status = rules.findIndex((rule) => rule.resources.includes('installations/status') && rule.verbs.includes('update'));
    assert.notEqual(status, -1, `${role} grants update on installations/status: ${JSON.stringify(rules)}`);
    // One verb on one resource: the rule loses installations/status, which comes back with every verb but update.
    const rule = rules[status]!;
    const rest = rule.resources.filter((resource) => resource !== 'installations/status');
    const verbs = rule.verbs.filter((verb) => verb !== 'update');
    const without = [
      ...rules.filter((_, i) => i !== status),
      ...(rest.length > 0 ? [{ ...rule, resources: rest }] : []),
      ...(verbs.length > 0 ? [{ ...rule, resources: ['installations/status'], verbs }] : []),
    ];
    await up.ok(['patch', 'clusterrole', role, '--type=merge', '-p', JSON.stringify({ rules: without })]);
    try {
      await up.ok(['apply', '-f', '-'], THIRD_INSTALLATION);
      // The log line is JSON: quotes in the message are escaped.
      await untilLogged(up, /"configmaps-third\\" is forbidden: User \\"system:serviceaccount:bosun-system:bosun-controllers\\" cannot update resource \\"installations\/status\\" in API group \\"landscaper\.gardener\.cloud\\" in the namespace \\"default\\"/);
    } finally {
      await up.ok(['patch', 'clusterrole', role, '--type=merge', '-p', JSON.stringify({ rules })]);
    }
    // With the verb back, the installation the controllers could not update goes on to Succeeded.
    await succeeded(up, 'configmaps-third');
  });
});

interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/**
 * Follows the controllers' logs until a line matches: a reconcile error is logged with its cause, as
 * controller-runtime logs "Reconciler error", and retried with back-off.
 */
async function untilLogged(up: BosunUp, pattern: RegExp): Promise<void> {
  const logs = up.kubectl.stream(['logs', '-f', '-n', NS, '-l', SELECTOR, '--tail=-1', '--prefix']);
  try {
    await logs.waitForLine(pattern, 90_000);
  } finally {
    await logs.stop();
  }
}

