// `bosun manifests [--family F]`: print Bosun's CRDs as one multi-document YAML stream, for
// `bosun manifests | kubectl apply -f -` on a real cluster.
import { Command, Option } from 'commander';
import { stringify } from 'yaml';
import { crdsByFamily, loadBosunCrds, type CrdFamily } from '../../crds/index.ts';
import type { KubeObject } from '../../apimachinery/object.ts';

const FAMILIES: readonly CrdFamily[] = ['landscaper', 'workflows', 'chaos'];

/** The YAML stream `bosun manifests` prints: each CRD as one document, each document introduced by `---`. */
export function renderManifests(family?: CrdFamily): string {
  const crds: KubeObject[] = family === undefined ? loadBosunCrds() : crdsByFamily(family);
  return crds.map((crd) => `---\n${stringify(crd, { lineWidth: 0 })}`).join('');
}

export function manifestsCommand(): Command {
  return new Command('manifests')
    .description("print Bosun's CustomResourceDefinitions as YAML (for kubectl apply -f - on a real cluster)")
    .addOption(new Option('--family <family>', 'only the CRDs of one controller family').choices(FAMILIES))
    .action((opts: { family?: CrdFamily }) => {
      process.stdout.write(renderManifests(opts.family));
    });
}
