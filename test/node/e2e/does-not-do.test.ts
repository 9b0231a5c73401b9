// README.md's "What the embedded plane does not do", kept true: every row's command runs against `bosun up` and
// prints what the row says. When Bosun learns one of these, this test fails until the row goes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { root } from '../../docs/shell-blocks.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** The section's table rows: what, the command, what it prints. */
function rows(): { what: string; command: string; says: string }[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## What the embedded plane does not do\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/^\| ([^|]+) \| `([^`]+)` \| `([^`]+)` \|$/gm)].map((m) => ({ what: m[1]!.trim(), command: m[2]!, says: m[3]! }));
}

let up: BosunUp;
before(async () => {
  up = await startBosunUp();
});
after(async () => {
  await up.close();
});

test('README.md: each thing the embedded plane does not do is tried, and says so', () => {
  const table = rows();
  assert.ok(table.length >= 1, `the README lists what is missing (found ${table.length} rows)`);
  const home = mkdtempSync(join(tmpdir(), 'bosun-does-not-do-'));
  for (const { what, command, says } of table) {
    const result = spawnSync('bash', ['-c', command], { encoding: 'utf8', env: { ...process.env, HOME: home, KUBECONFIG: join(up.dataDir, 'kubeconfig') } });
    const out = `${result.stdout}${result.stderr}`;
    assert.ok(out.includes(says), `${what}: \`${command}\` printed ${JSON.stringify(out)}, the README says ${JSON.stringify(says)}`);
  }
});
