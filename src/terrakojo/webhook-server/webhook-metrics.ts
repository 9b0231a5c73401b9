// Deliveries counted by event and outcome, in Prometheus form on the registry the caller serves (the
// manager's in `bosun up`). The event label takes only the events the server knows, so an unauthenticated
// sender cannot grow the series with made-up event names.
import { Counter, type Registry } from 'prom-client';

export type DeliveryOutcome =
  /** A push or pull_request that poked at least one Repository. */
  | 'synced'
  /** A push or pull_request for a repository no Repository is for. */
  | 'no_repository'
  /** An event type the server does not handle. */
  | 'ignored'
  | 'ping'
  | 'duplicate'
  | 'unauthorized'
  /** The sender's fault: method, size, content type, malformed payload, not a GitHub delivery. */
  | 'rejected'
  /** Ours or the Kubernetes API's: answered 5xx so that the delivery shows as failed and can be redelivered. */
  | 'failed';

const KNOWN_EVENTS = new Set(['push', 'pull_request', 'ping']);

export class WebhookMetrics {
  private readonly deliveries: Counter<'event' | 'outcome'> | undefined;

  /** Without a registry nothing is counted. */
  constructor(registry?: Registry) {
    this.deliveries = registry
      ? new Counter({ name: 'terrakojo_webhook_deliveries_total', help: 'GitHub webhook deliveries received, by event and outcome', labelNames: ['event', 'outcome'], registers: [registry] })
      : undefined;
  }

  delivered(event: string | undefined, outcome: DeliveryOutcome): void {
    this.deliveries?.inc({ event: event === undefined ? 'none' : KNOWN_EVENTS.has(event) ? event : 'other', outcome });
  }
}
