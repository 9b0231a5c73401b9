// kubelet's Service environment variables (pkg/kubelet/envvars, getServiceEnvVarMap), as a table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Service } from '../../src/apimachinery/api/index.ts';
import { serviceEnvironment } from '../../src/node/agent/service-env.ts';

function service(namespace: string, name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec };
}

const kubernetes = service('default', 'kubernetes', { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] });
const web = service('shop', 'web-front', {
  clusterIP: '10.96.4.5',
  ports: [
    { port: 80, protocol: 'TCP' },
    { name: 'dns', port: 53, protocol: 'UDP' },
  ],
});

test('a Service of the namespace gives the _SERVICE_ and Docker link variables, as envvars.FromServices', () => {
  assert.deepEqual(Object.fromEntries(serviceEnvironment('shop', true, [web])), {
    WEB_FRONT_SERVICE_HOST: '10.96.4.5',
    WEB_FRONT_SERVICE_PORT: '80',
    WEB_FRONT_SERVICE_PORT_DNS: '53',
    WEB_FRONT_PORT: 'tcp://10.96.4.5:80',
    WEB_FRONT_PORT_80_TCP: 'tcp://10.96.4.5:80',
    WEB_FRONT_PORT_80_TCP_PROTO: 'tcp',
    WEB_FRONT_PORT_80_TCP_PORT: '80',
    WEB_FRONT_PORT_80_TCP_ADDR: '10.96.4.5',
    WEB_FRONT_PORT_53_UDP: 'udp://10.96.4.5:53',
    WEB_FRONT_PORT_53_UDP_PROTO: 'udp',
    WEB_FRONT_PORT_53_UDP_PORT: '53',
    WEB_FRONT_PORT_53_UDP_ADDR: '10.96.4.5',
  });
});

test('the kubernetes Service reaches every namespace, even without service links; other namespaces do not', () => {
  const other = service('elsewhere', 'db', { clusterIP: '10.96.7.7', ports: [{ port: 5432 }] });
  const names = (ns: string, links: boolean) => [...serviceEnvironment(ns, links, [kubernetes, web, other]).keys()].filter((k) => k.endsWith('_SERVICE_HOST'));
  assert.deepEqual(names('shop', true), ['KUBERNETES_SERVICE_HOST', 'WEB_FRONT_SERVICE_HOST']);
  assert.deepEqual(names('shop', false), ['KUBERNETES_SERVICE_HOST']);
  assert.equal(serviceEnvironment('shop', false, [kubernetes]).get('KUBERNETES_SERVICE_PORT_HTTPS'), '443');
});

test('headless, ExternalName and unallocated Services give nothing; IPv6 addresses are bracketed', () => {
  const skipped = [
    service('shop', 'headless', { clusterIP: 'None', ports: [{ port: 80 }] }),
    service('shop', 'external', { type: 'ExternalName', externalName: 'example.com', ports: [{ port: 80 }] }),
    service('shop', 'pending', { ports: [{ port: 80 }] }),
  ];
  assert.equal(serviceEnvironment('shop', true, skipped).size, 0);
  const v6 = service('shop', 'v6', { clusterIP: 'fd00::5', ports: [{ port: 80 }] });
  assert.equal(serviceEnvironment('shop', true, [v6]).get('V6_PORT'), 'tcp://[fd00::5]:80');
});
