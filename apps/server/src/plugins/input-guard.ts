import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { validationFailed } from '../errors.ts';

/*
 * Text PostgreSQL cannot store never reaches a route: a NUL character anywhere in the path parameters,
 * the query string or a JSON body is a 400 naming the field, before any schema or query runs. The
 * contracts refuse NUL field by field too; this is the net under every field somebody forgets.
 */

const NUL = '\u0000';
/** Bodies are at most 1 MiB; this bounds the walk whatever their shape. */
const MAX_NODES = 200_000;

/** The path (`filters.land.type.0`) of the first string holding a NUL, or null. Iterative: no stack limit. */
export function findNul(value: unknown, root = ''): string | null {
  const stack: [unknown, string][] = [[value, root]];
  let seen = 0;
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (++seen > MAX_NODES) return null;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path || 'body';
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        const p = path ? `${path}.${k}` : k;
        if (k.includes(NUL)) return p;
        stack.push([child, p]);
      }
    }
  }
  return null;
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const where = findNul(request.params) ?? findNul(request.query) ?? findNul(request.body);
      if (where) throw validationFailed(where, 'must not contain NUL characters');
    });
  },
  { name: 'input-guard', dependencies: ['error-handler'] },
);
