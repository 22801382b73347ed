import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/database.ts';

export const demoRepository = {
  /** True when nobody has set the portal up yet: no client and no user. */
  async isEmpty(db: Executor): Promise<boolean> {
    const [row] = await queryRows<{ used: boolean }>(
      db,
      sql`select exists (select 1 from clients) or exists (select 1 from users) as used`,
    );
    return !row?.used;
  },
};
