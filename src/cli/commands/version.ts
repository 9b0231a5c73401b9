// `bosun version`: what a bug report needs: Bosun's version, the Kubernetes version its API server serves, Node's.
import { Command } from 'commander';
import { serverVersion } from '../../apiserver/discovery/version.ts';
import { bosunVersion } from '../bosun-version.ts';

export function versionLines(): string[] {
  return [`bosun ${bosunVersion}`, `Kubernetes API (embedded server): ${serverVersion.gitVersion}`, `Node.js: ${process.version} (${process.platform}/${process.arch})`];
}

export function versionCommand(): Command {
  return new Command('version').description("print Bosun's version, the Kubernetes version its embedded API server serves and Node's").action(() => {
    console.log(versionLines().join('\n'));
  });
}
