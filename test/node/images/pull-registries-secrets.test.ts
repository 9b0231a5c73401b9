// registries.yaml (k3s's format) and imagePullSecrets as tables: what endpoints and credentials a pull uses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Secret } from '../../../src/apimachinery/api/core-v1.ts';
import { credentialsFromPullSecrets, lookupCredentials } from '../../../src/client/oci/pull-secrets.ts';
import { parseImageReference } from '../../../src/client/oci/reference.ts';
import { parseRegistriesConfig, resolveEndpoints } from '../../../src/client/oci/registry-config.ts';
import { RegistryError } from '../../../src/client/oci/registry-error.ts';

const REGISTRIES = `
mirrors:
  docker.io:
    endpoint:
      - "http://127.0.0.1:5000"
      - "https://mirror.example.com/prefix"
      - "https://registry-1.docker.io"
    rewrite:
      "^library/(.*)": "hub/$1"
  registry.example.com:
    endpoint: ["mirror.example.com:8443"]
  "*":
    endpoint: ["http://127.0.0.1:5001"]
configs:
  "127.0.0.1:5000":
    auth: { username: alice, password: wonderland }
  mirror.example.com:
    auth: { auth: ${Buffer.from('bob:builder').toString('base64')} }
    tls: { insecure_skip_verify: true, ca_file: /ca.pem }
  docker.io:
    auth: { identity_token: hub-token }
`;

const files: Record<string, string> = { '/ca.pem': 'CA PEM' };
const config = parseRegistriesConfig(REGISTRIES, 'registries.yaml', (path) => {
  const text = files[path];
  if (text === undefined) throw new Error('ENOENT: no such file');
  return text;
});

test('registries.yaml: endpoints in order, rewrites on mirrors only, the registry itself last and once', () => {
  const rows = (reference: string) =>
    resolveEndpoints(config, parseImageReference(reference)).map((e) => [e.url, e.repository, e.mirror, e.auth?.username ?? e.auth?.identityToken, e.tls?.insecureSkipVerify]);
  assert.deepEqual(rows('busybox'), [
    ['http://127.0.0.1:5000/v2', 'hub/busybox', true, 'alice', undefined],
    ['https://mirror.example.com/prefix/v2', 'hub/busybox', true, 'bob', true],
    // Listed as a mirror, it is the registry itself: no rewrite, docker.io's config, and not appended again.
    ['https://registry-1.docker.io/v2', 'library/busybox', false, 'hub-token', undefined],
  ]);
  assert.deepEqual(rows('registry.example.com/team/app:1'), [
    ['https://mirror.example.com:8443/v2', 'team/app', true, undefined, undefined],
    ['https://registry.example.com/v2', 'team/app', false, undefined, undefined],
  ]);
  // "*" mirrors every registry without its own entry; loopback registries are plain http, as containerd's default.
  assert.deepEqual(rows('127.0.0.1:5000/bosun/web:1.0'), [
    ['http://127.0.0.1:5001/v2', 'bosun/web', true, undefined, undefined],
    ['http://127.0.0.1:5000/v2', 'bosun/web', false, 'alice', undefined],
  ]);
  assert.equal(resolveEndpoints(config, parseImageReference('mirror.example.com/x')).at(-1)?.tls?.ca, 'CA PEM');
  assert.deepEqual(
    resolveEndpoints(parseRegistriesConfig(''), parseImageReference('quay.io/a/b')).map((e) => e.url),
    ['https://quay.io/v2'],
  );
});

