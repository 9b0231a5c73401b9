// `bosun version` and `bosun completion bash|zsh|fish`, run as a user runs them; bash's script is sourced and
// asked to complete, as a user's Tab does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const bosun = (args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'bosun.js'), ...args], { encoding: 'utf8' });
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

test('bosun version names Bosun, the Kubernetes version its API server serves and Node', () => {
  const result = bosun(['version']);
  assert.equal(result.status, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  assert.equal(lines[0], `bosun ${version}`);
  assert.match(lines[1] ?? '', /^Kubernetes API \(embedded server\): v1\.\d+\.\d+/);
  assert.match(lines[2] ?? '', /^Node\.js: v20\./);
});

test('the bash script completes subcommands, their flags and their own subcommands', () => {
  const script = bosun(['completion', 'bash']);
  assert.equal(script.status, 0, script.stderr);
  const complete = (...words: string[]) => {
    const shell = `${script.stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _bosun; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = spawnSync('bash', ['-c', shell], { encoding: 'utf8', cwd: root });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout.trim().split('\n');
  };
  assert.deepEqual(complete('bosun', 'u'), ['up']);
  assert.ok(complete('bosun', 'up', '--data').includes('--data-dir'));
  assert.ok(complete('bosun', 'node', '--kubeconfig', 'x', '--cl').includes('--cluster-cidr'));
  assert.ok(complete('bosun', 'template', 're').includes('render'));
  assert.ok(!complete('bosun', '').includes('inject'), 'what pods run is not offered');
});

test('zsh and fish scripts describe the same commands and flags; an unknown shell is refused', () => {
  const zsh = bosun(['completion', 'zsh']);
  assert.equal(zsh.status, 0, zsh.stderr);
  assert.match(zsh.stdout, /^#compdef bosun\n/);
  assert.match(zsh.stdout, /'--data-dir\[[^\]]+\]:value:_files'/);
  const fish = bosun(['completion', 'fish']);
  assert.equal(fish.status, 0, fish.stderr);
  assert.match(fish.stdout, /complete -c bosun -n '__fish_seen_subcommand_from up' -l data-dir -r -F -d /);
  const unknown = bosun(['completion', 'nushell']);
  assert.equal(unknown.status, 1);
  assert.equal(unknown.stderr, 'bosun completion: unknown shell "nushell": use bash, zsh or fish\n');
});
