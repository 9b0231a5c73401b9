// Image references against distribution/reference's own test tables (reference_test.go, normalize_test.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReference, parseImageReference, parseNormalizedReference, parseReference, repositoryName } from '../../../src/client/oci/reference.ts';
import { RegistryError } from '../../../src/client/oci/registry-error.ts';

const F64 = 'f'.repeat(64);

function rejects(parse: (s: string) => unknown, input: string, message?: RegExp): void {
  assert.throws(
    () => parse(input),
    (error: unknown) => error instanceof RegistryError && error.failure === 'InvalidReference' && (message === undefined || message.test(error.message)),
    input,
  );
}

test('Parse: TestReferenceParse', () => {
  const valid: [input: string, repository: string, domain: string, tag?: string, digest?: string][] = [
    ['test_com', 'test_com', ''],
    ['test.com:tag', 'test.com', '', 'tag'],
    ['test.com:5000', 'test.com', '', '5000'],
    ['test.com/repo:tag', 'test.com/repo', 'test.com', 'tag'],
    ['test:5000/repo', 'test:5000/repo', 'test:5000'],
    ['test:5000/repo:tag', 'test:5000/repo', 'test:5000', 'tag'],
    [`test:5000/repo@sha256:${F64}`, 'test:5000/repo', 'test:5000', undefined, `sha256:${F64}`],
    [`test:5000/repo:tag@sha256:${F64}`, 'test:5000/repo', 'test:5000', 'tag', `sha256:${F64}`],
    ['lowercase:Uppercase', 'lowercase', '', 'Uppercase'],
    [`${'a/'.repeat(127)}a:tag-puts-this-over-max`, `${'a/'.repeat(127)}a`, 'a', 'tag-puts-this-over-max'],
    ['sub-dom1.foo.com/bar/baz/quux', 'sub-dom1.foo.com/bar/baz/quux', 'sub-dom1.foo.com'],
    ['sub-dom1.foo.com/bar/baz/quux:some-long-tag', 'sub-dom1.foo.com/bar/baz/quux', 'sub-dom1.foo.com', 'some-long-tag'],
    ['b.gcr.io/test.example.com/my-app:test.example.com', 'b.gcr.io/test.example.com/my-app', 'b.gcr.io', 'test.example.com'],
    ['xn--n3h.com/myimage:xn--n3h.com', 'xn--n3h.com/myimage', 'xn--n3h.com', 'xn--n3h.com'],
    [`xn--7o8h.com/myimage:xn--7o8h.com@sha256:${F64}`, 'xn--7o8h.com/myimage', 'xn--7o8h.com', 'xn--7o8h.com', `sha256:${F64}`],
    ['foo_bar.com:8080', 'foo_bar.com', '', '8080'],
    ['foo/foo_bar.com:8080', 'foo/foo_bar.com', 'foo', '8080'],
    ['192.168.1.1', '192.168.1.1', ''],
    ['192.168.1.1:tag', '192.168.1.1', '', 'tag'],
    ['192.168.1.1:5000', '192.168.1.1', '', '5000'],
    ['192.168.1.1/repo', '192.168.1.1/repo', '192.168.1.1'],
    ['192.168.1.1:5000/repo', '192.168.1.1:5000/repo', '192.168.1.1:5000'],
    ['192.168.1.1:5000/repo:5050', '192.168.1.1:5000/repo', '192.168.1.1:5000', '5050'],
    ['[2001:db8::1]/repo', '[2001:db8::1]/repo', '[2001:db8::1]'],
    ['[2001:db8:1:2:3:4:5:6]/repo:tag', '[2001:db8:1:2:3:4:5:6]/repo', '[2001:db8:1:2:3:4:5:6]', 'tag'],
    ['[2001:db8::1]:5000/repo', '[2001:db8::1]:5000/repo', '[2001:db8::1]:5000'],
    ['[2001:db8::1]:5000/repo:tag', '[2001:db8::1]:5000/repo', '[2001:db8::1]:5000', 'tag'],
    [`[2001:db8::1]:5000/repo@sha256:${F64}`, '[2001:db8::1]:5000/repo', '[2001:db8::1]:5000', undefined, `sha256:${F64}`],
    [`[2001:db8::1]:5000/repo:tag@sha256:${F64}`, '[2001:db8::1]:5000/repo', '[2001:db8::1]:5000', 'tag', `sha256:${F64}`],
    ['[2001:db8::]:5000/repo', '[2001:db8::]:5000/repo', '[2001:db8::]:5000'],
    ['[::1]:5000/repo', '[::1]:5000/repo', '[::1]:5000'],
    [`example.com/${'a'.repeat(255)}:tag`, `example.com/${'a'.repeat(255)}`, 'example.com', 'tag'],
  ];
  for (const [input, repository, domain, tag, digest] of valid) {
    const ref = parseReference(input);
    assert.equal(formatReference(ref), input);
    assert.equal(repositoryName(ref), repository, input);
    assert.equal(ref.domain, domain, input);
    assert.equal(ref.tag, tag, input);
    assert.equal(ref.digest, digest, input);
  }
  const invalid: [input: string, message: RegExp][] = [
    ['', /at least one component/],
    [':justtag', /invalid reference format/],
    [`@sha256:${F64}`, /invalid reference format/],
    ['repo@sha256:ffffffffffffffffffffffffffffffffff', /invalid checksum digest length/],
    [`validname@invaliddigest:${F64}`, /unsupported digest algorithm/],
    [`validname@sha512:${'f'.repeat(128)}`, /unsupported digest algorithm/],
    ['Uppercase:tag', /must be lowercase/],
    ['test:5000/Uppercase/lowercase:tag', /must be lowercase/],
    [`domain/${'a'.repeat(256)}:tag`, /must not be more than 255 characters/],
    ['aa/asdf$$^/aa', /invalid reference format/],
    ['[2001:db8::1]', /invalid reference format/],
    ['[2001:db8::1]:5000', /invalid reference format/],
    ['[2001:db8::1]:tag', /invalid reference format/],
    ['[fe80::1%eth0]:5000/repo', /invalid reference format/],
    ['[fe80::1%@invalidzone]:5000/repo', /invalid reference format/],
  ];
  for (const [input, message] of invalid) rejects(parseReference, input, message);
});

