import { MALLOC_ENV } from '../../apps/server/bin/malloc-env.mjs';
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { EventLoopStats, SearchIndexFigure, ServerMessage, ServerMemory } from '../server-entry.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Settings every benchmark server gets: no demo data, no logging cost, limits out of the way. */
export function benchServerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    // As `portal serve` starts the server (apps/server/bin/portal).
    ...MALLOC_ENV,
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PORTAL_DEMO: '0',
    LOG_LEVEL: 'warn',
    // One client address sends every request: per-address limits would turn the benchmark into 429s.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '100000000',
    MAP_RATE_LIMIT_KB_PER_MINUTE: '100000000',
    WEB_DIST: '',
    DATABASE_URL: '',
    ...extra,
  };
}

export interface BenchServer {
  url: string;
  pid: number;
  startMs: number;
  /** The search indexes built at start (null: indexes off). */
  searchIndex: SearchIndexFigure | null;
  /** Warnings and errors the server logged (a limiter that fails on every request skews every figure). */
  logProblems(): { count: number; samples: string[] };
  stats(): Promise<{ eventLoop: EventLoopStats; memory: ServerMemory }>;
  /** Resolves once the server has reset its histogram (so nothing measured before it counts). */
  resetEventLoop(): Promise<void>;
  stop(): Promise<void>;
}

/** Forks bench/server-entry.ts (the real startServer) and resolves once it listens. */
export function startBenchServer(env: NodeJS.ProcessEnv, timeoutMs = 600_000): Promise<BenchServer> {
  const child: ChildProcess = fork(path.join(ROOT, 'bench/server-entry.ts'), [], {
    cwd: ROOT,
    env,
    // BENCH_SERVER_NODE_ARGS: extra Node flags for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
    // (NODE_OPTIONS refuses --cpu-prof, and would profile the harness too).
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let problems = 0;
  const samples: string[] = [];
  const watch = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        let level = 0;
        let msg = line;
        try {
          const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
          level = entry.level ?? 0;
          msg = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
        } catch {
          // Not a log entry (a stack trace, a warning from Node): show it as is.
          out.write(`${line}\n`);
          continue;
        }
        if (level >= 40) {
          problems++;
          if (samples.length < 3) samples.push(msg.slice(0, 300));
        }
      }
    });
  };
  watch(child.stdout, process.stdout);
  watch(child.stderr, process.stderr);
  const waiters: Array<(m: ServerMessage) => void> = [];
  child.on('message', (m: ServerMessage) => waiters.shift()?.(m));
  const next = () => new Promise<ServerMessage>((resolve) => waiters.push(resolve));

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the server did not start in time'));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited during start-up (code ${code})`));
    });
    void next().then((m) => {
      clearTimeout(timer);
      if (m.type !== 'ready') {
        child.kill('SIGKILL');
        reject(new Error(`the server failed to start: ${m.type === 'error' ? m.message : m.type}`));
        return;
      }
      child.removeAllListeners('exit');
      resolve({
        url: m.url,
        pid: child.pid!,
        startMs: m.startMs,
        searchIndex: m.searchIndex,
        logProblems: () => ({ count: problems, samples: [...samples] }),
        async stats() {
          const reply = next();
          child.send({ type: 'stats' });
          const s = await reply;
          if (s.type !== 'stats') throw new Error('unexpected reply from the server');
          return { eventLoop: s.eventLoop, memory: s.memory };
        },
        async resetEventLoop() {
          const reply = next();
          child.send({ type: 'reset' });
          await reply;
        },
        stop() {
          return new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.send({ type: 'stop' });
          });
        },
      });
    });
  });
}
