// Manifest kinds and the platform choice from an index, as tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEDIA_TYPES, parseManifest, type Descriptor } from '../../../src/client/oci/manifest.ts';
import { RegistryError } from '../../../src/client/oci/registry-error.ts';
import { choosePlatform, requireUnpackableLayers } from '../../../src/node/images/pull/image-manifest.ts';

const digest = (n: number): string => `sha256:${String(n).padStart(64, '0')}`;
const entry = (n: number, architecture: string, variant?: string, os = 'linux'): Descriptor => ({
  mediaType: MEDIA_TYPES.ociManifest,
  digest: digest(n),
  size: 1,
  platform: { os, architecture, ...(variant === undefined ? {} : { variant }) },
});

test('platform choice: os and architecture, then the variant (arm64 v8 = none), else UnsupportedPlatform', () => {
  const index = [entry(1, 'amd64', undefined, 'windows'), entry(2, 'amd64'), entry(3, 'arm', 'v6'), entry(4, 'arm', 'v7'), entry(5, 'arm64', 'v8')];
  const rows: [platform: { os: string; architecture: string; variant?: string }, chosen: number | undefined][] = [
    [{ os: 'linux', architecture: 'amd64' }, 2],
    [{ os: 'linux', architecture: 'arm', variant: 'v7' }, 4],
    [{ os: 'linux', architecture: 'arm', variant: 'v6' }, 3],
    [{ os: 'linux', architecture: 'arm64', variant: 'v8' }, 5],
    [{ os: 'linux', architecture: 'arm64' }, 5],
    [{ os: 'linux', architecture: 's390x' }, undefined],
  ];
  for (const [platform, chosen] of rows) {
    if (chosen === undefined) {
      assert.throws(
        () => choosePlatform(index, platform, 'img'),
        (e: unknown) => e instanceof RegistryError && e.failure === 'UnsupportedPlatform' && /no match for platform linux\/s390x in the manifest list of img \(it offers windows\/amd64, linux\/amd64, linux\/arm\/v6/.test(e.message),
      );
    } else {
      assert.equal(choosePlatform(index, platform, 'img').digest, digest(chosen), JSON.stringify(platform));
    }
  }
  // An entry without a variant serves any variant of its architecture.
  assert.equal(choosePlatform([entry(6, 'arm')], { os: 'linux', architecture: 'arm', variant: 'v7' }, 'img').digest, digest(6));
});

test('manifests: index, manifest, schema 1 refused, unknown layer types refused', () => {
  const json = (value: object): Buffer => Buffer.from(JSON.stringify(value));
  const layer = { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digest(1), size: 1 };
  const config = { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digest(2), size: 1 };
  assert.equal(parseManifest(json({ schemaVersion: 2, manifests: [entry(1, 'amd64')] }), MEDIA_TYPES.dockerList, 'img').kind, 'index');
  assert.deepEqual(parseManifest(json({ schemaVersion: 2, config, layers: [layer] }), MEDIA_TYPES.ociManifest, 'img'), { kind: 'manifest', config, layers: [layer] });
  const invalid: [Buffer, string | undefined, RegExp][] = [
    [json({ schemaVersion: 1, fsLayers: [] }), MEDIA_TYPES.dockerSchema1Signed, /img is a Docker image manifest schema 1, which Bosun does not pull .* push it again as Docker schema 2 or OCI/],
    [json({ schemaVersion: 2, config: { digest: 'md5:x' }, layers: [] }), MEDIA_TYPES.ociManifest, /has no valid config and layers/],
    [Buffer.from('<html>'), 'text/html', /not JSON/],
  ];
  for (const [bytes, type, message] of invalid) {
    assert.throws(() => parseManifest(bytes, type, 'img'), (e: unknown) => e instanceof RegistryError && e.failure === 'Invalid' && message.test(e.message));
  }
  // A manifest with foreign layers parses (a Helm chart's does too); the node refuses layers it cannot unpack.
  const foreign = { ...layer, mediaType: 'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip' };
  assert.doesNotThrow(() => requireUnpackableLayers([layer], 'img'));
  assert.throws(
    () => requireUnpackableLayers([foreign], 'img'),
    (e: unknown) => e instanceof RegistryError && e.failure === 'Invalid' && /img has a layer of media type application\/vnd\.docker\.image\.rootfs\.foreign\.diff\.tar\.gzip/.test(e.message),
  );
});
