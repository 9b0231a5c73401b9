// Process-wide keep-alive agents: every transport that talks to the same cluster with the same TLS
// identity shares one connection pool, however many clients the process creates. Reference-counted.
import type http from 'node:http';

interface Entry {
  agent: http.Agent;
  refs: number;
}

const pool = new Map<string, Entry>();

export interface AgentLease {
  readonly agent: http.Agent;
  /** Drops this holder; the last one destroys the agent and its sockets. */
  release(): void;
}

/** The agent pooled under key, created by create() if there is none yet. */
export function acquireAgent(key: string, create: () => http.Agent): AgentLease {
  let entry = pool.get(key);
  if (!entry) {
    entry = { agent: create(), refs: 0 };
    pool.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    agent: held.agent,
    release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0) {
        held.agent.destroy();
        if (pool.get(key) === held) pool.delete(key);
      }
    },
  };
}

/** Number of live pooled agents (for tests and diagnostics). */
export function pooledAgentCount(): number {
  return pool.size;
}
