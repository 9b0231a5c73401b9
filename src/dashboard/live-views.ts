// The dashboard's live side: one snapshot watcher (one informer per resource) per view and namespace, shared by
// every page that shows it, and each change sent to them as a Server-Sent Event. Nothing polls: an informer
// event rebuilds the view, coalesced to one build per event-loop turn by the snapshot watcher.
import type { ServerResponse } from 'node:http';
import type { KubeClient } from '../client/client.ts';
import type { DashboardView } from '../runtime/view/dashboard-view.ts';
import { SnapshotWatcher } from '../runtime/view/snapshot-watcher.ts';

interface Feed {
  watcher: SnapshotWatcher<string>;
  pages: Set<ServerResponse>;
  /** The last event sent, for a page that joins later. */
  last: string | undefined;
}

export class LiveViews {
  private readonly feeds = new Map<string, Feed>();

  constructor(
    private readonly client: KubeClient,
    private readonly views: readonly DashboardView[],
    private readonly onError: (error: unknown) => void,
  ) {}

  view(name: string): DashboardView | undefined {
    return this.views.find((view) => view.name === name);
  }

  /** Streams `view` in `namespace` to the response until the page goes away. */
  subscribe(view: DashboardView, namespace: string, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': live\n\n');
    const key = `${view.name}\u0000${namespace}`;
    let feed = this.feeds.get(key);
    if (!feed) {
      const created: Feed = {
        pages: new Set(),
        last: undefined,
        watcher: new SnapshotWatcher(this.client, namespace, view.resources, (update) => {
          const data = JSON.stringify({ view: view.name, namespace, serverTime: new Date().toISOString(), roots: view.build(namespace, update.objects), ...(update.stale ? { stale: update.stale } : {}) });
          created.last = `event: view\ndata: ${data}\n\n`;
          for (const page of created.pages) page.write(created.last);
        }),
      };
      feed = created;
      this.feeds.set(key, feed);
      feed.watcher.start().catch(this.onError);
    } else if (feed.last) {
      res.write(feed.last);
    }
    const joined = feed;
    joined.pages.add(res);
    res.on('close', () => {
      joined.pages.delete(res);
      if (joined.pages.size > 0) return;
      // The last page left: stop watching until someone looks again.
      this.feeds.delete(key);
      joined.watcher.stop().catch(this.onError);
    });
  }

  async close(): Promise<void> {
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    for (const feed of feeds) for (const page of feed.pages) page.end();
    await Promise.all(feeds.map((feed) => feed.watcher.stop()));
  }
}