test('registries.yaml: mistakes are named with their path', () => {
  const cases: [text: string, message: RegExp][] = [
    ['mirrors: [a]', /registries\.yaml: mirrors: must be a mapping/],
    ['mirrors: {docker.io: {endpoints: [x]}}', /mirrors\["docker\.io"\]\.endpoints: unknown field \(expected one of endpoint, rewrite\)/],
    ['mirrors: {docker.io: {endpoint: "http://x"}}', /mirrors\["docker\.io"\]\.endpoint: must be a list/],
    ['mirrors: {docker.io: {endpoint: ["ftp://x"]}}', /endpoint\[0\]: "ftp:\/\/x" is not a URL or host/],
    ['mirrors: {docker.io: {endpoint: [], rewrite: {"(": "x"}}}', /rewrite\["\("\]: invalid regular expression/],
    ['configs: {h: {auth: {user: a}}}', /configs\["h"\]\.auth\.user: unknown field/],
    ['configs: {h: {auth: {auth: bm9jb2xvbg==}}}', /configs\["h"\]\.auth\.auth: must be base64 of username:password/],
    ['configs: {h: {tls: {insecure_skip_verify: "yes"}}}', /insecure_skip_verify: must be true or false/],
    ['configs: {h: {tls: {ca_file: /missing.pem}}}', /configs\["h"\]\.tls\.ca_file: cannot read \/missing\.pem/],
    ['configs: {h: {tls: {cert_file: /ca.pem}}}', /cert_file and key_file go together/],
    ['mirrors: {a: [', /not YAML/],
    ['registries: {}', /registries: unknown field/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseRegistriesConfig(text, 'registries.yaml', (path) => files[path] ?? (() => { throw new Error('ENOENT'); })()),
      (error: unknown) => error instanceof RegistryError && error.failure === 'Invalid' && message.test(error.message),
      text,
    );
  }
});

function secret(name: string, type: string, key: string, value: unknown): Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'ns' }, type, data: { [key]: Buffer.from(JSON.stringify(value)).toString('base64') } };
}

test('pull secrets: .dockerconfigjson and .dockercfg entries, first secret wins per key', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const credentials = credentialsFromPullSecrets([
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'opaque' }, type: 'Opaque', data: { '.dockerconfigjson': 'not even base64 JSON' } },
    secret('json', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', {
      auths: {
        'https://index.docker.io/v1/': { auth: b64('hubuser:hubpass') },
        'registry.example.com': { username: 'u', password: 'p' },
        'tokens.example.com': { identitytoken: 'refresh-me' },
        '*.corp.example.com/team': { auth: b64('team:secret:with:colons') },
        '127.0.0.1:5000': { auth: b64('local:pw') },
      },
    }),
    secret('cfg', 'kubernetes.io/dockercfg', '.dockercfg', { 'registry.example.com': { auth: b64('second:ignored') }, 'quay.io': { auth: b64('q:p') } }),
  ]);
  assert.deepEqual(credentials.get('registry.example.com'), { username: 'u', password: 'p' });
  assert.deepEqual(credentials.get('quay.io'), { username: 'q', password: 'p' });
  assert.deepEqual(credentials.get('tokens.example.com'), { identityToken: 'refresh-me' });

  const rows: [repository: string, user: string | undefined][] = [
    ['docker.io/library/busybox', 'hubuser'],
    ['index.docker.io/library/busybox', 'hubuser'],
    ['registry-1.docker.io/library/busybox', 'hubuser'],
    ['registry.example.com/any/thing', 'u'],
    ['registry.example.com:5000/any/thing', undefined], // ports must match
    ['api.corp.example.com/team/app', 'team'], // a glob per label, with a path prefix
    ['api.corp.example.com/other/app', undefined],
    ['a.b.corp.example.com/team/app', undefined], // * is one label
    ['127.0.0.1:5000/bosun/web', 'local'],
    ['quay.io/org/app', 'q'],
    ['ghcr.io/org/app', undefined],
  ];
  for (const [repository, user] of rows) assert.equal(lookupCredentials(credentials, repository)?.username, user, repository);
  assert.equal(lookupCredentials(credentials, 'api.corp.example.com/team/app')?.password, 'secret:with:colons');
  assert.equal(lookupCredentials(credentials, 'tokens.example.com/x')?.identityToken, 'refresh-me');
  assert.equal(lookupCredentials(new Map([['https://docker.io', { username: 'plain' }]]), 'docker.io/library/busybox')?.username, 'plain');
});

test('pull secrets: a malformed secret is named', () => {
  const cases: [Secret, RegExp][] = [
    [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from('{').toString('base64') } }, /secret "ns\/s": \.dockerconfigjson is not JSON/],
    [secret('s', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', { notAuths: {} }), /secret "ns\/s": \.dockerconfigjson has no auths/],
    [secret('s', 'kubernetes.io/dockerconfigjson', '.dockerconfigjson', { auths: { h: { auth: 'bm9jb2xvbg==' } } }), /secret "ns\/s": \.dockerconfigjson auths\["h"\]\.auth: must be base64 of username:password/],
  ];
  for (const [s, message] of cases) {
    assert.throws(() => credentialsFromPullSecrets([s]), (error: unknown) => error instanceof RegistryError && error.failure === 'Invalid' && message.test(error.message));
  }
});
