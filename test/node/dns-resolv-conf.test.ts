// The pod's resolv.conf as kubelet forms it (pkg/kubelet/network/dns): the policy's starting point, dnsConfig
// merged on top, the resolver's limits, and the file as containerd writes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { podDnsConfig, type ClusterDnsSettings } from '../../src/node/agent/pods/pod-dns-config.ts';
import { formatResolvConf, parseResolvConf } from '../../src/node/dns/resolv-conf.ts';

const host = parseResolvConf('# written by dhclient\nsearch corp.example. lab.example .\ndomain ignored.example\nnameserver 192.0.2.1\nnameserver 192.0.2.2 192.0.2.9\n; a comment\noptions timeout:2 rotate\noptions timeout:3\n');
const cluster: ClusterDnsSettings = { nameservers: ['10.96.0.10'], domain: 'cluster.local' };
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'shop', uid: 'u' }, spec: { containers: [], ...spec } });
const file = (spec: Partial<Pod['spec']>, settings: ClusterDnsSettings | 'none' = cluster) => formatResolvConf(podDnsConfig(pod(spec), host, settings === 'none' ? undefined : settings).config);

test('the host file is read as kubelet reads it: last search line, first address per nameserver, options by name', () => {
  assert.deepEqual(host, { nameservers: ['192.0.2.1', '192.0.2.2'], searches: ['corp.example', 'lab.example'], options: ['timeout:3', 'rotate'] });
});

test('each dnsPolicy starts from its own configuration', () => {
  const clusterFile = 'search shop.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example\nnameserver 10.96.0.10\noptions ndots:5\n';
  const hostFile = 'search corp.example lab.example\nnameserver 192.0.2.1\nnameserver 192.0.2.2\noptions timeout:3 rotate\n';
  const table: [string, Partial<Pod['spec']>, string][] = [
    ['unset is ClusterFirst', {}, clusterFile],
    ['ClusterFirst', { dnsPolicy: 'ClusterFirst' }, clusterFile],
    ['ClusterFirst on the host network is Default', { dnsPolicy: 'ClusterFirst', hostNetwork: true }, hostFile],
    ['ClusterFirstWithHostNet on the host network', { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true }, clusterFile],
    ['ClusterFirstWithHostNet on the pod network', { dnsPolicy: 'ClusterFirstWithHostNet' }, clusterFile],
    ['Default', { dnsPolicy: 'Default' }, hostFile],
    ['None without dnsConfig', { dnsPolicy: 'None' }, ''],
  ];
  for (const [what, spec, expected] of table) assert.equal(file(spec), expected, what);
  assert.equal(file({}, 'none'), hostFile, 'no cluster DNS: ClusterFirst falls back to the host');
  assert.equal(file({}, { nameservers: [], domain: 'cluster.local' }), hostFile, 'an empty --cluster-dns too');
});

test('dnsConfig is merged: nameservers and searches appended without duplicates, options replaced by name', () => {
  const dnsConfig = { nameservers: ['10.96.0.10', '1.1.1.1'], searches: ['svc.cluster.local', 'extra.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] };
  assert.equal(file({ dnsConfig }), 'search shop.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example extra.example\nnameserver 10.96.0.10\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
  assert.equal(file({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['example.com'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } }), 'search example.com\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
  assert.equal(file({ dnsPolicy: 'Default', dnsConfig: { options: [{ name: 'rotate' }, { name: 'timeout', value: '1' }] } }), 'search corp.example lab.example\nnameserver 192.0.2.1\nnameserver 192.0.2.2\noptions timeout:1 rotate\n');
});

test('kubelet\'s limits: 3 nameservers, 32 search paths of at most 253 characters, a 2048-character line, each with a Warning', () => {
  const many = podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '1.0.0.1', '8.8.8.8', '9.9.9.9'] } }), host, cluster);
  assert.deepEqual(many.config.nameservers, ['1.1.1.1', '1.0.0.1', '8.8.8.8']);
  assert.deepEqual(many.warnings, [{ reason: 'DNSConfigForming', message: 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 1.0.0.1 8.8.8.8' }]);

  const paths = Array.from({ length: 40 }, (_, i) => `d${i}.example`);
  const cut = podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { searches: paths } }), host, cluster);
  assert.deepEqual(cut.config.searches, paths.slice(0, 32));
  assert.equal(cut.warnings[0]?.message, `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${paths.slice(0, 32).join(' ')}`);

  const long = `${'a'.repeat(250)}.example`;
  assert.deepEqual(podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { searches: ['ok.example', long] } }), host, cluster).config.searches, ['ok.example']);

  // 10 paths of 240 characters: the line (2409 characters) loses paths from its end until it fits.
  const wide = Array.from({ length: 10 }, (_, i) => `${String(i).repeat(232)}.example`);
  const fitted = podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { searches: wide } }), host, cluster);
  assert.deepEqual(fitted.config.searches, wide.slice(0, 8));
  assert.ok(fitted.config.searches.join(' ').length <= 2048);
  assert.equal(fitted.warnings.length, 1);
  assert.deepEqual(podDnsConfig(pod({}), host, cluster).warnings, []);
});
