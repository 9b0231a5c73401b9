// Issue 20: image containers outlive a `bosun up` restart. SIGTERM leaves them running under conmon; the next
// start on the data dir adopts them (same processes, same restartCount, logs continued, a Job completes once).
// A file of its own: it restarts bosun up, and its run time adds to no other test's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { buildOciImage, pushImage, type BuiltImage } from '../../helpers/oci-image.ts';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** The node's pod network directory, the namespace files bound in it now, and the pods its network.json holds. */
function podNetwork(dataDir: string): { dir: string; mounted: string[]; pods: Record<string, { address: string; namespace?: string }> } {
  const [node = ''] = readdirSync(join(dataDir, 'nodes'));
  const dir = realpathSync(join(dataDir, 'nodes', node, 'network'));
  const mountPoints = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' ')[4] ?? '');
  const mounted = mountPoints.filter((point) => point.startsWith(`${dir}/netns/`)).map((point) => point.slice(`${dir}/netns/`.length)).sort();
  const { pods } = JSON.parse(readFileSync(join(dir, 'network.json'), 'utf8')) as { pods: Record<string, { address: string; namespace?: string }> };
  return { dir, mounted, pods };
}

const linkExists = (name: string) => spawnSync('ip', ['link', 'show', 'dev', name], { stdio: 'ignore' }).status === 0;