test('ParseNormalizedNamed: TestValidateReferenceName and TestValidateRemoteName', () => {
  const valid = [
    'docker/docker', 'library/debian', 'debian', 'localhost/library/debian', 'localhost/debian', 'LOCALDOMAIN/library/debian',
    'LOCALDOMAIN/debian', 'docker.io/docker/docker', 'docker.io/library/debian', 'docker.io/debian', 'index.docker.io/docker/docker',
    'index.docker.io/library/debian', 'index.docker.io/debian', '127.0.0.1:5000/docker/docker', '127.0.0.1:5000/library/debian',
    '127.0.0.1:5000/debian', '192.168.0.1', '192.168.0.1:80', '192.168.0.1:8/debian', '192.168.0.2:25000/debian',
    'thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev', '[fc00::1]:5000/docker', '[fc00::1]:5000/docker/docker',
    '[fc00:1:2:3:4:5:6:7]:5000/library/debian', `docker.io/1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a`,
    'Docker/docker', 'DOCKER/docker',
    'docker-rules/docker', 'docker---rules/docker', 'doc/docker', 'd/docker', 'jess/t', 'dock__er/docker',
  ];
  for (const name of valid) assert.doesNotThrow(() => parseNormalizedReference(name), name);
  const invalid = [
    'https://github.com/docker/docker', 'docker/Docker', '-docker', '-docker/docker', '-docker.io/docker/docker', 'docker///docker',
    'docker.io/docker/Docker', 'docker.io/docker///docker', '[fc00::1]', '[fc00::1]:5000', 'fc00::1:5000/debian',
    '[fe80::1%eth0]:5000/debian', '[2001:db8:3:4::192.0.2.33]:5000/debian',
    '1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a',
    'docker-/docker', '-docker-/docker', '____/____', '_docker/_docker', 'dock..er/docker', 'dock_.er/docker', 'dock-.er/docker',
    'docker/', `${'this_is_not_a_valid_namespace_because_its_lenth_is_greater_than_255_'.repeat(4)}/docker`,
  ];
  for (const name of invalid) rejects(parseNormalizedReference, name);
  rejects(parseNormalizedReference, '1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a', /cannot specify 64-byte hexadecimal strings/);
  rejects(parseNormalizedReference, 'docker.io/docker/Docker', /repository name \(docker\/Docker\) must be lowercase/);
});

