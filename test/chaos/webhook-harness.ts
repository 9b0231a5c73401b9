// The embedded API server with the Disruption CRD and the chaos family's admission webhooks registered through
// the family (as `bosun controllers` does), served over real HTTPS on a loopback port, and kubectl against it.
import { pino } from 'pino';
import { chaosFamilyWith } from '../../src/chaos/family.ts';
import type { ChaosConfig } from '../../src/chaos/config.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { Manager } from '../../src/runtime/manager.ts';
import { AdmissionWebhooks, WebhookServer } from '../../src/runtime/webhook/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

/** The user agent of the webhooks' own requests, to check them against the family's RBAC rules. */
export const WEBHOOK_USER_AGENT = 'chaos-webhook-test';

export interface ChaosWebhookHarness {
  server: TestServer;
  /** A client for the test's own reads (the webhooks have theirs). */
  client: KubeClient;
  kubectl: Kubectl;
  webhooks: AdmissionWebhooks;
  stop(): Promise<void>;
}

export async function startChaosWebhooks(config: ChaosConfig): Promise<ChaosWebhookHarness> {
  const server = await startTestServer({ crds: loadBosunCrds().filter((c) => c.metadata.name === 'disruptions.chaos.datadoghq.com') });
  const logger = pino({ level: 'silent' });
  const webhookClient = createKubeClient({ kubeconfigPath: server.kubeconfigFile, userAgent: WEBHOOK_USER_AGENT });
  const client = createKubeClient({ kubeconfigPath: server.kubeconfigFile });
  const webhooks = new AdmissionWebhooks({ client: webhookClient, server: new WebhookServer({ logger }), logger });
  chaosFamilyWith(config).register(new Manager({ client: webhookClient, logger }), { webhooks });
  await webhooks.start();
  return {
    server,
    client,
    kubectl: kubectlFor(server.kubeconfigFile),
    webhooks,
    async stop() {
      await webhooks.stop();
      await webhookClient.close();
      await client.close();
      await server.close();
    },
  };
}
