/**
 * Sweeps that outgrow one machine: `tune --shard i/N` runs the i-th of N slices of a search's
 * training runs and writes their figures to `DIR/shard-i-of-N.json`; `tune --collect DIR` reads
 * every shard of DIR, checks they are the same search and cover every run once, ranks, runs the
 * best few on the test seeds, and reports exactly as one `tune` run would. Slices take every N-th
 * run (run k goes to shard k mod N + 1), so each gets a share of every candidate.
 *
 * The search is named by a fingerprint (a hash of its parameters, candidates, seeds, regimes,
 * scenario and objective); shards of another search are refused, never mixed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunFigures } from '../simulate/figures/figures.js';
import { TuneSetup, type TuneJob, type TuneOptions, type TuneReport } from './tune.js';

/** `i/N`: shard `index` (1-based) of `count`. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** What a shard writes. */
export interface ShardFile {
  readonly tool: 'ledger-mm tune';
  readonly kind: 'tune-shard';
  readonly formatVersion: 1;
  readonly fingerprint: string;
  readonly shard: ShardSpec;
  /** Training runs of the whole search. */
  readonly totalRuns: number;
  readonly runs: readonly { readonly job: TuneJob; readonly figures: RunFigures }[];
}

/** A shard that cannot be collected; the message says why. */
export class ShardError extends Error {
  override readonly name = 'ShardError';
}

/** Parses `i/N` (1 ≤ i ≤ N ≤ 10 000). */
export function parseShard(text: string): ShardSpec | { error: string } {
  const m = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m === null || !(index >= 1 && index <= count && count <= 10_000))
    return { error: `--shard must be i/N with 1 ≤ i ≤ N ≤ 10000, got "${text}"` };
  return { index, count };
}

/** The file name of a shard. */
export function shardFileName(s: ShardSpec): string {
  return `shard-${s.index}-of-${s.count}.json`;
}

/** The search's fingerprint: what must be equal for shards to be merged. */
export function fingerprint(o: TuneOptions): string {
  const what = {
    params: o.params,
    candidates: o.candidates,
    train: o.train,
    test: o.test,
    top: o.top,
    objective: o.objective,
    regimes: o.regimes ?? null,
    hours: o.input.hours,
    latency: o.input.latency,
    configFiles: o.input.configFiles,
    market: o.input.market,
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 16);
}

/** Runs shard `s` of the search's training runs; writes and returns its file's path. */
export async function tuneShard(o: TuneOptions, s: ShardSpec, outDir: string): Promise<string> {
  const setup = new TuneSetup(o);
  const all = setup.jobs(setup.indexes, o.train);
  const mine = all.filter((j) => j.position % s.count === s.index - 1);
  const figures = await setup.run(mine);
  const file: ShardFile = {
    tool: 'ledger-mm tune',
    kind: 'tune-shard',
    formatVersion: 1,
    fingerprint: fingerprint(o),
    shard: s,
    totalRuns: all.length,
    runs: mine.map((job, k) => ({ job, figures: figures[k]! })),
  };
  const dir = resolve(outDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, shardFileName(s));
  writeFileSync(path, `${JSON.stringify(file)}\n`);
  return path;
}

/** Reads every shard of `dir` and checks it is the whole of this search; the training figures. */
export function readShards(o: TuneOptions, dir: string): RunFigures[] {
  const setup = new TuneSetup(o);
  const all = setup.jobs(setup.indexes, o.train);
  const names = readdirSync(resolve(dir))
    .filter((n) => /^shard-\d+-of-\d+\.json$/.test(n))
    .sort();
  if (names.length === 0) throw new ShardError(`no shard-i-of-N.json in ${dir}`);
  const expected = fingerprint(o);
  const byPosition = new Array<RunFigures | undefined>(all.length);
  let count: number | null = null;
  const seen = new Set<number>();
  for (const name of names) {
    const path = join(resolve(dir), name);
    let file: ShardFile;
    try {
      file = JSON.parse(readFileSync(path, 'utf8')) as ShardFile;
    } catch (err) {
      throw new ShardError(`${path}: not a shard file (${err instanceof Error ? err.message : String(err)})`);
    }
    if (file.kind !== 'tune-shard') throw new ShardError(`${path}: not a shard file`);
    if (file.fingerprint !== expected)
      throw new ShardError(
        `${path}: a shard of another search (fingerprint ${file.fingerprint}, this search ${expected}): give the same options as the shards ran with`,
      );
    if (count !== null && file.shard.count !== count)
      throw new ShardError(`${path}: shard of ${file.shard.count}, others of ${count}`);
    count = file.shard.count;
    seen.add(file.shard.index);
    for (const { job, figures } of file.runs) {
      const want = all[job.position];
      if (want === undefined || JSON.stringify(want) !== JSON.stringify(job))
        throw new ShardError(`${path}: run ${job.position} is not this search's`);
      if (byPosition[job.position] !== undefined) throw new ShardError(`${path}: run ${job.position} twice`);
      byPosition[job.position] = figures;
    }
  }
  const missingShards = Array.from({ length: count! }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missingShards.length > 0)
    throw new ShardError(`${dir}: missing shards ${missingShards.map((i) => `${i}/${count}`).join(', ')}`);
  const missing = byPosition.findIndex((f) => f === undefined);
  if (missing >= 0) throw new ShardError(`${dir}: run ${missing} is in no shard`);
  return byPosition as RunFigures[];
}

/** Merges the shards of `dir` and finishes the search (test seeds run here). */
export async function collectTune(o: TuneOptions, dir: string): Promise<TuneReport> {
  const figures = readShards(o, dir);
  return new TuneSetup(o).finish(figures);
}
