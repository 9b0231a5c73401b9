// `bosun manifests [--family F]`: print the CRDs of Bosun's families as one multi-document YAML stream, for
// `bosun manifests | kubectl apply -f -` on a real cluster.
import { Command } from 'commander';
import { stringify } from 'yaml';
import type { Family } from '../../runtime/family.ts';
import { bosunFamilies, familyCrds, selectFamilies } from '../families.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** The YAML stream `bosun manifests` prints: each CRD as one document, each document introduced by `---`. */
export function renderManifests(families: readonly Family[]): string {
  return familyCrds(families).map((crd) => `---\n${stringify(crd, { lineWidth: 0 })}`).join('');
}

export function manifestsCommand(available: readonly Family[] = bosunFamilies): Command {
  return new Command('manifests')
    .description("print the CustomResourceDefinitions of Bosun's controller families as YAML (for kubectl apply -f - on a real cluster)")
    .option('--family <family>', `only the CRDs of one controller family (${available.map((f) => f.name).join(', ')})`)
    .action((opts: { family?: string }) => {
      let out: string;
      try {
        out = renderManifests(selectFamilies(opts.family === undefined ? undefined : [opts.family], available));
      } catch (err) {
        console.error(`bosun manifests: ${messageOf(err)}`);
        process.exit(1);
      }
      process.stdout.write(out);
    });
}