test('ParseNormalizedNamed: TestParseRepositoryInfo and TestNormalizedSplitHostname', () => {
  // [names that parse to it..., full name, domain, remote name]
  const cases: [names: string[], full: string, domain: string, path: string][] = [
    [['localhost/fooo'], 'localhost/fooo', 'localhost', 'fooo'],
    [['localhost/fooo/bar'], 'localhost/fooo/bar', 'localhost', 'fooo/bar'],
    [['LOCALDOMAIN/fooo'], 'LOCALDOMAIN/fooo', 'LOCALDOMAIN', 'fooo'],
    [['LOCALDOMAIN/fooo/bar'], 'LOCALDOMAIN/fooo/bar', 'LOCALDOMAIN', 'fooo/bar'],
    [['fooo/bar', 'index.docker.io/fooo/bar'], 'docker.io/fooo/bar', 'docker.io', 'fooo/bar'],
    [['ubuntu', 'library/ubuntu'], 'docker.io/library/ubuntu', 'docker.io', 'library/ubuntu'],
    [['nonlibrary/ubuntu'], 'docker.io/nonlibrary/ubuntu', 'docker.io', 'nonlibrary/ubuntu'],
    [['other/library'], 'docker.io/other/library', 'docker.io', 'other/library'],
    [['127.0.0.1:8000/private/moonbase'], '127.0.0.1:8000/private/moonbase', '127.0.0.1:8000', 'private/moonbase'],
    [['127.0.0.1:8000/privatebase'], '127.0.0.1:8000/privatebase', '127.0.0.1:8000', 'privatebase'],
    [['example.com/private/moonbase'], 'example.com/private/moonbase', 'example.com', 'private/moonbase'],
    [['example.com:8000/privatebasee'], 'example.com:8000/privatebasee', 'example.com:8000', 'privatebasee'],
    [['ubuntu-12.04-base', 'index.docker.io/library/ubuntu-12.04-base'], 'docker.io/library/ubuntu-12.04-base', 'docker.io', 'library/ubuntu-12.04-base'],
    [['foo', 'docker.io/foo'], 'docker.io/library/foo', 'docker.io', 'library/foo'],
    [['library/foo/bar'], 'docker.io/library/foo/bar', 'docker.io', 'library/foo/bar'],
    [['store/foo/bar'], 'docker.io/store/foo/bar', 'docker.io', 'store/foo/bar'],
    [['Foo/bar'], 'Foo/bar', 'Foo', 'bar'],
    [['FOO/bar'], 'FOO/bar', 'FOO', 'bar'],
    [['test.com/foo'], 'test.com/foo', 'test.com', 'foo'],
    [['test_com/foo'], 'docker.io/test_com/foo', 'docker.io', 'test_com/foo'],
    [['docker/migrator'], 'docker.io/docker/migrator', 'docker.io', 'docker/migrator'],
    [['test.com:8080/foo'], 'test.com:8080/foo', 'test.com:8080', 'foo'],
    [['test-com:8080/foo'], 'test-com:8080/foo', 'test-com:8080', 'foo'],
    [['xn--n3h.com/foo'], 'xn--n3h.com/foo', 'xn--n3h.com', 'foo'],
    [['xn--n3h.com:18080/foo'], 'xn--n3h.com:18080/foo', 'xn--n3h.com:18080', 'foo'],
    [['docker.io/library/foo/bar'], 'docker.io/library/foo/bar', 'docker.io', 'library/foo/bar'],
  ];
  for (const [names, full, domain, path] of cases) {
    for (const name of [...names, full]) {
      const ref = parseNormalizedReference(name);
      assert.deepEqual([formatReference(ref), ref.domain, ref.path], [full, domain, path], name);
    }
  }
  const withBoth = 'busybox:latest@sha256:86e0e091d0da6bde2456dbb48306f3956bbeb2eae1b5b9a43045843f69fe4aaa';
  assert.equal(formatReference(parseNormalizedReference(withBoth)), `docker.io/library/${withBoth}`);
});

test('ParseDockerRef: TestParseDockerRef and TestParseAnyReference (named cases)', () => {
  const digest = 'sha256:e6693c20186f837fc393390135d8a598a96a833917917789d63766cab6c59582';
  const cases: [input: string, expected: string][] = [
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:latest', 'docker.io/library/busybox:latest'],
    [`busybox@${digest}`, `docker.io/library/busybox@${digest}`],
    ['library/busybox', 'docker.io/library/busybox:latest'],
    ['docker.io/busybox', 'docker.io/library/busybox:latest'],
    ['docker.io/library/busybox', 'docker.io/library/busybox:latest'],
    ['docker.io/busybox:latest', 'docker.io/library/busybox:latest'],
    ['library/busybox:latest', 'docker.io/library/busybox:latest'],
    ['docker.io/library/busybox:latest', 'docker.io/library/busybox:latest'],
    ['gcr.io/library/busybox', 'gcr.io/library/busybox:latest'],
    [`gcr.io/library/busybox:latest@${digest}`, `gcr.io/library/busybox@${digest}`],
    ['redis:latest', 'docker.io/library/redis:latest'],
    ['dmcgowan/myapp', 'docker.io/dmcgowan/myapp:latest'],
    ['docker.io/mcgowan/myapp:latest', 'docker.io/mcgowan/myapp:latest'],
    [`dmcgowan/myapp@${digest}`, `docker.io/dmcgowan/myapp@${digest}`],
    ['dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9', 'docker.io/library/dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9:latest'],
    ['dbcc1', 'docker.io/library/dbcc1:latest'],
    ['127.0.0.1:5000/bosun/web:1.0', '127.0.0.1:5000/bosun/web:1.0'],
  ];
  for (const [input, expected] of cases) {
    const ref = parseImageReference(input);
    assert.equal(formatReference(ref), expected, input);
    assert.deepEqual(parseReference(formatReference(ref)), ref, `${expected} parses back`);
  }
});
