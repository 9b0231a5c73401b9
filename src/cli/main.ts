// The `bosun` command.
import { Command } from 'commander';
import { manifestsCommand } from './commands/manifests.ts';
import { templateCommand } from './commands/template.ts';
import { upCommand } from './commands/up.ts';

const program = new Command('bosun')
  .description('A TypeScript control plane for Kubernetes: Landscaper, terrakojo workflows and chaos disruptions')
  .addCommand(upCommand())
  .addCommand(manifestsCommand())
  .addCommand(templateCommand());

await program.parseAsync(process.argv);
