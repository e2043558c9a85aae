/**
 * Writes deploy/grafana/ledger-mm.json from scripts/grafana/dashboard.ts:
 *
 *   npm run dashboard
 */
import fs from 'node:fs';
import path from 'node:path';
import { DASHBOARD_FILE, ROOT, dashboardJson } from './dashboard.js';

const text = await dashboardJson();
const before = fs.existsSync(DASHBOARD_FILE) ? fs.readFileSync(DASHBOARD_FILE, 'utf8') : '';
fs.writeFileSync(DASHBOARD_FILE, text);
console.log(
  `${path.relative(ROOT, DASHBOARD_FILE)}: ${before === text ? 'unchanged' : 'written'} (${text.split('\n').length - 1} lines)`,
);
