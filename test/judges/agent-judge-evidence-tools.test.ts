/**
 * The example evidence tools (evals/tools): `policy_lookup` returns the store policy with a source
 * id; `run_sql` runs one read-only SELECT against a per-judgment in-memory SQLite database of the
 * example orders and refuses anything else.
 */
import { describe, expect, it } from 'vitest';
import { POLICIES } from '../../evals/agents/store.js';
import { lookupPolicy, policyLookup, POLICY_TOPICS } from '../../evals/tools/policy-lookup.js';
import { createOrdersDatabase, createSqlRunner, runReadOnlyQuery, sqlRunner, type SqlEvidence } from '../../evals/tools/sql-runner.js';
import { executeTool } from '../../src/targets/tool.js';
import { toolContext } from './agent-judge-helpers.js';

describe('policy_lookup', () => {
  it('returns the policy text and a source id', async () => {
    const out = await executeTool(policyLookup, { topic: 'refunds' }, toolContext());
    expect(out).toEqual({ isError: false, result: { source: 'policy:refunds', topic: 'refunds', text: POLICIES.refunds } });
    expect(lookupPolicy(' Shipping ')).toMatchObject({ source: 'policy:shipping', text: POLICIES.shipping });
  });

  it('offers the known topics to the model, and an unknown one is an error result naming them', async () => {
    expect(policyLookup.name).toBe('policy_lookup');
    expect(policyLookup.jsonSchema).toMatchObject({ type: 'object', properties: { topic: { enum: POLICY_TOPICS } }, required: ['topic'] });
    const out = await executeTool(policyLookup, { topic: 'warranty' }, toolContext());
    expect(out.isError).toBe(true);
    expect(String(out.result)).toMatch(/invalid arguments for policy_lookup: topic/);
    expect(() => lookupPolicy('warranty')).toThrow('no policy on "warranty"; known topics: refunds, shipping');
    // Inherited object keys are not topics.
    expect(() => lookupPolicy('constructor')).toThrow(/no policy/);
  });
});

describe('run_sql', () => {
  const run = async (query: string, ctx = toolContext(), t = sqlRunner) => executeTool(t, { query }, ctx);

  it('reports the rows of a SELECT over the example orders', async () => {
    const out = await run('SELECT id, status, total_usd FROM orders WHERE refunded = 0 ORDER BY id');
    expect(out.isError).toBe(false);
    const ev = out.result as SqlEvidence;
    expect(ev).toMatchObject({ source: 'sql:orders', columns: ['id', 'status', 'total_usd'], rowCount: 3, truncated: false });
    expect(ev.rows).toEqual([
      { id: 'A0990', status: 'delivered', total_usd: 80 },
      { id: 'A1049', status: 'delivered', total_usd: 42 },
      { id: 'A1050', status: 'shipped', total_usd: 19.5 },
    ]);
  });

  it('joins items, takes WITH, a trailing semicolon and leading comments', async () => {
    const joined = (await run("-- the target's query\nSELECT o.id, i.name, i.qty FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 'A1049';")).result as SqlEvidence;
    expect(joined.rows).toEqual([{ id: 'A1049', name: 'Blue mug', qty: 2 }]);
    const cte = (await run('WITH late AS (SELECT id FROM orders WHERE delivered_days_ago > 30) SELECT count(*) AS n FROM late')).result as SqlEvidence;
    expect(cte.rows).toEqual([{ n: 1 }]);
    const nulls = (await run("SELECT delivered_days_ago FROM orders WHERE id = 'A1050'")).result as SqlEvidence;
    expect(nulls.rows).toEqual([{ delivered_days_ago: null }]);
  });

  it.each([
    ['DELETE FROM orders', /only a read-only SELECT is allowed \(got DELETE\)/],
    ["UPDATE orders SET refunded = 1 WHERE id = 'A1049'", /got UPDATE/],
    ['INSERT INTO orders VALUES (1,2,3,4,5,6)', /got INSERT/],
    ['DROP TABLE orders', /got DROP/],
    ['PRAGMA query_only = OFF', /got PRAGMA/],
    ["ATTACH DATABASE ':memory:' AS x", /got ATTACH/],
    ['SELECT 1; DELETE FROM orders', /only a single SELECT statement is allowed \(got 2 statements\)/],
    ['SELECT 1; SELECT 2', /single SELECT.*got 2/],
    ['WITH x AS (SELECT 1) DELETE FROM orders', /readonly/],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', /recursive queries are not allowed/],
    ['   ', /empty query/],
    ['SELECT * FROM customers', /no such table: customers/],
    ['SELEC id FROM orders', /syntax error/],
  ])('refuses %j with an error result', async (query, message) => {
    const ctx = toolContext();
    const out = await run(query, ctx);
    expect(out.isError).toBe(true);
    expect(String(out.result)).toMatch(message);
    // Nothing changed: the same judgment's database still holds every order, unrefunded.
    const after = (await run('SELECT count(*) AS n, sum(refunded) AS r FROM orders', ctx)).result as SqlEvidence;
    expect(after.rows).toEqual([{ n: 3, r: 0 }]);
  });

  it('reports at most maxRows rows but counts them all', async () => {
    const small = createSqlRunner({ maxRows: 2 });
    const ev = (await run('SELECT o.id, i.sku FROM orders o, order_items i', toolContext(), small)).result as SqlEvidence;
    expect(ev.rows).toHaveLength(2);
    expect(ev).toMatchObject({ rowCount: 9, truncated: true });
  });

  it('gives each tool context (each judgment) its own database, reused across its queries', async () => {
    let built = 0;
    const counting = createSqlRunner({
      database: async () => {
        built++;
        return createOrdersDatabase([{ id: `X${built}`, email: 'x@example.com', status: 'processing', totalUsd: 1, refunded: false, items: [] }]);
      },
    });
    const first = toolContext();
    const second = toolContext();
    const ids = async (ctx: ReturnType<typeof toolContext>) => ((await run('SELECT id FROM orders', ctx, counting)).result as SqlEvidence).rows;
    expect(await ids(first)).toEqual([{ id: 'X1' }]);
    expect(await ids(first)).toEqual([{ id: 'X1' }]);
    expect(await ids(second)).toEqual([{ id: 'X2' }]);
    expect(built).toBe(2);
  });

  it('runReadOnlyQuery works on a database built directly', async () => {
    const db = await createOrdersDatabase();
    try {
      expect(runReadOnlyQuery(db, "SELECT email FROM orders WHERE id = 'A0990'").rows).toEqual([{ email: 'cy@example.com' }]);
      expect(() => db.run('UPDATE orders SET refunded = 1')).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });
});
