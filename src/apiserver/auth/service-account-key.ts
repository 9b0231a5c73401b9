// The key service account tokens are signed with (kube-apiserver's --service-account-signing-key-file): an RSA
// key made once and kept 0600 in the data dir, so tokens outlive a restart; an in-memory server makes a new one.
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadOrCreateSigningKey(dataDir: string | undefined): KeyObject {
  const path = dataDir ? join(dataDir, 'service-account.key') : undefined;
  if (path && existsSync(path)) return createPrivateKey(readFileSync(path, 'utf8'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (path) {
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return privateKey;
}
