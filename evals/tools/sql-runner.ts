/**
 * Evidence tool for an agent-loop judge: runs one read-only SQL query (typically the query the
 * target generated) against a small in-memory SQLite database of the example store's orders and
 * reports the rows, so the judge can check what the SQL actually returns instead of guessing.
 *
 * - Only a single SELECT (or `WITH … SELECT`) is accepted; anything else is an error result. The
 *   database is also opened with `PRAGMA query_only`, so a write hidden in a CTE fails too.
 * - Each judgment gets its own database (through the tool context's per-judgment state), so
 *   nothing one judgment does is seen by another.
 * - sql.js is pure WASM: no native build, loaded on first use.
 */
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { z } from 'zod';
import { tool, type ToolContext } from 'agent-evals';
import { createStore, type Order } from '../agents/store.js';

/** The example store's orders (the store keeps its list private; these are its ids). */
export const EXAMPLE_ORDER_IDS = ['A1049', 'A1050', 'A0990'] as const;

/** What the judge is told about the database. */
export const ORDERS_SCHEMA = [
  'orders(id TEXT PRIMARY KEY, email TEXT, status TEXT, total_usd REAL, delivered_days_ago INTEGER NULL, refunded INTEGER 0/1)',
  'order_items(order_id TEXT REFERENCES orders(id), sku TEXT, name TEXT, qty INTEGER)',
].join('; ');

const DDL = `
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  status TEXT NOT NULL,
  total_usd REAL NOT NULL,
  delivered_days_ago INTEGER,
  refunded INTEGER NOT NULL
);
CREATE TABLE order_items (
  order_id TEXT NOT NULL REFERENCES orders(id),
  sku TEXT NOT NULL,
  name TEXT NOT NULL,
  qty INTEGER NOT NULL
);`;

let sqlJs: Promise<SqlJsStatic> | undefined;
function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= import('sql.js')
    .then((m) => m.default())
    .catch((err: unknown) => {
      sqlJs = undefined;
      throw err;
    });
  return sqlJs;
}

/** A fresh, read-only in-memory database holding `orders` (default: the example store's). */
export async function createOrdersDatabase(orders: readonly Order[] = exampleOrders()): Promise<Database> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  db.run(DDL);
  const insOrder = db.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)');
  const insItem = db.prepare('INSERT INTO order_items VALUES (?, ?, ?, ?)');
  for (const o of orders) {
    insOrder.run([o.id, o.email, o.status, o.totalUsd, o.deliveredDaysAgo ?? null, o.refunded ? 1 : 0]);
    for (const i of o.items) insItem.run([o.id, i.sku, i.name, i.qty]);
  }
  insOrder.free();
  insItem.free();
  db.run('PRAGMA query_only = ON');
  return db;
}

export function exampleOrders(): Order[] {
  const store = createStore();
  return EXAMPLE_ORDER_IDS.map((id) => store.lookup(id));
}

export interface SqlEvidence {
  /** Cite this in `evidence`. */
  source: 'sql:orders';
  query: string;
  columns: string[];
  /** At most `maxRows` rows, as column → value. */
  rows: Array<Record<string, string | number | null>>;
  /** Every row the query returned (counted up to 10 000). */
  rowCount: number;
  truncated: boolean;
}

const LEADING_NOISE = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const COUNT_CAP = 10_000;

/**
 * The one statement in `query`, or an error naming why it is refused: more than one statement,
 * not a SELECT, or a recursive CTE (which could run unbounded inside one synchronous step).
 */
export function singleSelect(db: Database, query: string): string {
  const statements: string[] = [];
  for (const stmt of db.iterateStatements(query)) statements.push(stmt.getSQL());
  if (statements.length === 0) throw new Error('empty query: send one SELECT statement');
  if (statements.length > 1) throw new Error(`only a single SELECT statement is allowed (got ${statements.length} statements)`);
  const text = statements[0]!.trim();
  const keyword = /^[a-z]+/i.exec(text.replace(LEADING_NOISE, ''))?.[0]?.toUpperCase();
  if (keyword !== 'SELECT' && keyword !== 'WITH') throw new Error(`only a read-only SELECT is allowed (got ${keyword ?? 'no statement'})`);
  if (/\brecursive\b/i.test(text)) throw new Error('recursive queries are not allowed');
  return text;
}

/** Runs one read-only SELECT and reports its rows. Throws (an error result to the judge) on anything else. */
export function runReadOnlyQuery(db: Database, query: string, maxRows = 50): SqlEvidence {
  const text = singleSelect(db, query);
  const stmt = db.prepare(text);
  try {
    const columns = stmt.getColumnNames();
    const rows: SqlEvidence['rows'] = [];
    let rowCount = 0;
    while (rowCount < COUNT_CAP && stmt.step()) {
      if (rows.length < maxRows) {
        const values = stmt.get();
        rows.push(Object.fromEntries(columns.map((c, i) => [c, plain(values[i] ?? null)])));
      }
      rowCount++;
    }
    return { source: 'sql:orders', query: text, columns, rows, rowCount, truncated: rowCount > rows.length };
  } finally {
    stmt.free();
  }
}

function plain(v: SqlValue): string | number | null {
  return v instanceof Uint8Array ? `<blob:${v.length} bytes>` : v;
}

export interface SqlRunnerOptions {
  /** Tool name (default `run_sql`). */
  name?: string;
  /** Rows reported per query (default 50; the count covers all of them). */
  maxRows?: number;
  /** Builds the database for one judgment (default: the example orders). */
  database?: () => Promise<Database>;
}

// A judgment's database is dropped with its tool state; free its WASM memory when that happens.
const closer = new FinalizationRegistry<Promise<Database>>((db) => {
  db.then((d) => d.close()).catch(() => {});
});

/** A `run_sql` evidence tool; each judgment (each tool context) gets its own database. */
export function createSqlRunner(options: SqlRunnerOptions = {}) {
  const name = options.name ?? 'run_sql';
  const maxRows = options.maxRows ?? 50;
  const build = options.database ?? (() => createOrdersDatabase());
  const databaseFor = (ctx: ToolContext): Promise<Database> =>
    ctx.state(`${name}:db`, () => {
      const holder = { db: build() };
      closer.register(holder, holder.db);
      return holder;
    }).db;
  return tool({
    name,
    description: `Runs ONE read-only SQL SELECT (SQLite dialect) against the store's order database and returns the rows. Tables: ${ORDERS_SCHEMA}. Use it to check what a generated query really returns.`,
    parameters: z.object({
      query: z.string().min(1).describe('A single SELECT statement.'),
    }),
    execute: async ({ query }, ctx) => runReadOnlyQuery(await databaseFor(ctx), query, maxRows),
  });
}

/** The default `run_sql` tool over the example orders. */
export const sqlRunner = createSqlRunner();
