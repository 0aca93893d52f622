import type { Pool } from 'pg';

/** Whether the user holds the auditor role, as rm_auditors shows it. */
export async function isAuditor(pool: Pool, userId: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM rm_auditors WHERE user_id = $1', [userId]);
  return (rowCount ?? 0) > 0;
}
