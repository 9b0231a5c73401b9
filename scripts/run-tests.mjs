// Runs every *.test.ts under test/ (Node 20's --test does not expand globs) with node:test through tsx, then
// prints the failed tests again at the very end, where a truncated CI log still shows them.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (entry.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = collect('test').filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
const summaryDir = mkdtempSync(join(tmpdir(), 'bosun-test-summary-'));
const summaryFile = join(summaryDir, 'failures.txt');
const result = spawnSync(
  process.execPath,
  [
    '--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000',
    // node:test's own default: spec on a terminal, TAP otherwise
    `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout',
    `--test-reporter=${new URL('./failure-summary-reporter.mjs', import.meta.url).href}`,
    `--test-reporter-destination=${summaryFile}`,
    ...files,
  ],
  { stdio: 'inherit' },
);
try {
  process.stdout.write(readFileSync(summaryFile, 'utf8'));
} catch {
  // the run died before the reporter wrote anything; its own output says why
}
rmSync(summaryDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
