// Clients for target clusters, built from the Target's kubeconfig with createKubeClient and cached per
// kubeconfig (by hash: the text itself holds credentials and is never logged). Network failures are turned into
// errors that name the target and its server; after a grace period they end the job instead of retrying forever.
import { createHash } from 'node:crypto';
import type { KubeClient } from '../../../client/client.ts';
import { loadKubeConfig, createKubeClient } from '../../../client/create-client.ts';
import { NetworkError, TimeoutError } from '../../../client/errors.ts';
import { messageOf } from '../../../runtime/index.ts';
import { ERR_TIMEOUT } from '../../api/constants.ts';
import type { Target } from '../../api/target.ts';
import { INVALID_KUBECONFIG_REASON } from '../contract/kubeconfig.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

export const TARGET_UNREACHABLE_REASON = 'TargetUnreachable';

export interface TargetClient {
  client: KubeClient;
  /** Identifies the cluster access (a hash of the kubeconfig) without revealing it. */
  key: string;
  /** The API server URL of the target (safe to show: no credentials). */
  server: string;
  /** "target ns/name (server https://…)". */
  describe: string;
}

export class TargetClients {
  private readonly cache = new Map<string, TargetClient>();
  private readonly requestTimeoutMs: number;

  constructor(requestTimeoutMs: number) {
    this.requestTimeoutMs = requestTimeoutMs;
  }

  get(target: Target, kubeconfig: string): TargetClient {
    const key = createHash('sha256').update(kubeconfig).digest('hex');
    let entry = this.cache.get(key);
    if (!entry) {
      entry = { ...this.build(target, kubeconfig), key, describe: '' };
      this.cache.set(key, entry);
    }
    return { ...entry, describe: `target ${target.metadata.namespace}/${target.metadata.name} (server ${entry.server})` };
  }

  /** A kubeconfig the checks let through that still builds no client is a configuration error too. */
  private build(target: Target, kubeconfig: string): { client: KubeClient; server: string } {
    try {
      const kubeConfig = loadKubeConfig({ kubeconfig });
      const server = kubeConfig.getCurrentCluster()?.server ?? '(no server)';
      return { client: createKubeClient({ kubeConfig, defaultTimeoutMs: this.requestTimeoutMs, namespace: 'default' }), server };
    } catch (err) {
      const what = `target ${target.metadata.namespace}/${target.metadata.name}`;
      throw new ConfigurationError('ResolveTarget', INVALID_KUBECONFIG_REASON, `${what}: no client can be built from its kubeconfig: ${messageOf(err).split('\n')[0]}`, undefined, { cause: err });
    }
  }

  async close(): Promise<void> {
    const clients = [...this.cache.values()];
    this.cache.clear();
    await Promise.all(clients.map((c) => c.client.close()));
  }
}

/** True for failures that mean "the target cluster cannot be reached". */
export function isUnreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof NetworkError) return true;
    if (e instanceof TimeoutError && e.code === 0) return true;
  }
  return false;
}

/**
 * Tracks since when a job's target has been unreachable: a recoverable error within the grace period, then the
 * unrecoverable one (upstream keeps retrying until the progressing timeout, 10 minutes by default).
 */
export class UnreachableTracker {
  private readonly since = new Map<string, number>();
  private readonly graceMs: number;

  constructor(graceMs: number) {
    this.graceMs = graceMs;
  }

  fail(jobKey: string, tc: TargetClient, err: unknown, what: string): never {
    const first = this.since.get(jobKey) ?? Date.now();
    this.since.set(jobKey, first);
    const waited = Date.now() - first;
    const message = `${tc.describe} is unreachable while ${what}: ${messageOf(err)}`;
    if (waited >= this.graceMs) {
      this.since.delete(jobKey);
      throw new LandscaperError(what, TARGET_UNREACHABLE_REASON, `${message} (gave up after ${Math.round(waited / 1000)} s)`, [ERR_TIMEOUT], { cause: err });
    }
    throw new LandscaperError(what, TARGET_UNREACHABLE_REASON, message, [], { cause: err });
  }

  reached(jobKey: string): void {
    this.since.delete(jobKey);
  }
}
