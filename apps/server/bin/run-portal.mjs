// Runs the server's TypeScript entry point (src/main.ts, through tsx's loader: decision 0003) in a child
// process, for the `portal` command and `npm start`. A child because glibc reads the allocator settings
// only at process start (malloc-env.mjs). This process stands in for the server: SIGTERM or SIGINT sent
// to it alone (`docker stop`, `kill`, a service manager that signals its main process) is passed on, so
// the server drains its requests and closes the database instead of being left running without it, and
// the server's exit status becomes this process's.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MALLOC_ENV } from './malloc-env.mjs';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
// The signals the server stops on (src/cli/cli.ts). A terminal's Ctrl+C reaches the whole process group,
// so the server then gets SIGINT twice, its own and this one; it stops once.
const PASSED_ON = ['SIGINT', 'SIGTERM'];

/** Starts `portal <args>` (in `cwd`, default this process's); this process exits when it does, with its status. */
export function runPortal(args, cwd = process.cwd()) {
  const child = spawn(process.execPath, ['--import', tsx, main, ...args], {
    cwd,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...MALLOC_ENV, ...process.env },
  });
  // Passed on as a message, not as the signal (src/main.ts turns it back into one): a copy that came late,
  // once the server had stopped and was exiting with no handler left, ended it by the signal (status 130
  // after a clean stop, seen under load). Until the child says it listens, the signal itself.
  let listens = false;
  child.on('message', (message) => {
    if (message?.portalListens === true) listens = true;
  });
  const passOn = (signal) => {
    if (listens && child.connected) child.send({ portalStop: signal }, () => {});
    else child.kill(signal);
  };
  for (const signal of PASSED_ON) process.on(signal, passOn);
  child.on('error', (err) => {
    console.error(`Could not start the portal: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 0));
  });
}
