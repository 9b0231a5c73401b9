// `bosun up` in a child process, with kubectl pointed at it and its node Ready: what the node's end-to-end
// tests start from.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, freePort, startBosun } from '../../helpers/bosun-process.ts';
import { removeKeptContainers } from '../../helpers/kept-containers.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';

export interface BosunUp {
  dataDir: string;
  kubectl: Kubectl;
  /** Runs kubectl and asserts it succeeded; resolves with its stdout. */
  ok(args: string[], input?: string): Promise<string>;
  /**
   * Stops `bosun up` (SIGTERM, as Ctrl-C does) and starts it again on the same data dir and port, until its node
   * is Ready; whileStopped runs in between.
   */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** parentDir: where the data dir is made (default the system's temporary directory, which pods never see). */
export async function startBosunUp(flags: string[] = [], env: Record<string, string> = {}, parentDir = tmpdir()): Promise<BosunUp> {
  const dataDir = mkdtempSync(join(parentDir, 'bosun-e2e-'));
  const port = await freePort();
  let bosun: ChildProcess = await startBosun(dataDir, port, flags, env);
  const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
  const ok = async (args: string[], input?: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  await ok(['wait', '--for=condition=Ready', 'node', '--all', '--timeout=60s']);
  return {
    dataDir,
    kubectl,
    ok,
    async restart(whileStopped) {
      bosun.kill('SIGTERM');
      await exited(bosun);
      await whileStopped?.();
      bosun = await startBosun(dataDir, port, flags, env);
      await ok(['wait', '--for=condition=Ready', 'node', '--all', '--timeout=60s']);
    },
    async close() {
      bosun.kill('SIGTERM');
      await exited(bosun);
      removeKeptContainers(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