/** A container's main process on the host, from its node's runtime state (nodes/<name>/oci): its pid and start time (field 22 of stat). */
function hostProcess(dataDir: string, containerID: string): { pid: number; startTime: string } {
  const id = containerID.replace(/^bosun-oci:\/\//, '');
  const [node = ''] = readdirSync(join(dataDir, 'nodes'));
  const pid = Number(readFileSync(join(dataDir, 'nodes', node, 'oci', 'containers', id, 'container.pid'), 'utf8'));
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  return { pid, startTime };
}

describe('image containers across a bosun up restart', () => {
  let up: BosunUp;
  let registry: TestRegistry;
  let image: BuiltImage | undefined;
  const work = mkdtempSync(join(tmpdir(), 'bosun-images-'));
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const field = (name: string, path: string) => ok(['get', 'pod', name, '-o', `jsonpath=${path}`]);

  before(async () => {
    registry = await startTestRegistry();
    const content = join(work, 'content');
    mkdirSync(join(content, 'etc'), { recursive: true });
    writeFileSync(join(content, 'etc', 'image-marker'), 'only in the image\n');
    image = await buildOciImage({ layers: [{ dir: content }], config: { cmd: ['sh', '-c', 'sleep 3600'] } });
    await pushImage(image, `${registry.host}/bosun/web:1.0`);
    const registries = join(work, 'registries.yaml');
    writeFileSync(registries, `mirrors:\n  example.test:\n    endpoint: ["http://${registry.host}"]\n`);
    up = await startBosunUp(['--container-runtime', 'oci', '--registry-config', registries]);
  });
  after(async () => {
    await up?.close();
    await registry?.stop();
    image?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  test('SIGTERM and start again: a Deployment\'s and a Job\'s containers run on (same pids, restartCount 0), logs continue, the Job completes once', async () => {
    await ok(['create', 'deployment', 'keeper', '--image=example.test/bosun/web:1.0', '--', 'sh', '-c', 'echo keeper started; while true; do if [ -e /tmp/go ]; then rm /tmp/go; echo keeper after the restart; fi; sleep 0.2; done']);
    await ok(['create', 'job', 'once', '--image=example.test/bosun/web:1.0', '--', 'sh', '-c', 'echo job started; until [ -e /tmp/done ]; do sleep 0.2; done; echo job done']);
    await ok(['rollout', 'status', 'deployment/keeper', '--timeout=90s']);
    await ok(['wait', '--for=condition=Ready', 'pod', '-l', 'job-name=once', '--timeout=90s']);
    const podOf = async (selector: string) => (await ok(['get', 'pods', '-l', selector, '-o', 'jsonpath={.items[*].metadata.name}'])).trim();
    const keeper = await podOf('app=keeper');
    const job = await podOf('job-name=once');
    const before = new Map<string, { containerID: string; startedAt: string; process: ReturnType<typeof hostProcess> }>();
    for (const pod of [keeper, job]) {
      const [containerID = '', startedAt = ''] = (await field(pod, '{.status.containerStatuses[0].containerID} {.status.containerStatuses[0].state.running.startedAt}')).split(' ');
      before.set(pod, { containerID, startedAt, process: hostProcess(up.dataDir, containerID) });
    }

    const keeperIP = (await field(keeper, '{.status.podIP}')).trim();
    const running = podNetwork(up.dataDir);
    const spares = running.mounted.filter((name) => name.startsWith('_spare-') && !Object.values(running.pods).some((pod) => pod.namespace === name));
    assert.equal(spares.length, 2, `two spare namespaces beside the pods': ${running.mounted.join(', ')}`);
    await up.restart(async () => {
      // The stopped agent left its pods' namespaces and nothing else: its spares and their addresses are gone.
      const stopped = podNetwork(up.dataDir);
      assert.equal(Object.keys(stopped.pods).length, 2, 'the two pods keep their addresses');
      assert.deepEqual(stopped.mounted, Object.entries(stopped.pods).map(([uid, pod]) => pod.namespace ?? uid).sort(), 'only the pods\' namespaces are left');
      for (const spare of spares) assert.equal(linkExists(`bsp${spare.slice('_spare-'.length)}`), false, `${spare}'s veth removed`);
      return Promise.resolve();
    });

    // The new agent adopts the containers once it has set their pods up again; exec reaches a container only then.
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      const touched = await up.kubectl(['exec', keeper, '--', 'touch', '/tmp/go']);
      if (touched.code === 0) break;
      assert.match(touched.stderr, /container not found|not running|unable to upgrade|connection refused/, touched.stderr);
      await sleep(delay);
    }
    for (const pod of [keeper, job]) assert.deepEqual(hostProcess(up.dataDir, before.get(pod)?.containerID ?? ''), before.get(pod)?.process, `the same process runs ${pod}'s container`);
    const logs = up.kubectl.stream(['logs', '-f', keeper]);
    try {
      assert.deepEqual(await logs.waitForLines(2, 30_000), ['keeper started', 'keeper after the restart']);
    } finally {
      await logs.stop();
    }
    await ok(['exec', job, '--', 'touch', '/tmp/done']);
    await ok(['wait', '--for=condition=Complete', 'job/once', '--timeout=60s']);
    assert.equal(await ok(['logs', job]), 'job started\njob done\n');
    assert.equal(await podOf('job-name=once'), job, 'the Job ran one pod');
    assert.match((await ok(['get', 'job', 'once', '-o', 'jsonpath={.status.succeeded}/{.status.failed}'])).trim(), /^1\/0?$/, 'one success, no failure');
    for (const pod of [keeper, job]) {
      const was = before.get(pod);
      assert.ok(was);
      assert.equal((await field(pod, '{.status.containerStatuses[0].restartCount}')).trim(), '0');
      assert.equal((await field(pod, '{.status.containerStatuses[0].containerID}')).trim(), was.containerID);
    }
    assert.equal((await field(keeper, '{.status.containerStatuses[0].state.running.startedAt}')).trim(), before.get(keeper)?.startedAt);
    assert.equal((await field(keeper, '{.status.podIP}')).trim(), keeperIP, 'the pod keeps its address');
    // The new agent made spares of its own, without taking the running pod's namespace for a leftover (the Job's
    // went when it completed).
    assert.ok(Object.values(podNetwork(up.dataDir).pods).some((pod) => pod.address === keeperIP), 'the keeper\'s address is still its own');
    const end = Date.now() + 30_000;
    for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
      const { mounted, pods } = podNetwork(up.dataDir);
      const taken = new Set(Object.entries(pods).map(([uid, pod]) => pod.namespace ?? uid));
      if (mounted.filter((name) => !taken.has(name)).length === 2 && [...taken].every((name) => mounted.includes(name))) break;
      if (Date.now() > end) assert.fail(`expected the pods' namespaces and 2 spares, found ${mounted.join(', ')} for ${JSON.stringify(pods)}`);
      await sleep(delay);
    }
  });
});
