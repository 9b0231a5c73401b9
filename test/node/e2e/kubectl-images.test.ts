// Issue 20's "Must show" with real kubectl against `bosun up --container-runtime oci`: images from Debian's
// docker-registry on 127.0.0.1, built here from busybox-static, under a name the registries file mirrors there.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildOciImage, pushImage, type BuiltImage } from '../../helpers/oci-image.ts';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** Runs argv on a terminal of its own (kubectl wants one for -t), rows x cols; resolves with its exit code and output. */
function onTerminal(argv: string[], rows: number, cols: number): Promise<{ code: number | null; stdout: string }> {
  const quoted = argv.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', `stty rows ${rows} cols ${cols}; exec ${quoted}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('images on bosun up --container-runtime oci', () => {
  let up: BosunUp;
  let registry: TestRegistry;
  let privateRegistry: TestRegistry;
  const images: BuiltImage[] = [];
  const work = mkdtempSync(join(tmpdir(), 'bosun-images-'));
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const field = (name: string, path: string) => ok(['get', 'pod', name, '-o', `jsonpath=${path}`]);

  before(async () => {
    registry = await startTestRegistry();
    privateRegistry = await startTestRegistry({ htpasswd: { alice: 'wonderland' } });
    const content = join(work, 'content');
    mkdirSync(join(content, 'etc'), { recursive: true });
    writeFileSync(join(content, 'etc', 'image-marker'), 'only in the image\n');
    writeFileSync(join(content, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000:app:/home/app:/bin/sh\n');
    writeFileSync(join(content, 'etc', 'group'), 'root:x:0:\napp:x:1000:\n');
    const web = await buildOciImage({ layers: [{ dir: content }], config: { cmd: ['sh', '-c', 'echo from the image cmd; sleep 3600'], env: ['GREETING=from the image'] } });
    const user = await buildOciImage({ layers: [{ dir: content }], config: { cmd: ['sh', '-c', 'id -u; id -g'], user: 'app' } });
    images.push(web, user);
    await pushImage(web, `${registry.host}/bosun/web:1.0`);
    await pushImage(user, `${registry.host}/bosun/user:1.0`);
    await pushImage(web, `${privateRegistry.host}/private/web:1.0`, { credentials: privateRegistry.credentials! });
    const registries = join(work, 'registries.yaml');
    writeFileSync(registries, `mirrors:\n  example.test:\n    endpoint: ["http://${registry.host}"]\n`);
    up = await startBosunUp(['--container-runtime', 'oci', '--registry-config', registries]);
  });
  after(async () => {
    await up?.close();
    await registry?.stop();
    await privateRegistry?.stop();
    for (const image of images) image.remove();
    rmSync(work, { recursive: true, force: true });
  });

  test('kubectl create deployment runs the image\'s file system; exec and logs work; imageID is repo@sha256', async () => {
    await ok(['create', 'deployment', 'web', '--image=example.test/bosun/web:1.0', '--', 'httpd', '-f', '-p', '8080']);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=90s']);
    const name = (await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    assert.equal(await ok(['exec', name, '--', 'cat', '/etc/image-marker']), 'only in the image\n');
    const host = await up.kubectl(['exec', name, '--', 'cat', '/etc/debian_version']);
    assert.notEqual(host.code, 0, 'the host\'s /etc/debian_version is not in the container');
    assert.match(await field(name, '{.status.containerStatuses[0].imageID}'), /^example\.test\/bosun\/web@sha256:[0-9a-f]{64}$/);
    assert.match(await field(name, '{.status.containerStatuses[0].containerID}'), /^bosun-oci:\/\//);
    // Node.status.images, written after the pull: the image by digest first, then by tag.
    await ok(['wait', 'node', '--all', `--for=jsonpath={.status.images[0].names[0]}=example.test/bosun/web@${images[0]?.digest ?? ''}`, '--timeout=30s']);
  });

  test('without command the image\'s Cmd runs with its Env; logs -f follows it', async () => {
    await ok(['run', 'cmd', '--image=example.test/bosun/web:1.0', '--restart=Never']);
    await ok(['wait', '--for=condition=Ready', 'pod/cmd', '--timeout=90s']);
    const logs = up.kubectl.stream(['logs', '-f', 'cmd']);
    try {
      assert.deepEqual(await logs.waitForLines(1, 30_000), ['from the image cmd']);
    } finally {
      await logs.stop();
    }
    assert.equal(await ok(['exec', 'cmd', '--', 'sh', '-c', 'echo $GREETING']), 'from the image\n');
  });

  test('a stdinOnce container (kubectl run -i): the first attach shows what it wrote before it', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once' }, spec: { restartPolicy: 'Never', containers: [{ name: 'once', image: 'example.test/bosun/web:1.0', stdin: true, stdinOnce: true }] } };
    await ok(['apply', '-f', '-'], JSON.stringify(pod));
    await ok(['wait', '--for=condition=Ready', 'pod/once', '--timeout=90s']);
    // The image's Cmd prints its line at once; the attacher comes after it is in the log.
    const logs = up.kubectl.stream(['logs', '-f', 'once']);
    try {
      await logs.waitForLines(1, 30_000);
    } finally {
      await logs.stop();
    }
    const first = up.kubectl.stream(['attach', 'once']);
    try {
      assert.deepEqual(await first.waitForLines(1, 30_000), ['from the image cmd']);
    } finally {
      await first.stop();
    }
  });

  test('an image with USER app runs as uid 1000 from the image\'s /etc/passwd', async () => {
    await ok(['run', 'user', '--image=example.test/bosun/user:1.0', '--restart=Never']);
    await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/user', '--timeout=90s']);
    assert.equal(await ok(['logs', 'user']), '1000\n1000\n');
  });

  test('a missing tag waits with ErrImagePull then ImagePullBackOff, with Events', async () => {
    await ok(['run', 'missing', '--image=example.test/bosun/web:nope', '--restart=Never']);
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ImagePullBackOff', 'pod/missing', '--timeout=60s']);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=missing', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    assert.match(events, /Pulling: Pulling image "example.test\/bosun\/web:nope"/);
    assert.match(events, /Failed: Failed to pull image "example.test\/bosun\/web:nope": .*not found/);
    assert.match(events, /Failed: Error: ErrImagePull/);
    assert.match(events, /BackOff: Back-off pulling image "example.test\/bosun\/web:nope"/);
  });

  test('a private image pulls with an imagePullSecret and fails without it, naming the 401', async () => {
    const image = `${privateRegistry.host}/private/web:1.0`;
    await ok(['run', 'denied', `--image=${image}`, '--restart=Never', '--command', '--', 'sleep', '3600']);
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ImagePullBackOff', 'pod/denied', '--timeout=60s']);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=denied', '-o', 'jsonpath={range .items[*]}{.message}{"\\n"}{end}']);
    assert.match(events, /401 Unauthorized/);
    await ok(['create', 'secret', 'docker-registry', 'regcred', `--docker-server=${privateRegistry.host}`, '--docker-username=alice', '--docker-password=wonderland']);
    await ok(['run', 'allowed', `--image=${image}`, '--restart=Never', '--overrides={"spec":{"imagePullSecrets":[{"name":"regcred"}]}}', '--command', '--', 'cat', '/etc/image-marker']);
    await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/allowed', '--timeout=90s']);
    assert.equal(await ok(['logs', 'allowed']), 'only in the image\n');
  });
  test('kubectl exec -it: a terminal in the image\'s container, with kubectl\'s size, the exit code passed on', async () => {
    const argv = ['kubectl', '--kubeconfig', join(up.dataDir, 'kubeconfig'), '--cache-dir', up.kubectl.cacheDir, 'exec', '-it', 'cmd', '--', 'sh', '-c', 'tty; stty size; exit 4'];
    const result = await onTerminal(argv, 33, 77);
    assert.equal(result.code, 4, result.stdout);
    // A second CR comes when the command writes before runc 1.1.5 has cleared ONLCR on the container's terminal
    // (docs/node.md); a terminal shows the same.
    assert.match(result.stdout, /\/dev\/pts\/\d+\r{1,2}\n33 77\r{1,2}\n/);
  });
});
