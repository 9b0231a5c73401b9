// Issue 20: the tricky-layer image through `bosun up --container-runtime oci` and real kubectl: whiteouts, an
// opaque directory and hard links as the image says, a file capability kept, and a layer whose entry leaves the
// layer through a symlink refused by name (the pod waits in ErrImagePull/ImagePullBackOff; nothing is written).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildOciImage, pushImage, type BuiltImage } from '../../helpers/oci-image.ts';
import { startTestRegistry, type TestRegistry } from '../../helpers/test-registry.ts';
import { buildTrickyImage, FILE_CAPABILITY_HEX } from '../images/layer-fixture.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** The overlay root file system the container of this containerID runs on, as the host sees it. */
function rootfsOf(containerID: string): string {
  const id = containerID.replace(/^bosun-oci:\/\//, '');
  const line = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').find((l) => l.includes(' - overlay ') && (l.split(' ')[4] ?? '').endsWith(`/${id}`));
  assert.ok(line, `the overlay of ${id} is mounted`);
  return line.split(' ')[4] ?? '';
}

describe('the tricky-layer image on bosun up --container-runtime oci', () => {
  let up: BosunUp;
  let registry: TestRegistry;
  const images: BuiltImage[] = [];
  const work = mkdtempSync(join(tmpdir(), 'bosun-layers-'));
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);

  before(async () => {
    registry = await startTestRegistry();
    buildTrickyImage(work);
    const tricky = await buildOciImage({ layers: [{ tar: join(work, 'base.tar') }, { tar: join(work, 'changes.tar') }] });
    const escape = await buildOciImage({ layers: [{ tar: join(work, 'escape.tar') }] });
    images.push(tricky, escape);
    await pushImage(tricky, `${registry.host}/bosun/tricky:1.0`);
    await pushImage(escape, `${registry.host}/bosun/escape:1.0`);
    up = await startBosunUp(['--container-runtime', 'oci']);
  });
  after(async () => {
    await up?.close();
    await registry?.stop();
    for (const image of images) image.remove();
    rmSync(work, { recursive: true, force: true });
  });

  test('whiteouts, the opaque directory and hard links as the image says; the file capability kept', async () => {
    await ok(['run', 'tricky', `--image=${registry.host}/bosun/tricky:1.0`, '--restart=Never', '--command', '--', 'sleep', '3600']);
    await ok(['wait', '--for=condition=Ready', 'pod/tricky', '--timeout=90s']);
    const inside = (script: string) => ok(['exec', 'tricky', '--', 'sh', '-c', script]);
    assert.equal(await inside('ls /data'), 'both.txt\ndir-both\nkeep.txt\n');
    assert.equal(await inside('cat /data/both.txt; ls /data/dir-both'), 'upper\nupper.txt\n');
    assert.equal(await inside('ls /opaque'), 'new.txt\n');
    const [a, b] = (await inside('stat -c %i /same/a /same/b')).trim().split('\n');
    assert.equal(a, b, 'a and b are one file');
    assert.equal(await inside('cat /bin/cap-link; stat -c %a /bin/suid'), 'capability\n4755\n');
    const containerID = (await ok(['get', 'pod', 'tricky', '-o', 'jsonpath={.status.containerStatuses[0].containerID}'])).trim();
    const capability = execFileSync('python3', ['-c', 'import os,sys; print(os.getxattr(sys.argv[1], "security.capability").hex())', join(rootfsOf(containerID), 'bin', 'cap')], { encoding: 'utf8' });
    assert.equal(capability.trim(), FILE_CAPABILITY_HEX);
  });

  test('a layer entry through a symlink out of the layer is refused by name, and nothing is written', async () => {
    const outside = '/tmp/pwned';
    rmSync(outside, { force: true });
    await ok(['run', 'escape', `--image=${registry.host}/bosun/escape:1.0`, '--restart=Never', '--command', '--', 'true']);
    await ok(['wait', '--for=jsonpath={.status.containerStatuses[0].state.waiting.reason}=ImagePullBackOff', 'pod/escape', '--timeout=60s']);
    const events = await ok(['get', 'events', '--field-selector', 'involvedObject.name=escape', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    assert.match(events, /Failed: Failed to pull image ".*escape:1.0": .*"evil\/pwned" passes through a symlink that leads above the layer root/);
    assert.equal(existsSync(outside), false);
  });
});
