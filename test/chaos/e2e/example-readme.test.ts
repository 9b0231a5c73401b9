// examples/chaos/README.md as a newcomer follows it, against `bosun up` with its node agent: every line runs
// through bash in a directory of the user's (`kubectl get` lines read again until they print what the README
// says), and each `measure.sh` line must print what its comment says, within what a busy machine allows:
// CPU ±15 points, memory ±10 points, throttled disk ±20 %, an unthrottled disk at least twice the throttle.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readmeLines, root, runLine, shellIn, type Shell } from '../../docs/shell-blocks.ts';
import { expectInDashboard } from '../../dashboard/dashboard-check.ts';
import { startBosunUp } from '../../node/e2e/bosun-up.ts';

const README = 'examples/chaos/README.md';

/** dd's speed in MB/s from its last line ("4194304 bytes (4.2 MB, 4.0 MiB) copied, 4.0 s, 1.0 MB/s"). */
function ddSpeed(line: string): number {
  const m = /([\d.]+) ([kMG]?B)\/s\s*$/.exec(line.trim());
  assert.ok(m, `dd printed ${JSON.stringify(line)}`);
  const scale: Record<string, number> = { B: 1e-6, kB: 1e-3, MB: 1, GB: 1e3 };
  return Number(m[1]) * (scale[m[2]!] ?? 1);
}

/** Whether one measurement matches what the README's comment says; the message says why not. */
function matches(command: string, expected: string, out: string): string | undefined {
  if (command.endsWith(' cpu')) {
    const want = Number(/cpu: (\d+)%/.exec(expected)?.[1]);
    const got = Number(/cpu: (\d+)%/.exec(out)?.[1]);
    return Math.abs(got - want) <= 15 ? undefined : `${out} (the README says ${expected})`;
  }
  if (command.endsWith(' memory')) {
    const want = Number(/\((\d+)%\)/.exec(expected)?.[1]);
    const got = Number(/\((\d+)%\)/.exec(out)?.[1]);
    return Math.abs(got - want) <= 10 ? undefined : `${out} (the README says ${expected})`;
  }
  if (command.endsWith(' disk')) {
    const want = ddSpeed(expected);
    const got = ddSpeed(out);
    // The README's unthrottled figure is an example of "fast": at least twice the 1 MB/s throttle.
    if (want > 2) return got >= 2 ? undefined : `${out}, not above the throttle`;
    return Math.abs(got - want) <= want * 0.2 + 0.05 ? undefined : `${out} (the README says ${expected})`;
  }
  return undefined;
}

/** A measurement line, taken again (up to three times, as a user would) until it shows what the README says. */
async function measured(sh: Shell, line: string): Promise<void> {
  const command = line.replace(/\s+#.*$/, '');
  const expected = /#\s+(.*)$/.exec(line)?.[1] ?? '';
  let problem: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    problem = matches(command, expected, (await sh.run(command)).trim());
    if (problem === undefined) return;
  }
  const state = await sh.run('kubectl get disruptions -A -o wide; kubectl get pods -A; kubectl logs -n chaos-engineering -l chaos.datadoghq.com/disruption-kind --tail=5 || true');
  assert.fail(`${command}: ${problem}\n${state}`);
}

test('examples/chaos/README.md: every command runs as written and shows the effect it says', { timeout: 420_000 }, async () => {
  const up = await startBosunUp();
  const dir = mkdtempSync(join(tmpdir(), 'bosun-chaos-example-'));
  try {
    symlinkSync(up.dataDir, join(dir, '.bosun'));
    symlinkSync(join(root, 'examples'), join(dir, 'examples'));
    const sh = shellIn(dir, join(dir, '.bosun', 'kubeconfig'));
    const lines = readmeLines(README);
    assert.ok(lines.some((l) => l.startsWith('examples/chaos/measure.sh')), 'the README measures');
    // Only `kubectl get …` lines are read again until they print their comment: any other form would not wait.
    for (const l of lines) if (/-o jsonpath=.*#/.test(l)) assert.match(l, /^kubectl get\b/, `a checked line must be a kubectl get: ${l}`);
    for (const line of lines) {
      // Before its clean-up: the web dashboard shows the disk-pressure Disruption injected into its target.
      if (line.startsWith('kubectl delete -f examples/chaos/disk-pressure.yaml')) {
        await expectInDashboard(join(dir, '.bosun', 'kubeconfig'), 'chaos', 'chaos-demo', ['li[data-id="Disruption/chaos-demo/disk-pressure"][data-state="succeeded"]', 'li[data-id^="Target/chaos-demo/disk-pressure/"]', 'li[data-id^="Injection/chaos-demo/disk-pressure/"][data-state="succeeded"]'], 'dashboard-chaos');
      }
      if (line.startsWith('examples/chaos/measure.sh')) await measured(sh, line);
      else await runLine(sh, line);
    }
  } finally {
    await up.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
