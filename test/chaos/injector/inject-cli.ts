// `bosun inject` as chaos pods run it, with a FilePort as the node runtime (BOSUN_TEST_PORT_STATE and
// BOSUN_TEST_PORT_CALLS name its files). The stress children run this same script again (process.argv[1]),
// which is why it is the whole `inject` command and not only the lifecycle.
import { Command } from 'commander';
import { injectCommand } from '../../../src/cli/commands/inject.ts';
import { FilePort } from './file-port.ts';

const state = process.env['BOSUN_TEST_PORT_STATE'];
const calls = process.env['BOSUN_TEST_PORT_CALLS'];
const program = new Command('bosun').addCommand(injectCommand(state && calls ? { port: new FilePort(state, calls) } : {}));
await program.parseAsync(process.argv);
