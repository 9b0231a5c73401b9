// Bosun's controllers from a real image built by the project: scripts/build-image.ts lays out the Dockerfile's
// filesystem (Node, the production dependencies, the compiled CLI), pushed to docker-registry on 127.0.0.1, and
// `bosun manifests --image` applied on `bosun up --container-runtime oci`: the pods run the image under runc as
// the Deployment says (uid 65532, read-only root filesystem), elect a leader and deploy a Landscaper example.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildBosunRootfs } from '../../scripts/build-image.ts';
import { buildOciImage, pushImage } from '../helpers/oci-image.ts';
import { startTestRegistry, type TestRegistry } from '../helpers/test-registry.ts';
import { startBosunUp, type BosunUp } from '../node/e2e/bosun-up.ts';
import { installControllers, landscaperTarget, NS, succeeded } from './in-cluster.ts';

describe("Bosun's own image installed on bosun up", () => {
  let registry: TestRegistry;
  let up: BosunUp;
  let work: string;
  let image: string;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'bosun-image-'));
    registry = await startTestRegistry();
    const { rootfs, config } = buildBosunRootfs(work);
    image = `${registry.host}/bosun/bosun:test`;
    await pushImage(await buildOciImage({ busybox: false, layers: [{ dir: rootfs }], config }), image);
    up = await startBosunUp(['--controllers', 'workloads', '--container-runtime', 'oci']);
  });
  after(async () => {
    await up.close();
    await registry.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('the controllers run from the image under runc as its non-root user and deploy an installation', { timeout: 300_000 }, async () => {
    const [pod] = await installControllers(up, { image });
    assert.ok(pod);
    // The image's own Node, as the Deployment's user, on a root filesystem it cannot write.
    const probe = 'const fs = require("node:fs"); let writable = true; try { fs.writeFileSync("/app/x", "") } catch { writable = false } console.log(process.getuid(), process.execPath, writable)';
    assert.equal((await up.ok(['exec', '-n', NS, pod.metadata.name, '--', '/usr/local/bin/node', '-e', probe])).trim(), '65532 /usr/local/bin/node false');
    await landscaperTarget(up);
    await up.ok(['apply', '-f', 'examples/landscaper/manifest-configmaps']);
    await succeeded(up, 'configmaps');
    assert.equal(await up.ok(['get', 'configmap', 'settings', '-n', 'default', '-o', 'jsonpath={.data.replicas}']), '3');
  });
});
