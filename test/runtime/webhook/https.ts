// Calls a webhook server over real HTTPS, trusting only the CA it announces (as the API server does).
import { request } from 'node:https';

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function post(url: string, ca: string, body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }, method = 'POST'): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, ca, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An AdmissionReview v1 request as the API server sends it. */
export function review(request: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'a1b2c3',
      kind: { group: 'test.bosun.dev', version: 'v1', kind: 'Widget' },
      resource: { group: 'test.bosun.dev', version: 'v1', resource: 'widgets' },
      operation: 'CREATE',
      userInfo: { username: 'kubernetes-admin', groups: ['system:masters'] },
      namespace: 'default',
      name: 'w1',
      object: { apiVersion: 'test.bosun.dev/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { size: 1 } },
      dryRun: false,
      ...request,
    },
  });
}
