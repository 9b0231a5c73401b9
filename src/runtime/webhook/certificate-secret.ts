// The webhook serving certificate kept in a Secret, as controller-runtime users keep it with cert-controller's
// rotator: every replica (and every restart) serves the same certificate for `SERVICE.NAMESPACE.svc`, made by
// whichever replica finds the Secret empty. A certificate (CA or serving) with less than a third of its validity
// left is made again; each replica renews on a timer set for that moment, never by polling the API. When the CA
// is replaced, `ca.crt` keeps the previous CA after the new one while it is valid, so a replica still serving
// the old certificate stays trusted until its own timer swaps it.
// The Secret is created by the install (`bosun manifests`), so the controllers need only get and update on it.
import { X509Certificate } from 'node:crypto';
import type { Secret } from '../../apimachinery/api/core-v1.ts';
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { ConflictError, NotFoundError } from '../../client/errors.ts';
import { generateCertificateAuthority, issueCertificate, type Validity, type WebhookCertificates } from './certificates.ts';

export const CA_CERT_KEY = 'ca.crt';
export const CA_KEY_KEY = 'ca.key';
export const TLS_CERT_KEY = 'tls.crt';
export const TLS_KEY_KEY = 'tls.key';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CertificateSecretOptions {
  client: KubeClient;
  namespace: string;
  /** The Secret's name; it must exist (the install creates it empty). */
  name: string;
  /** The server name the API server verifies: `SERVICE.NAMESPACE.svc`. */
  dnsName: string;
  /** The clock; injected by tests. */
  now?: () => Date;
  /** How long a new CA is valid; default 10 years. */
  caValidityMs?: number;
  /** How long a new serving certificate is valid; default 1 year. */
  servingValidityMs?: number;
}

/** The certificates in force and when they must be looked at again. */
export interface KeptCertificates extends WebhookCertificates {
  /** The first moment one of them has less than a third of its validity left. */
  renewAt: Date;
}

const decode = (value: string | undefined): string => (value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
const encode = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/** The moment `cert` has a third of its validity left. */
function renewalTime(cert: X509Certificate): number {
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return to - (to - from) / 3;
}

/** The PEM blocks of a bundle. */
function pemBlocks(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? [];
}

function parse(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

export class WebhookCertificateSecret {
  private readonly o: CertificateSecretOptions;
  private readonly now: () => Date;

  constructor(options: CertificateSecretOptions) {
    this.o = options;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * The certificates in the Secret, made (and written) when it is empty, not for `dnsName`, or has a certificate
   * past its renewal time. Two replicas racing: the loser of the update reads the winner's certificates.
   */
  async ensure(): Promise<KeptCertificates> {
    for (let attempt = 0; ; attempt++) {
      const secret = await this.read();
      const kept = this.usable(secret);
      if (kept) return kept;
      const made = await this.make(secret);
      try {
        await this.o.client.update(secretsResource, { ...secret, data: { ...secret.data, ...made.data } });
        return made.certificates;
      } catch (err) {
        if (err instanceof ConflictError && attempt < 5) continue;
        throw err;
      }
    }
  }

  private async read(): Promise<Secret> {
    try {
      return await this.o.client.get<Secret>(secretsResource, this.o.name, { namespace: this.o.namespace });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      throw new Error(`the webhook certificate Secret ${this.o.namespace}/${this.o.name} does not exist: create it empty (bosun manifests does)`, { cause: err });
    }
  }

  private usable(secret: Secret): KeptCertificates | undefined {
    const data = secret.data ?? {};
    const caBundle = decode(data[CA_CERT_KEY]);
    const cert = decode(data[TLS_CERT_KEY]);
    const key = decode(data[TLS_KEY_KEY]);
    const ca = parse(pemBlocks(caBundle)[0] ?? '');
    const leaf = parse(cert);
    if (!ca || !leaf || key === '' || decode(data[CA_KEY_KEY]) === '') return undefined;
    if (!leaf.checkIssued(ca) || leaf.checkHost(this.o.dnsName) === undefined) return undefined;
    const renewAt = Math.min(renewalTime(ca), renewalTime(leaf));
    if (this.now().getTime() >= renewAt) return undefined;
    return { cert, key, caBundle, renewAt: new Date(renewAt) };
  }

  /** New serving certificate; a new CA too when the current one is missing or due. */
  private async make(secret: Secret): Promise<{ certificates: KeptCertificates; data: Record<string, string> }> {
    const now = this.now();
    const validity = (ms: number): Validity => ({ notBefore: now, notAfter: new Date(now.getTime() + ms) });
    const data = secret.data ?? {};
    const oldBundle = pemBlocks(decode(data[CA_CERT_KEY]));
    const oldCa = parse(oldBundle[0] ?? '');
    const oldCaKey = decode(data[CA_KEY_KEY]);
    const keepCa = oldCa !== undefined && oldCaKey !== '' && now.getTime() < renewalTime(oldCa);
    const ca = keepCa ? { cert: oldBundle[0] ?? '', key: oldCaKey } : await generateCertificateAuthority(`${this.o.dnsName}-ca`, validity(this.o.caValidityMs ?? 3650 * DAY_MS));
    const stillValid = (pem: string): boolean => {
      const cert = parse(pem);
      return cert !== undefined && now.getTime() < Date.parse(cert.validTo);
    };
    // The previous CA stays trusted while it is valid: other replicas may still serve a certificate it signed.
    const previous = !keepCa && oldBundle[0] !== undefined && stillValid(oldBundle[0]) ? oldBundle[0] : '';
    const caBundle = keepCa ? oldBundle.filter(stillValid).join('') : `${ca.cert.trimEnd()}\n${previous}`;
    const leaf = await issueCertificate(ca, this.o.dnsName, { server: [this.o.dnsName] }, validity(this.o.servingValidityMs ?? 365 * DAY_MS));
    const renewAt = Math.min(renewalTime(new X509Certificate(ca.cert)), renewalTime(new X509Certificate(leaf.cert)));
    return {
      certificates: { cert: leaf.cert, key: leaf.key, caBundle, renewAt: new Date(renewAt) },
      data: { [CA_CERT_KEY]: encode(caBundle), [CA_KEY_KEY]: encode(ca.key), [TLS_CERT_KEY]: encode(leaf.cert), [TLS_KEY_KEY]: encode(leaf.key) },
    };
  }
}
