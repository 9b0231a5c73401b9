import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildOciImage, pushImage } from '../../helpers/oci-image.ts';
import { startTestRegistry } from '../../helpers/test-registry.ts';
import { startBosunUp } from './bosun-up.ts';
test('debug', async () => {
  const registry = await startTestRegistry();
  const work = mkdtempSync(join(tmpdir(), 'bosun-images-'));
  const content = join(work, 'content'); mkdirSync(join(content, 'etc'), { recursive: true });
  writeFileSync(join(content, 'etc', 'image-marker'), 'x\n');
  const web = await buildOciImage({ layers: [{ dir: content }], config: { cmd: ['sh', '-c', 'echo hi; sleep 3600'] } });
  await pushImage(web, `${registry.host}/bosun/web:1.0`);
  const up = await startBosunUp(['--container-runtime', 'oci']);
  try {
    await up.kubectl(['run', 'cmd', `--image=${registry.host}/bosun/web:1.0`, '--restart=Never']);
    await sleep(8000);
    console.log((await up.kubectl(['get', 'pod', 'cmd', '-o', 'yaml'])).stdout);
    console.log((await up.kubectl(['get', 'events'])).stdout);
  } finally { await up.close(); await registry.stop(); }
});
