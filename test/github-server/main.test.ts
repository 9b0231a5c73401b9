import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

test('the CLI prints its ready line and serves the repository, the token and the webhook it was given', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--token', 'ghp_example', '--repo', 'acme/infra', '--webhook-url', 'http://127.0.0.1:1/hook', '--webhook-secret', 'hook-secret-1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const apiUrl = /API (\S+)/.exec(line)?.[1];
  assert.ok(apiUrl, `ready line: ${line}`);
  assert.doesNotMatch(line, /ghp_example|hook-secret-1/, 'secrets are not printed');
  const repo = await fetch(`${apiUrl}repos/acme/infra`, { headers: { authorization: 'token ghp_example' } });
  assert.equal(repo.status, 200);
  const deliveries = (await (await fetch(new URL('/_meta/deliveries', apiUrl))).json()) as { event: string }[];
  assert.equal(deliveries[0]?.event, 'ping');
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});

test('the CLI refuses bad arguments with its usage', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--webhook-url', 'http://x'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 2);
  assert.match(stderr, /--webhook-url and --webhook-secret go together/);
  assert.match(stderr, /usage: github-test-server/);
});
