import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { HttpClient } from './http.ts';
import type { CambridgeFigures } from './results.ts';
import { benchServerEnv, ROOT, startBenchServer } from './server-process.ts';
import { summarize } from './stats.ts';

/*
 * Cambridge, MA (issue 40): the city's real FY2014 roll and its 13,116-polygon parcel layer, from
 * ../shared (read-only; the section is skipped with a note when it is absent). Each run starts from an
 * empty database of its own, so the figures are not mixed with the county's data set: the roll and the
 * layer are published with the `portal` command as a clerk would, the layer import's time is the one
 * the command prints, then abutters at 300 ft and boxes of a few blocks are timed through the server.
 */

const REALWORLD = path.resolve(ROOT, '../shared/data/realworld/cambridge-ma');
const ROLL = path.join(REALWORLD, 'cambridge_taxfy14.csv');
const LAYER = path.join(REALWORLD, 'cambridge_parcels_fy2014.topojson');
const MAPPING = path.join(ROOT, 'docs/examples/cambridge-fy2014.json');
const ABUTTER_SUBJECTS = 200;
const BOXES = 100;

export const cambridgeMissing = () =>
  fs.existsSync(ROLL) && fs.existsSync(LAYER) ? null : `Cambridge's files are not in ${REALWORLD}`;

/** Runs `portal ARGS` from the sources (as the benchmark's server runs) and answers what it printed. */
function portal(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`portal ${args[0]} failed (${code}): ${out.slice(-600)}`)),
    );
  });
}

/** "… in 3.2 s …" as the command printed it. */
function printedSeconds(out: string, what: string): number {
  const m = /\bin ([\d.]+) s\b/.exec(out);
  if (!m) throw new Error(`${what}: no time in its output: ${out.slice(-300)}`);
  return Number(m[1]);
}

async function freshDatabase(
  engine: 'pglite' | 'postgres',
  adminUrl: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-bench-cambridge-'));
    return {
      env: { DATA_DIR: path.join(dir, 'data') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = 'opp_bench_cambridge';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function measureCambridge(
  engine: 'pglite' | 'postgres',
  adminUrl: string,
  log: (s: string) => void,
): Promise<CambridgeFigures> {
  const database = await freshDatabase(engine, adminUrl);
  const env = benchServerEnv(database.env);
  try {
    const town = ['--state', 'MA', '--city', 'Cambridge'];
    await portal(['client', 'add', ...town], env);
    const rollOut = await portal(['import', ...town, '--mapping', MAPPING, ROLL], env);
    const rollSeconds = printedSeconds(rollOut, 'the roll import');
    const layerOut = await portal(
      ['parcels', 'import', ...town, '--key', 'MapLot', '--property', 'ML', LAYER],
      env,
    );
    const layerSeconds = printedSeconds(layerOut, 'the parcel layer import');
    log(`    roll (27,528 records, through its mapping) ${rollSeconds} s; parcel layer ${layerSeconds} s`);

    const server = await startBenchServer(env);
    try {
      const api = new HttpClient(server.url, 4);
      const lookup = await api.get('/api/client/Massachusetts/Cambridge');
      const clientId = (JSON.parse(lookup.body) as { ClientID: number }).ClientID;
      let errors = 0;
      const timed = async (url: string) => {
        const res = await api.get(url);
        if (res.status !== 200) errors++;
        return res;
      };
      const boxUrl = (i: number) => {
        // About 1,600 × 1,100 ft (a few city blocks), stepped across the city.
        const lon = -71.14 + (i % 10) * 0.006;
        const lat = 42.36 + Math.floor(i / 10) * 0.004;
        return `/api/parcels/${clientId}?bbox=${lon},${lat},${lon + 0.006},${lat + 0.003}`;
      };
      // The first request loads the layer into the server's index: its own figure, not a sample.
      const firstRequestMs = Math.round((await timed(boxUrl(0))).ms);
      const boxes: number[] = [];
      const accounts = new Set<string>();
      for (let i = 0; i < BOXES; i++) {
        const res = await timed(boxUrl(i));
        boxes.push(res.ms);
        const { features } = JSON.parse(res.body) as { features: Array<{ properties: { Account: string } }> };
        for (const f of features) accounts.add(f.properties.Account);
      }
      // Subjects spread over the parcels those boxes found: every k-th.
      const found = [...accounts];
      const step = Math.max(1, Math.floor(found.length / ABUTTER_SUBJECTS));
      const subjects = found.filter((_a, i) => i % step === 0).slice(0, ABUTTER_SUBJECTS);
      const abutters: number[] = [];
      for (const a of subjects)
        abutters.push((await timed(`/api/abutters/${clientId}/${encodeURIComponent(a)}?distance=300`)).ms);
      // Comparable sales of the same subjects at the default criteria (the first reads the sale facts).
      await timed(`/api/comparables/${clientId}/${encodeURIComponent(subjects[0] ?? '')}`);
      const comparables: number[] = [];
      for (const a of subjects)
        comparables.push((await timed(`/api/comparables/${clientId}/${encodeURIComponent(a)}`)).ms);
      const figures: CambridgeFigures = {
        rollImportSeconds: rollSeconds,
        layerImportSeconds: layerSeconds,
        firstRequestMs,
        abutters: summarize(abutters),
        bbox: summarize(boxes),
        comparables: summarize(comparables),
        errors,
      };
      log(
        `    abutters at 300 ft p95 ${figures.abutters.p95} ms (${abutters.length} subjects; first ${firstRequestMs} ms); ` +
          `a few blocks' box p95 ${figures.bbox.p95} ms; comparable sales p95 ${figures.comparables!.p95} ms; ` +
          `${errors} errors`,
      );
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}
