// What metrics-server does for metrics.k8s.io, on demand: ask each Ready node's kubelet API for its Summary
// (/stats/summary) with the API server's kubelet client certificate. Answers are kept a moment so that one
// `kubectl top` (which lists twice) or several clients together ask each kubelet once.
import { request } from 'node:https';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import type { HandlerContext } from '../handlers/context.ts';
import { kubeletAddress, kubeletFailure } from '../handlers/kubelet-proxy.ts';

const CACHE_MS = 1000;
const TIMEOUT_MS = 10_000;
const MAX_BODY = 16 * 1024 * 1024;

/** The parts of kubelet's Summary (stats/v1alpha1) metrics.k8s.io uses. */
export interface SummaryUsage {
  time: string;
  cpu?: { usageNanoCores?: number };
  memory?: { workingSetBytes?: number };
}

export interface KubeletSummary {
  node: SummaryUsage & { nodeName: string; cpu?: { usageNanoCores?: number; time?: string } };
  pods: { podRef: { name: string; namespace: string; uid: string }; containers: (SummaryUsage & { name: string })[]; cpu?: { usageNanoCores?: number; time?: string } }[];
}

export interface NodeReading {
  summary: KubeletSummary;
  /** When it was taken here, and how long after the node's reading before it (metrics' window; 1 s for the first, the agent's first window). */
  atMs: number;
  windowSeconds: number;
}

interface Entry {
  atMs: number;
  reading: Promise<NodeReading>;
}

function isReady(node: KubeObject): boolean {
  const conditions = isPlainObject(node['status']) && Array.isArray(node['status']['conditions']) ? node['status']['conditions'] : [];
  return conditions.some((c) => isPlainObject(c) && c['type'] === 'Ready' && c['status'] === 'True');
}

function fetchSummary(ctx: HandlerContext, node: KubeObject): Promise<KubeletSummary> {
  const { host, port, tls } = kubeletAddress(ctx, node);
  return new Promise((resolve, reject) => {
    const upstream = request({ host, port, path: '/stats/summary', timeout: TIMEOUT_MS, ...tls });
    upstream.once('timeout', () => upstream.destroy(new Error(`no answer in ${TIMEOUT_MS / 1000} s`)));
    upstream.once('error', reject);
    upstream.once('response', (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > MAX_BODY) upstream.destroy(new Error('the summary is too large'));
      });
      answer.once('end', () => {
        if (answer.statusCode !== 200) return reject(kubeletFailure(answer.statusCode ?? 500, body));
        try {
          resolve(JSON.parse(body) as KubeletSummary);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    upstream.end();
  });
}

export class NodeSummaries {
  private readonly entries = new Map<string, Entry>();

  /** Each Ready node's reading, or why it has none. */
  async read(ctx: HandlerContext, nodes: KubeObject[]): Promise<{ readings: Map<string, NodeReading>; failures: string[] }> {
    const readings = new Map<string, NodeReading>();
    const failures: string[] = [];
    await Promise.all(
      nodes.filter(isReady).map(async (node) => {
        const name = node.metadata.name ?? '';
        try {
          readings.set(name, await this.reading(ctx, node));
        } catch (error) {
          failures.push(`node "${name}": ${messageOf(error)}`);
        }
      }),
    );
    for (const name of this.entries.keys()) if (!nodes.some((n) => n.metadata.name === name)) this.entries.delete(name);
    return { readings, failures: failures.sort() };
  }

  private reading(ctx: HandlerContext, node: KubeObject): Promise<NodeReading> {
    const name = node.metadata.name ?? '';
    const now = Date.now();
    const kept = this.entries.get(name);
    if (kept !== undefined && now - kept.atMs < CACHE_MS) return kept.reading;
    const windowSeconds = kept === undefined ? 1 : Math.max(1, Math.round((now - kept.atMs) / 1000));
    const reading = fetchSummary(ctx, node).then((summary) => ({ summary, atMs: now, windowSeconds }));
    // A failed reading is not kept: the next request asks again.
    reading.catch(() => {
      if (this.entries.get(name)?.reading !== reading) return;
      if (kept === undefined) this.entries.delete(name);
      else this.entries.set(name, kept);
    });
    this.entries.set(name, { atMs: now, reading });
    return reading;
  }
}
