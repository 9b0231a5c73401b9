// The kubeconfig `bosun up` writes. client-node 1.4 refuses http:// unless insecure-skip-tls-verify is set.
import { stringify } from 'yaml';

export function kubeconfigFor(server: string, token: string, context = 'bosun'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: context, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: context, user: { token } }],
    contexts: [{ name: context, context: { cluster: context, user: context, namespace: 'default' } }],
    'current-context': context,
    preferences: {},
  });
}
