// Shared setup for the agent's volume and env tests: a real embedded API server holding the pod's ConfigMaps,
// Secrets and claims, a client to it, a scratch directory for pods and claims, and pod contexts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { PodApiObjects } from '../../src/node/agent/pod-api-objects.ts';
import type { PodView } from '../../src/node/agent/pod-context.ts';
import { removePodVolumes, type VolumeContext } from '../../src/node/agent/pod-volumes.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

export const NAMESPACE = 'default';

export interface PodFixture {
  server: TestServer;
  client: KubeClient;
  dir: string;
  create(path: string, object: KubeObject): Promise<void>;
  /** A fresh pod (own uid and podDir) in NAMESPACE, with the given spec additions. */
  context(pod?: { labels?: Record<string, string>; annotations?: Record<string, string>; spec?: Partial<PodView['spec']> }): VolumeContext;
  close(): Promise<void>;
}

let counter = 0;

export async function openPodFixture(): Promise<PodFixture> {
  const server = await startTestServer();
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const dir = await mkdtemp(join(tmpdir(), 'bosun-agent-pod-'));
  const podDirs: string[] = [];
  return {
    server,
    client,
    dir,
    async create(path, object) {
      await server.json(path, { method: 'POST', body: JSON.stringify(object), headers: { 'content-type': 'application/json' }, expect: 201 });
    },
    context(pod = {}) {
      const uid = `uid-${process.pid}-${++counter}`;
      const podDir = join(dir, 'pods', uid);
      podDirs.push(podDir);
      return {
        pod: {
          metadata: { name: `pod-${counter}`, namespace: NAMESPACE, uid, ...(pod.labels ? { labels: pod.labels } : {}), ...(pod.annotations ? { annotations: pod.annotations } : {}) },
          spec: { containers: [{ name: 'app' }], ...pod.spec },
        },
        nodeName: 'node-1',
        podIPs: ['10.0.0.7', 'fd00::7'],
        hostIPs: ['192.168.1.2'],
        nodeAllocatable: { cpu: '2', memory: '4Gi' },
        objects: new PodApiObjects(client, NAMESPACE),
        podDir,
        dataDir: join(dir, 'data'),
      };
    },
    // Unmounts every pod's tmpfs volumes before the directory goes, whatever a failed test left behind.
    async close() {
      const results = await Promise.allSettled(podDirs.map((podDir) => removePodVolumes(podDir)));
      await client.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
    },
  };
}

export function configMap(name: string, data: Record<string, string>, binaryData?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data, ...(binaryData ? { binaryData } : {}) };
}

export function secret(name: string, values: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
}

export const CONFIGMAPS = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
export const SECRETS = `/api/v1/namespaces/${NAMESPACE}/secrets`;
export const CLAIMS = `/api/v1/namespaces/${NAMESPACE}/persistentvolumeclaims`;
