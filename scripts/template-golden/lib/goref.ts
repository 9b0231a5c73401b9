// Runs the Go reference renderer (scripts/template-golden/build-goref.sh) on a batch of cases.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface GoRequest {
  id: string;
  template: string;
  data?: unknown;
  files?: Record<string, string>;
  name?: string;
  bench?: number;
}

export interface GoResult {
  id: string;
  output?: string;
  error?: string;
  phase?: string;
  benchNs?: number[];
}

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** Builds the reference renderer if Go is installed; returns its path or undefined. */
export function buildGoref(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' });
  if (which.status !== 0) return undefined;
  if (!existsSync('/usr/share/gocode/src/github.com/Masterminds/sprig')) return undefined;
  const built = spawnSync('bash', [join(root, 'build-goref.sh')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build-goref.sh failed: ${built.stderr}`);
  return built.stdout.trim().split('\n').pop();
}

/** Renders every request in one Go process (JSON lines in, JSON lines out). */
export function runGoref(binary: string, requests: GoRequest[]): GoResult[] {
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const res = spawnSync(binary, [], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, TZ: 'UTC' },
  });
  if (res.status !== 0) throw new Error(`goref exited ${res.status}: ${res.stderr}`);
  const lines = res.stdout.split('\n').filter((l) => l.length > 0);
  if (lines.length !== requests.length) {
    throw new Error(`goref answered ${lines.length} of ${requests.length} cases: ${res.stderr}`);
  }
  return lines.map((l) => JSON.parse(l) as GoResult);
}
