import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const KUBERNETES_DIR = path.join(ROOT, 'deploy/kubernetes');

/** `shutdown.graceMs` of config/default.json and of config/paper.json (its own, else the default). */
export function shutdownGraceMs(): { run: number; paper: number } {
  const read = (f: string): { shutdown?: { graceMs?: number } } =>
    JSON.parse(fs.readFileSync(path.join(ROOT, 'config', f), 'utf8')) as { shutdown?: { graceMs?: number } };
  const run = read('default.json').shutdown?.graceMs;
  if (run === undefined) throw new Error('config/default.json has no shutdown.graceMs');
  return { run, paper: read('paper.json').shutdown?.graceMs ?? run };
}

/** Every document of a YAML file; throws naming the file on a syntax error. */
export function yamlDocuments(file: string): unknown[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
  const out: unknown[] = [];
  for (const d of docs) {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = d.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** A duration of docker compose (`165s`, `2m45s`, `1m`) in seconds. */
export function composeSeconds(text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?$/.exec(text.trim());
  if (m === null || text.trim() === '') throw new Error(`not a compose duration: ${text}`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}
