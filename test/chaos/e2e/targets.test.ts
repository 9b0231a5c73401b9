// Upstream's "Disruption Controller" e2e scenarios about target selection (controllers/disruption_controller_test.go),
// against `bosun up` with its node agent: targets are real processes, chaos pods run Bosun's injector in dry-run.
// Kinds: upstream's network + cpu pressure, with dns in place of grpc (refused here: it needs eBPF-free gRPC
// interceptors in the target), so each target still gets three chaos pods.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDisruption, defaultSpec, expectChaosInjectors, expectChaosPods, expectStatus, freshNamespace, startChaosUp, twoTargets, type ChaosUp } from './chaos-up.ts';

describe('chaos e2e: target selection (upstream scenarios)', { timeout: 600_000 }, () => {
  let c: ChaosUp;
  before(async () => {
    c = await startChaosUp();
  });
  after(async () => {
    await c?.close();
  });

  /** JustBeforeEach of upstream: both targets running, then the disruption, then the expected status. */
  async function inject(spec = defaultSpec(), expected: 'Injected' | 'PartiallyInjected' | 'NotInjected' = 'Injected'): Promise<string> {
    const ns = await freshNamespace(c, 'sel');
    await twoTargets(c, ns);
    await createDisruption(c, ns, spec);
    await expectStatus(c, ns, [expected]);
    return ns;
  }

  it('1. annotation filter foo=baz with count 100% selects one of two pods (3 chaos pods)', async () => {
    const ns = await inject({ ...defaultSpec(), filter: { annotations: { foo: 'baz' } }, count: '100%' });
    await expectChaosPods(c, ns, 3);
  });

  it('2. annotation filter fob=baf and selector second=true select the second pod (3 chaos pods)', async () => {
    const ns = await inject({ ...defaultSpec(), filter: { annotations: { fob: 'baf' } }, selector: { second: 'true' }, count: '100%' });
    await expectChaosPods(c, ns, 3);
  });

  it('3. node level targets the node (1 chaos pod)', async () => {
    const ns = await freshNamespace(c, 'node');
    const node = (await c.up.ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    await createDisruption(c, ns, { dryRun: true, count: 1, unsafeMode: { disableAll: true }, level: 'node', selector: { 'kubernetes.io/hostname': node }, network: { hosts: [{ host: '127.0.0.1', port: 80, protocol: 'tcp' }], delay: 1 } });
    await expectStatus(c, ns, ['Injected']);
    const [pod] = await expectChaosPods(c, ns, 1);
    assert.equal((pod?.['spec'] as { nodeName?: string }).nodeName, node);
  });

  it('5. one pod and one container: 3 chaos pods, 3 targeted containers', async () => {
    const ns = await inject();
    await expectChaosPods(c, ns, 3);
    await expectChaosInjectors(c, ns, 3);
  });

  it('6. all pods and one container: 6 chaos pods, 6 targeted containers', async () => {
    const ns = await inject({ ...defaultSpec(), count: '100%' });
    await expectChaosPods(c, ns, 6);
    await expectChaosInjectors(c, ns, 6);
  });

  it('7. a second identical disruption does not take the same targets: still 6 chaos pods', async () => {
    const ns = await inject({ ...defaultSpec(), count: '100%' });
    await createDisruption(c, ns, { ...defaultSpec(), count: '100%' }, 'dis-two');
    await expectStatus(c, ns, ['NotInjected'], undefined, 'dis-two');
    await expectChaosPods(c, ns, 6);
    await expectChaosInjectors(c, ns, 6);
    await expectChaosPods(c, ns, 0, 'dis-two');
  });

  it('8. count 30% of 2 rounds up to 1 target: 3 chaos pods', async () => {
    const ns = await inject({ ...defaultSpec(), count: '30%' });
    await expectChaosPods(c, ns, 3);
    await expectChaosInjectors(c, ns, 3);
  });

  it('9. all pods and all containers by default: 6 chaos pods, 9 targeted containers', async () => {
    const ns = await inject({ ...defaultSpec(), count: '100%', containers: [], duration: '2m' });
    await expectChaosPods(c, ns, 6);
    await expectChaosInjectors(c, ns, 9);
  });
});
