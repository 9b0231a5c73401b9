// The kubeconfig `bosun up` writes: https to the server, its certificate as the CA, the bearer token.
import { stringify } from 'yaml';

export function kubeconfigFor(server: string, token: string, caCert: string | undefined, context = 'bosun'): string {
  const cluster: Record<string, unknown> = { server };
  if (caCert) cluster['certificate-authority-data'] = Buffer.from(caCert).toString('base64');
  else cluster['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: context, cluster }],
    users: [{ name: context, user: { token } }],
    contexts: [{ name: context, context: { cluster: context, user: context, namespace: 'default' } }],
    'current-context': context,
    preferences: {},
  });
}
