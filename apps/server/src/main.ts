import os from 'node:os';
import { runCli } from './cli/cli.ts';

// The `portal` command (bin/run-portal.mjs) passes a SIGINT or SIGTERM sent to it on as a message: here it
// reaches the same handlers as the signal would, and before there are any it ends the process as the
// signal would. The command sends the signal itself until this says it listens. The channel does not keep
// the process alive.
process.on('message', (message: unknown) => {
  const signal = (message as { portalStop?: unknown } | null)?.portalStop;
  if (signal !== 'SIGINT' && signal !== 'SIGTERM') return;
  if (process.listenerCount(signal) > 0) process.emit(signal, signal);
  else process.exit(128 + os.constants.signals[signal]);
});
process.channel?.unref();
process.send?.({ portalListens: true });

process.exitCode = await runCli(process.argv.slice(2));
