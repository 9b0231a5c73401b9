// What materialising a core/v1 Volume source yields, and what the agent knows when it does.
import type { PodContext } from '../pod-context.ts';

export interface VolumeContext extends PodContext {
  /** The pod's directory on the node: its volumes live in <podDir>/volumes/<plugin>/<name>. */
  podDir: string;
  /** The agent's data directory: claims live in <dataDir>/volumes/pvc/<namespace>/<claim>, beyond any pod. */
  dataDir: string;
}

/** A volume ready on the host: bound from hostPath, read-only for every container when readOnly. */
export interface MaterialisedVolume {
  hostPath: string;
  readOnly: boolean;
}

/** The default mode of configMap, secret, downwardAPI and projected files (the API's defaulting: 0644). */
export const DEFAULT_FILE_MODE = 0o644;

