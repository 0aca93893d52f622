import type { ClientBase } from 'pg';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * How PostgreSQL's generic plan for a prepared statement (the one it soon keeps, blind to the
 * parameters' values) reads each table: the statement is prepared with `types`, explained for
 * `values` (SQL literals) under `plan_cache_mode = force_generic_plan`, and the answer gives, for a
 * table, the node types of the plan's scans of it.
 */
export async function genericPlanScans(
  client: ClientBase,
  text: string,
  types: string,
  values: string,
): Promise<(table: string) => string[]> {
  await client.query('SET plan_cache_mode = force_generic_plan');
  try {
    await client.query(`PREPARE plan_under_test (${types}) AS ${text}`);
    const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE plan_under_test (${values})`,
    );
    const all = nodes(explained.rows[0]!['QUERY PLAN'][0].Plan);
    return (table) =>
      all.filter((node) => node['Relation Name'] === table).map((node) => node['Node Type']);
  } finally {
    await client.query('DEALLOCATE ALL');
    await client.query('RESET plan_cache_mode');
  }
}
