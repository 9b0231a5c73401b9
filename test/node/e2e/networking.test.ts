// Issue 21's "Must show" that spans its parts, with real kubectl against `bosun up`: a Deployment exposed as a
// Service answers from another pod by name, FQDN and ClusterIP (API server allocation, endpointslice
// controller, nftables proxy and cluster DNS together), spreads over its pods, drops a pod that turns unready;
// a NodePort answers on the host's loopback; a headless Service resolves to its pods; pods resolve
// kubernetes.default and reach the API server through the kubernetes Service.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const json = (object: unknown) => JSON.stringify(object);

/** A web server whose page names the pod that served it, and is ready while /tmp/ready exists. */
function echoDeployment(name: string, replicas: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: 'web',
              image: 'busybox',
              command: ['sh', '-c', 'mkdir -p /tmp/www && echo "$HOSTNAME" > /tmp/www/index.html && touch /tmp/ready && exec busybox httpd -f -p 8080 -h /tmp/www'],
              ports: [{ name: 'http', containerPort: 8080 }],
              readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 1, failureThreshold: 1 },
            },
          ],
        },
      },
    },
  };
}

describe('Services, DNS and the proxy on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  /** Runs a command in the client pod and returns its stdout. */
  const inClient = (...argv: string[]): Promise<string> => ok(['exec', 'client', '--', ...argv]);
  // The host's GNU wget: busybox-static's own wget crashes on this kind of machine.
  const fetchFromClient = (url: string): Promise<string> => inClient('wget', '-qO-', '-T', '5', url);

  before(async () => {
    up = await startBosunUp();
    await ok(['run', 'client', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await ok(['apply', '-f', '-'], json(echoDeployment('echo', 1)));
    await ok(['wait', '--for=condition=Ready', 'pod/client', '--timeout=60s']);
    await ok(['rollout', 'status', 'deployment/echo', '--timeout=90s']);
    await ok(['expose', 'deployment', 'echo', '--port', '80', '--target-port', '8080']);
    await ok(['wait', '--for=jsonpath={.subsets[0].addresses[0].ip}', 'endpoints/echo', '--timeout=60s']);
  });
  after(async () => {
    await up?.close();
  });

  test('the Service answers from another pod by name, by FQDN and by ClusterIP', async () => {
    const pod = (await ok(['get', 'pods', '-l', 'app=echo', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    const clusterIP = (await ok(['get', 'svc', 'echo', '-o', 'jsonpath={.spec.clusterIP}'])).trim();
    assert.match(clusterIP, /^10\.(9[6-9]|1[01]\d)\.\d+\.\d+$/, 'a ClusterIP from 10.96.0.0/12');
    assert.equal((await fetchFromClient('http://echo')).trim(), pod);
    assert.equal((await fetchFromClient('http://echo.default.svc.cluster.local')).trim(), pod);
    assert.equal((await fetchFromClient(`http://${clusterIP}`)).trim(), pod);
  });

  test('scaled to 3, requests spread over the pods; a pod that turns unready leaves the slice and gets no traffic', async () => {
    await ok(['scale', 'deployment/echo', '--replicas=3']);
    await ok(['rollout', 'status', 'deployment/echo', '--timeout=90s']);
    await ok(['wait', '--for=jsonpath={.subsets[0].addresses[2].ip}', 'endpoints/echo', '--timeout=60s']);
    const pods = (await ok(['get', 'pods', '-l', 'app=echo', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(' ').sort();
    assert.equal(pods.length, 3);
    const served = new Set<string>();
    for (let i = 0; i < 60 && served.size < 3; i++) served.add((await fetchFromClient('http://echo')).trim());
    assert.deepEqual([...served].sort(), pods, 'every pod served some of 60 requests');

    const unready = pods[0] ?? '';
    await ok(['exec', unready, '--', 'rm', '/tmp/ready']);
    await ok(['wait', '--for=condition=Ready=false', `pod/${unready}`, '--timeout=60s']);
    const podIP = (await ok(['get', 'pod', unready, '-o', 'jsonpath={.status.podIP}'])).trim();
    await ok(['wait', `--for=jsonpath={.endpoints[?(@.addresses[0]=="${podIP}")].conditions.ready}=false`, 'endpointslices', '-l', 'kubernetes.io/service-name=echo', '--timeout=60s']);
    for (let i = 0; i < 20; i++) assert.notEqual((await fetchFromClient('http://echo')).trim(), unready, 'an unready pod gets no traffic');
  });

  test('a NodePort answers on the host loopback', async () => {
    await ok(['expose', 'deployment', 'echo', '--name', 'echo-np', '--type', 'NodePort', '--port', '80', '--target-port', '8080']);
    const nodePort = Number(await ok(['get', 'svc', 'echo-np', '-o', 'jsonpath={.spec.ports[0].nodePort}']));
    assert.ok(nodePort >= 30000 && nodePort <= 32767, `nodePort ${nodePort} in the default range`);
    await ok(['wait', '--for=jsonpath={.subsets[0].addresses[0].ip}', 'endpoints/echo-np', '--timeout=60s']);
    const response = await fetch(`http://127.0.0.1:${nodePort}/`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /^echo-/);
  });

  test('a headless Service resolves to the pod IPs; kubernetes.default resolves to 10.96.0.1', async () => {
    await ok(['apply', '-f', '-'], json({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo-headless' }, spec: { clusterIP: 'None', selector: { app: 'echo' }, ports: [{ port: 8080 }] } }));
    await ok(['wait', '--for=jsonpath={.subsets[0].addresses[0].ip}', 'endpoints/echo-headless', '--timeout=60s']);
    const ready = (await ok(['get', 'endpoints', 'echo-headless', '-o', 'jsonpath={.subsets[0].addresses[*].ip}'])).trim().split(' ').sort();
    const answer = await inClient('busybox', 'nslookup', 'echo-headless.default.svc.cluster.local');
    const resolved = [...answer.split('Name:').slice(1).join('\n').matchAll(/Address:\s*(\d+\.\d+\.\d+\.\d+)/g)].map((m) => m[1]).sort();
    assert.deepEqual(resolved, ready);
    // BIND's nslookup (dnsutils), which applies the search path as the docs' dnsutils pod does; busybox's does not.
    assert.match(await inClient('nslookup', 'kubernetes.default'), /Name:\s*kubernetes\.default\.svc\.cluster\.local\nAddress:\s*10\.96\.0\.1\b/);
  });

  test('an in-pod client reaches the API server through the kubernetes Service', async () => {
    const kubeconfig = parse(readFileSync(join(up.dataDir, 'kubeconfig'), 'utf8')) as { users: { user: { token: string } }[] };
    const token = kubeconfig.users[0]?.user.token ?? '';
    const script = `fetch('https://'+process.env.KUBERNETES_SERVICE_HOST+':'+process.env.KUBERNETES_SERVICE_PORT+'/api/v1/namespaces/default/services/kubernetes',{headers:{authorization:'Bearer '+process.env.TOKEN}}).then(async r=>console.log(r.status,(await r.json()).spec.clusterIP))`;
    await ok(['run', 'in-cluster', '--image=node', '--restart=Never', `--env=TOKEN=${token}`, '--env=NODE_TLS_REJECT_UNAUTHORIZED=0', '--', process.execPath, '-e', script]);
    await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/in-cluster', '--timeout=60s']);
    assert.match(await ok(['logs', 'in-cluster']), /^200 10\.96\.0\.1$/m);
  });
});
